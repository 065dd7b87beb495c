// mlx5 driver errors in kernel log records. A record about a device is the kernel's dev_printk()
// line: "<driver> <device>: <text>" (netdev_printk: "<driver> <device> <netdev>: <text>"), and the
// patterns are looked for in its text only after that prefix has been checked against the device
// journald recorded. A device-less record is matched only as one of the kernel's own report
// shapes, from the start of the message. The patterns are matched by the SDK's one matcher
// (nicd/plugin/sdk/kernel_line_matcher.h). Cheap tests only (no regex): most kernel lines are about
// another driver and are rejected on their prefix, with no allocation.
#include "kernel_patterns.hpp"

#include <nicd/plugin/sdk/kernel_line_matcher.h>
#include <nicd/plugin/sdk/pcie_report.h>
#include <nicd/plugin/sdk/printed_record.h>

#include <array>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;
using ::nicd::plugin::sdk::classifyPcie;
using ::nicd::plugin::sdk::printedAbout;
using ::nicd::plugin::sdk::PrintedRecord;
using ::nicd::plugin::sdk::startsWithPciAddress;

namespace {

using S = pv1::Severity;
using ::nicd::plugin::sdk::KernelLinePattern;

// First match wins: more specific patterns before more general ones.
constexpr std::array kPatterns{
    KernelLinePattern{"mlx5.cmd_timeout",
                      S::Fatal,
                      {"timeout. Will cause a leak of a command resource", nullptr, nullptr},
                      "firmware command timed out: the NIC's firmware stopped answering",
                      "drain the node; reset the NIC (or reboot), replace it if it recurs",
                      "reset_nic"},
    KernelLinePattern{"mlx5.health_compromised",
                      S::Fatal,
                      {"health compromised", nullptr, nullptr},
                      "the driver's health poll lost the NIC (missed heartbeats)",
                      "drain the node; reset or replace the NIC",
                      "reset_nic"},
    KernelLinePattern{"mlx5.health_recovery_failed",
                      S::Fatal,
                      {"health recovery flow aborted", nullptr, nullptr},
                      "the driver could not recover the NIC",
                      "drain the node; reboot, replace the NIC if it recurs",
                      "reboot_node"},
    KernelLinePattern{"mlx5.fatal_error",
                      S::Fatal,
                      {"Fatal error", "detected", nullptr},
                      "the NIC reported a fatal firmware/hardware error",
                      "drain the node; reset or replace the NIC",
                      "reset_nic"},
    KernelLinePattern{"mlx5.unrecoverable",
                      S::Fatal,
                      {"unrecoverable", nullptr, nullptr},
                      "the NIC reported an unrecoverable hardware error",
                      "replace the NIC",
                      "replace_nic"},
    KernelLinePattern{"mlx5.pci_channel_error",
                      S::Fatal,
                      {"mlx5_pci_err_detected", "need reset", nullptr},
                      "PCIe error on the NIC; the device needs a reset",
                      "check the PCIe slot and riser; reset or reseat the NIC",
                      "reset_nic"},
    KernelLinePattern{"mlx5.pci_channel_offline",
                      S::Fatal,
                      {"PCI channel offline", nullptr, nullptr},
                      "the NIC's PCIe channel went offline",
                      "check the PCIe slot and riser; reseat or replace the NIC",
                      "reseat_nic"},
    KernelLinePattern{"mlx5.load_failed",
                      S::Fatal,
                      {"mlx5_load_one failed", nullptr, nullptr},
                      "the driver failed to initialise the NIC",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    KernelLinePattern{"mlx5.probe_failed",
                      S::Fatal,
                      {"probe with driver mlx5_core failed with error", nullptr, nullptr},
                      "the driver failed to probe the NIC",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    KernelLinePattern{"mlx5.tx_timeout",
                      S::NonFatal,
                      {"TX timeout detected", nullptr, nullptr},
                      "a transmit queue stopped completing",
                      "watch for repeats; a wedged queue stalls collectives",
                      "none"},
    KernelLinePattern{"mlx5.rx_timeout",
                      S::NonFatal,
                      {"RX timeout on channel", nullptr, nullptr},
                      "a receive queue stopped completing",
                      "watch for repeats",
                      "none"},
    KernelLinePattern{"mlx5.insufficient_power",
                      S::NonFatal,
                      {"insufficient power", nullptr, nullptr},
                      "the PCIe slot does not supply enough power for the NIC",
                      "move the NIC to a slot with enough power",
                      "reseat_nic"},
    KernelLinePattern{"mlx5.module_high_temperature",
                      S::NonFatal,
                      {"Port module event", "High Temperature", nullptr},
                      "the cable/transceiver module is overheating",
                      "check airflow; replace the transceiver",
                      "check_cooling"},
    KernelLinePattern{"mlx5.cable_unplugged",
                      S::NonFatal,
                      {"Port module event", "Cable unplugged", nullptr},
                      "the cable or transceiver was unplugged",
                      "reseat or replace the cable",
                      "check_cable"},
    KernelLinePattern{"mlx5.module_error",
                      S::NonFatal,
                      {"Port module event[error]", nullptr, nullptr},
                      "the cable/transceiver module reported an error",
                      "reseat or replace the transceiver",
                      "replace_cable_or_transceiver"},
    KernelLinePattern{"mlx5.module_absent",
                      S::NonFatal,
                      {"Port module event", "absent", nullptr},
                      "no cable/transceiver module in the port",
                      "insert a cable or transceiver",
                      "check_cable"},
    KernelLinePattern{"mlx5.access_reg_failed",
                      S::NonFatal,
                      {"ACCESS_REG", "failed", nullptr},
                      "a register access command failed (common on restricted PFs)",
                      "usually benign; investigate if it repeats",
                      "none"},
};

bool contains(std::string_view line, const char* needle)
{
    return line.find(needle) != std::string_view::npos;
}

// The transmit watchdog, printed by the networking core:
//   before 6.8, device-less: "NETDEV WATCHDOG: eth1 (mlx5_core): transmit queue 19 timed out"
//     (and "... timed out 5376 ms" on kernels with the backport of e316dd1cf135's text only);
//   6.8+ (e316dd1cf135, backported to 6.6.47/6.1.107), through netdev_crit() about the device:
//     "mlx5_core 0000:65:00.0 ens15np0: NETDEV WATCHDOG: CPU: 94: transmit queue 3 timed out".
constexpr std::string_view kWatchdog = "NETDEV WATCHDOG: ";

constexpr KernelLinePattern kWatchdogPattern{
    "netdev.tx_watchdog",
    S::NonFatal,
    {},
    "transmit queue timed out (NETDEV WATCHDOG)",
    "watch for repeats; check the link partner and PFC pause storms",
    "none"};

void watchdog(pv1::KernelLineMatch& out)
{
    ::nicd::plugin::sdk::fillMatch(kWatchdogPattern, out);
}

bool classifyDeviceLessWatchdog(std::string_view m, pv1::KernelLineMatch& out)
{
    if (!m.starts_with(kWatchdog))
        return false;
    m.remove_prefix(kWatchdog.size());
    auto paren = m.find(" (mlx5_core): transmit queue ");
    if (paren == 0 || paren == std::string_view::npos)
        return false;
    auto name = m.substr(0, paren);
    if (name.find_first_of(" :/") != std::string_view::npos || !contains(m, " timed out"))
        return false;
    out.netdev = std::string(name);
    watchdog(out);
    return true;
}

constexpr KernelLinePattern kProbePattern{
    "mlx5.probe_failed",
    S::Fatal,
    {},
    "the driver failed to probe the NIC",
    "check firmware and driver versions; reflash or replace the NIC",
    "update_firmware"};

// The driver core's probe failure before 6.x, device-less:
// "mlx5_core: probe of 0000:03:00.0 failed with error -22".
bool classifyDeviceLessProbe(std::string_view m, pv1::KernelLineMatch& out)
{
    constexpr std::string_view kProbe = "mlx5_core: probe of ";
    if (!m.starts_with(kProbe) || !startsWithPciAddress(m.substr(kProbe.size())) ||
        !m.substr(kProbe.size() + 12).starts_with(" failed with error "))
        return false;
    out.pci_address = std::string(m.substr(kProbe.size(), 12));
    ::nicd::plugin::sdk::fillMatch(kProbePattern, out);
    return true;
}

bool classifyDriver(const PrintedRecord& p, pv1::KernelLineMatch& out)
{
    // mlx5_core's own lines, and mlx5_ib's where an RDMA device printed them.
    if (p.driver != "mlx5_core" && !(p.driver == "infiniband" && contains(p.text, "mlx5")))
        return false;
    if (p.text.starts_with(kWatchdog) && contains(p.text, "timed out")) {
        watchdog(out);
        return true;
    }
    return ::nicd::plugin::sdk::matchKernelLine(p.text, kPatterns, out);
}

} // namespace

bool classifyKernelRecord(const pv1::KernelRecord& rec, pv1::KernelLineMatch& out) noexcept
{
    try {
        if (rec.deviceLess())
            return classifyDeviceLessWatchdog(rec.message, out) ||
                   classifyDeviceLessProbe(rec.message, out);
        auto printed = printedAbout(rec);
        if (!printed)
            return false;
        if (!classifyPcie(*printed, "mlx5_core", out) && !classifyDriver(*printed, out))
            return false;
        if (rec.subsystem == "pci" && out.pci_address.empty())
            out.pci_address = std::string(rec.device);
        out.netdev = std::string(printed->netdev);
        if (rec.subsystem == "infiniband")
            out.netdev.clear(); // ibdev_printk's name is the RDMA device's, not a netdev
        return true;
    } catch (...) {
        out = {};
        return false;
    }
}

} // namespace nicd::mlx5
