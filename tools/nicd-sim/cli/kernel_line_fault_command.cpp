// inject DIR kernel-line DEV EVENT: the device's driver prints the lines of EVENT
// (driver_lines.hpp) into the node's journal, with the trusted fields journald keeps, in the
// current boot: a journal file of its own under var/log/journal/, made by systemd-journal-remote
// from the export format a capture writes (capture/kernel_lines.hpp), so nicd reads them as a real
// node's.
#include "beneath.hpp"
#include "capture/kernel_lines.hpp"
#include "cli/args.hpp"
#include "cli/registry.hpp"
#include "driver_lines.hpp"
#include "files.hpp"
#include "node_state.hpp"
#include "vendor_catalog.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace nicd::sim::cli {

namespace {

constexpr const char* kMachineId = "0123456789abcdef0123456789abcdef"; // the demo's

// The export and the journal staged in the simulator's tmp dir, removed on every way out: a
// failed conversion or move leaves nothing behind (a moved journal is no longer there).
class StagedFiles {
public:
    StagedFiles(int tmp_fd, std::vector<std::string> names)
        : tmp_fd_(tmp_fd), names_(std::move(names))
    {
    }
    StagedFiles(const StagedFiles&) = delete;
    StagedFiles& operator=(const StagedFiles&) = delete;
    ~StagedFiles()
    {
        for (const auto& n : names_)
            ::unlinkat(tmp_fd_, n.c_str(), 0);
    }

private:
    int tmp_fd_;
    std::vector<std::string> names_;
};

void writeKernelLines(const fs::path& dir, const std::string& dev, const std::string& event)
{
    LockedNode st(dir);
    const auto& d = st->device(dev);
    const auto& netdevs = d.ethtool_netdevs.empty() ? d.netdevs : d.ethtool_netdevs;
    auto lines = driverLines(d.vendor, event, d.pci_address,
                             netdevs.empty() ? std::string() : netdevs.front(), dev);
    auto boot = readText(dir / "proc/sys/kernel/random/boot_id");
    std::erase_if(boot, [](char c) { return c == '-' || c == '\n'; });
    auto now = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                         std::chrono::system_clock::now().time_since_epoch())
                                         .count());
    std::vector<capture::KernelEntry> entries;
    entries.reserve(lines.size());
    for (const auto& l : lines)
        entries.push_back({now++, l.message, l.kernel_device, l.kernel_subsystem});
    const auto name = fmt::format("nicd-sim-{}", now);
    const auto journal_name = name + ".journal";
    const auto export_name = name + ".export";

    // journal-remote writes by path, so it writes only into the simulator's own tmp dir (made
    // link-free, as BeneathWriter requires); the journal directory is opened first, refusing
    // any link on the way, and the journal is moved into it by descriptor: a link planted at
    // var/log/journal never sends it out of the node.
    const auto root = openDir(dir);
    const auto journal_dir = dir / "var/log/journal" / kMachineId;
    const std::vector<std::string> journal_parts = {"var", "log", "journal", kMachineId};
    const auto journal_fd = openDirBeneath(root.get(), journal_parts, true, 0755, journal_dir);
    const auto tmp = simDir(dir) / "tmp";
    const std::vector<std::string> tmp_parts = {"run", "nicd-sim", "tmp"};
    const auto tmp_fd = openDirBeneath(root.get(), tmp_parts, true, 0755, tmp);
    const StagedFiles staged(tmp_fd.get(), {export_name, journal_name});

    writeText(dir, tmp / export_name,
              capture::journalExport(entries, boot, kMachineId, "localhost"));
    auto why = capture::writeJournalFile(tmp / export_name, tmp / journal_name);
    if (!why.empty())
        throw SimError("kernel-line: " + why);
    if (::renameat(tmp_fd.get(), journal_name.c_str(), journal_fd.get(), journal_name.c_str()) != 0)
        throw SimError("kernel-line: cannot move the journal into " + journal_dir.string() + ": " +
                       std::strerror(errno));
}

// "bnxt: fw-fatal-reset, ...; mlx5: fw-fatal, ...": every vendor's events, for --help.
std::string eventsByVendor()
{
    std::vector<std::string> each;
    for (const char* vendor : kVendors)
        each.push_back(fmt::format("{}: {}", vendor, fmt::join(driverEvents(vendor), ", ")));
    return fmt::format("{}", fmt::join(each, "; "));
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(
    kernel_line, "kernel-line",
    // The events driver_lines.hpp knows, so --help never lists one it refuses.
    fmt::format("the device's driver logs EVENT's lines ({}) into the node's journal",
                eventsByVendor()),
    [](CLI::App& cmd) {
        auto a = std::make_shared<DeviceArgs>(cmd);
        auto event = std::make_shared<std::string>();
        cmd.add_option("EVENT", *event, "what happened, e.g. fw-fatal-reset")->required();
        return [a, event](const fs::path& dir) { writeKernelLines(dir, a->dev, *event); };
    },
    60);

} // namespace nicd::sim::cli
