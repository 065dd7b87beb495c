// inject DIR kernel-line DEV EVENT: the device's driver prints the lines of EVENT
// (driver_lines.hpp) into the node's journal, with the trusted fields journald keeps, in the
// current boot: a journal file of its own under var/log/journal/, made by systemd-journal-remote
// from the export format a capture writes (capture/kernel_lines.hpp), so nicd reads them as a real
// node's.
#include "capture/kernel_lines.hpp"
#include "cli/args.hpp"
#include "cli/registry.hpp"
#include "driver_lines.hpp"
#include "files.hpp"
#include "node_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace nicd::sim::cli {

namespace {

constexpr const char* kMachineId = "0123456789abcdef0123456789abcdef"; // the demo's

void writeKernelLines(const fs::path& dir, const std::string& dev, const std::string& event)
{
    NodeLock lock(dir);
    auto st = NodeState::load(dir);
    const auto& d = st.device(dev);
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
    const auto export_file = simDir(dir) / "tmp" / (name + ".export");
    writeText(dir, export_file, capture::journalExport(entries, boot, kMachineId, "localhost"));
    auto why = capture::writeJournalFile(export_file, dir / "var/log/journal" / kMachineId /
                                                          (name + ".journal"));
    fs::remove(export_file);
    if (!why.empty())
        throw SimError("kernel-line: " + why);
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(
    kernel_line, "kernel-line",
    "the device's driver logs EVENT's lines (bnxt: fw-fatal-reset, fw-hang, "
    "fw-reset-failed, tx-timeout, hwrm-timeout, pause-storm, thermal, pci-error, "
    "fw-stall, roce-probe-failed; mlx5: fw-fatal, cmd-timeout, tx-timeout) into the "
    "node's journal",
    [](CLI::App& cmd) {
        auto a = std::make_shared<DeviceArgs>(cmd);
        auto event = std::make_shared<std::string>();
        cmd.add_option("EVENT", *event, "what happened, e.g. fw-fatal-reset")->required();
        return [a, event](const fs::path& dir) { writeKernelLines(dir, a->dev, *event); };
    },
    60);

} // namespace nicd::sim::cli
