// The kernel lines of a capture: the current boot's kernel-transport journal entries about the
// NICs (mlx5, PCIe/AER/DPC, the TX watchdog, soft-lockup headers, or naming a captured device),
// read with nicd's own journal reader, without the process names they carry
// (withoutProcessNames), written in journal export format
// (run/nicd-sim/capture/kernel.export) and, where systemd-journal-remote is installed, turned
// into a journal file under var/log/journal/<machine-id>/ that nicd --root reads as it reads a
// node's journal.
#pragma once

#include "capture/manifest.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim::capture {

struct KernelEntry {
    uint64_t realtime_usec = 0;
    std::string message;
    // journald's trusted fields as the node's journal holds them ("+pci:0000:3b:00.0", "pci"),
    // kept so that the replay attributes a line exactly as the node did; empty when none.
    std::string kernel_device;
    std::string kernel_subsystem;
};

// Whether a kernel line belongs in a capture: what nicd's kernel rules could match (mlx5 and bnxt
// lines, PCIe port reports, NETDEV WATCHDOG, a soft-lockup report's header line), a line that names
// one of `names` (the captured PCI addresses, netdevs and RDMA devices) or that the kernel printed
// about one of them (`kernel_device`, journald's _KERNEL_DEVICE). Of a soft-lockup report's stack,
// only the frames that name mlx5 are kept (nicd's rule looks for mlx5 polling frames in the 150
// lines after the header; the others, and the register dump, are left on the node). Never the
// kernel's reports about user programs (a segfault names a program and its files, and nicd never
// judges them).
bool isNicLine(std::string_view message, std::string_view kernel_device,
               const std::vector<std::string>& names);

// `message` without the process names the kernel puts in it: a soft-lockup header's
// "[comm:pid]" becomes "[process:pid]", "Comm: name" becomes "Comm: process".
std::string withoutProcessNames(std::string_view message);

// At most this many lines are kept (the latest ones).
inline constexpr size_t kMaxKernelEntries = 20000;

// The current boot's (`boot_id`, 32 hex digits) kernel lines that isNicLine keeps, in journal
// order. `root` "/" reads the system journal, another directory its var/log/journal and
// run/log/journal. A journal that cannot be read is noted in the manifest: no lines.
std::vector<KernelEntry> readKernelEntries(const std::filesystem::path& root,
                                           const std::string& boot_id,
                                           const std::vector<std::string>& names,
                                           Manifest& manifest);

// Every _HOSTNAME the journal under `root` holds (the names the node went by): learnt for the
// scrubber. Empty when the journal cannot be read.
std::vector<std::string> journalHostnames(const std::filesystem::path& root);

// Journal export format: per entry __REALTIME_TIMESTAMP, __MONOTONIC_TIMESTAMP (rebuilt from
// the wall clock, increasing: nicd reads only the message and the wall time), _BOOT_ID,
// _MACHINE_ID, _HOSTNAME, _TRANSPORT=kernel, SYSLOG_IDENTIFIER=kernel, _KERNEL_DEVICE and
// _KERNEL_SUBSYSTEM where the line had them, and MESSAGE (in the
// binary form when it holds a newline or a control byte), entries separated by a blank line.
std::string journalExport(const std::vector<KernelEntry>& entries, const std::string& boot_id,
                          const std::string& machine_id, const std::string& hostname);

// Runs systemd-journal-remote --output=`journal` `export_file`. Returns an empty string on
// success, else why not (not installed, its exit status).
std::string writeJournalFile(const std::filesystem::path& export_file,
                             const std::filesystem::path& journal);

} // namespace nicd::sim::capture
