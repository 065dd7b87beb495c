// mlx5 driver errors in kernel log lines. Cheap substring tests only (no regex): most kernel
// lines mention neither mlx5 nor PCIe nor a TX watchdog and are rejected after a few memchr-speed
// searches, with no allocation.
#include "kernel_patterns.hpp"

#include <array>
#include <cctype>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

namespace {

struct Pattern {
    const char* code;
    pv1::Severity severity;
    std::array<const char*, 3> needles; // all must appear (nullptr = unused)
    const char* message;
    const char* action;
    const char* action_code; // the daemon's machine-readable action (docs/conditions.md)
};

using S = pv1::Severity;

// First match wins: more specific patterns before more general ones.
constexpr std::array kPatterns{
    Pattern{"mlx5.cmd_timeout",
            S::Fatal,
            {"timeout. Will cause a leak of a command resource", nullptr, nullptr},
            "firmware command timed out: the NIC's firmware stopped answering",
            "drain the node; reset the NIC (or reboot), replace it if it recurs",
            "reset_nic"},
    Pattern{"mlx5.health_compromised",
            S::Fatal,
            {"health compromised", nullptr, nullptr},
            "the driver's health poll lost the NIC (missed heartbeats)",
            "drain the node; reset or replace the NIC",
            "reset_nic"},
    Pattern{"mlx5.health_recovery_failed",
            S::Fatal,
            {"health recovery flow aborted", nullptr, nullptr},
            "the driver could not recover the NIC",
            "drain the node; reboot, replace the NIC if it recurs",
            "reboot_node"},
    Pattern{"mlx5.fatal_error",
            S::Fatal,
            {"Fatal error", "detected", nullptr},
            "the NIC reported a fatal firmware/hardware error",
            "drain the node; reset or replace the NIC",
            "reset_nic"},
    Pattern{"mlx5.unrecoverable",
            S::Fatal,
            {"unrecoverable", nullptr, nullptr},
            "the NIC reported an unrecoverable hardware error",
            "replace the NIC",
            "replace_nic"},
    Pattern{"mlx5.pci_channel_error",
            S::Fatal,
            {"mlx5_pci_err_detected", "need reset", nullptr},
            "PCIe error on the NIC; the device needs a reset",
            "check the PCIe slot and riser; reset or reseat the NIC",
            "reset_nic"},
    Pattern{"mlx5.pci_channel_offline",
            S::Fatal,
            {"PCI channel offline", nullptr, nullptr},
            "the NIC's PCIe channel went offline",
            "check the PCIe slot and riser; reseat or replace the NIC",
            "reseat_nic"},
    Pattern{"mlx5.load_failed",
            S::Fatal,
            {"mlx5_load_one failed", nullptr, nullptr},
            "the driver failed to initialise the NIC",
            "check firmware and driver versions; reflash or replace the NIC",
            "update_firmware"},
    Pattern{"mlx5.probe_failed",
            S::Fatal,
            {"probe of ", " failed with error", nullptr},
            "the driver failed to probe the NIC",
            "check firmware and driver versions; reflash or replace the NIC",
            "update_firmware"},
    Pattern{"mlx5.tx_timeout",
            S::NonFatal,
            {"TX timeout detected", nullptr, nullptr},
            "a transmit queue stopped completing",
            "watch for repeats; a wedged queue stalls collectives",
            "none"},
    Pattern{"mlx5.rx_timeout",
            S::NonFatal,
            {"RX timeout on channel", nullptr, nullptr},
            "a receive queue stopped completing",
            "watch for repeats",
            "none"},
    Pattern{"mlx5.insufficient_power",
            S::NonFatal,
            {"insufficient power", nullptr, nullptr},
            "the PCIe slot does not supply enough power for the NIC",
            "move the NIC to a slot with enough power",
            "reseat_nic"},
    Pattern{"mlx5.module_high_temperature",
            S::NonFatal,
            {"Port module event", "High Temperature", nullptr},
            "the cable/transceiver module is overheating",
            "check airflow; replace the transceiver",
            "check_cooling"},
    Pattern{"mlx5.cable_unplugged",
            S::NonFatal,
            {"Port module event", "Cable unplugged", nullptr},
            "the cable or transceiver was unplugged",
            "reseat or replace the cable",
            "check_cable"},
    Pattern{"mlx5.module_error",
            S::NonFatal,
            {"Port module event[error]", nullptr, nullptr},
            "the cable/transceiver module reported an error",
            "reseat or replace the transceiver",
            "replace_cable_or_transceiver"},
    Pattern{"mlx5.module_absent",
            S::NonFatal,
            {"Port module event", "absent", nullptr},
            "no cable/transceiver module in the port",
            "insert a cable or transceiver",
            "check_cable"},
    Pattern{"mlx5.access_reg_failed",
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

bool isPci(std::string_view t)
{
    if (t.size() < 12 || t[4] != ':' || t[7] != ':' || t[10] != '.')
        return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11})
        if (!std::isxdigit(static_cast<unsigned char>(t[i])))
            return false;
    return true;
}

// "mlx5_core 0000:13:00.1 eth1: TX timeout" -> ("0000:13:00.1", "eth1")
void extractDevice(std::string_view line, std::string_view after, pv1::KernelLineMatch& out)
{
    auto at = line.find(after);
    if (at == std::string_view::npos)
        return;
    auto rest = line.substr(at + after.size());
    if (!isPci(rest))
        return;
    out.pci_address = std::string(rest.substr(0, 12));
    rest.remove_prefix(12);
    if (!rest.empty() && rest.front() == ' ') {
        auto end = rest.find(':');
        auto name = rest.substr(1, end == std::string_view::npos ? 0 : end - 1);
        if (!name.empty() && name.find(' ') == std::string_view::npos)
            out.netdev = std::string(name);
    }
}

bool classifyWatchdog(std::string_view line, pv1::KernelLineMatch& out)
{
    // pre-6.8: "NETDEV WATCHDOG: eth1 (mlx5_core): transmit queue 19 timed out"
    // 6.8+ (e316dd1cf135, backported to 6.6.47/6.1.107): "mlx5_core 0000:65:00.0 ens15np0:
    //          NETDEV WATCHDOG: CPU: 94: transmit queue 3 timed out 5032 ms"
    // and mixed forms: "NETDEV WATCHDOG: ens1f0np0 (mlx5_core): transmit queue 0 timed out 5376 ms"
    auto at = line.find("NETDEV WATCHDOG: ");
    if (at == std::string_view::npos || !contains(line, "mlx5_core") ||
        !contains(line, "timed out"))
        return false;
    auto rest = line.substr(at + 17);
    auto paren = rest.find(" (mlx5_core)");
    if (paren != std::string_view::npos) {
        auto name = rest.substr(0, paren);
        auto colon = name.rfind(": ");
        if (colon != std::string_view::npos)
            name = name.substr(colon + 2);
        out.netdev = std::string(name);
    } else {
        // 6.8+ prints through netdev_crit: "mlx5_core 0000:65:00.0 ens15np0: NETDEV WATCHDOG: ..."
        extractDevice(line.substr(0, at), "mlx5_core ", out);
    }
    out.code = "netdev.tx_watchdog";
    out.severity = S::NonFatal;
    out.message = "transmit queue timed out (NETDEV WATCHDOG)";
    out.action = "watch for repeats; check the link partner and PFC pause storms";
    out.action_code = "none";
    return true;
}

// AER/DPC reports: printed by the root or downstream port ("pcieport <bdf>: ..."), naming the
// failing device in "error received: <bdf>" where it is known, or by the NIC's own driver
// ("mlx5_core <bdf>: PCIe Bus Error: severity=Uncorrected (Fatal), ...").
bool classifyPcie(std::string_view line, pv1::KernelLineMatch& out)
{
    const bool port = contains(line, "pcieport ");
    if (!port && !(contains(line, "mlx5_core ") && contains(line, "PCIe Bus Error")))
        return false;
    struct P {
        const char* needle;
        const char* code;
        S severity;
        const char* message;
        const char* action_code;
    };
    static constexpr std::array pcie{
        P{"severity=Fatal", "pcie.aer_fatal", S::Fatal, "fatal PCIe error below this root port",
          "reseat_nic"},
        P{"Uncorrected (Fatal)", "pcie.aer_fatal", S::Fatal,
          "fatal PCIe error below this root port", "reseat_nic"},
        P{"AER: device recovery failed", "pcie.recovery_failed", S::Fatal,
          "PCIe error recovery failed", "reboot_node"},
        P{"DPC: containment event", "pcie.dpc_containment", S::Fatal,
          "PCIe downstream port containment: the link below this port was disabled", "reboot_node"},
        P{"Uncorrected (Non-Fatal)", "pcie.aer_nonfatal", S::NonFatal,
          "uncorrected non-fatal PCIe error", "none"},
    };
    for (const auto& p : pcie) {
        if (!contains(line, p.needle))
            continue;
        if (contains(line, "error received: "))
            extractDevice(line, "error received: ", out);
        if (out.pci_address.empty())
            extractDevice(line, port ? "pcieport " : "mlx5_core ", out);
        out.code = p.code;
        out.severity = p.severity;
        out.message = p.message;
        out.action = "check the PCIe slot, riser and NIC; reseat or replace";
        out.action_code = p.action_code;
        return true;
    }
    return false;
}

} // namespace

bool classifyKernelLine(std::string_view line, pv1::KernelLineMatch& out) noexcept
{
    try {
        if (classifyWatchdog(line, out))
            return true;
        if (classifyPcie(line, out))
            return true;
        if (!contains(line, "mlx5"))
            return false;
        for (const auto& p : kPatterns) {
            bool all = true;
            for (const char* n : p.needles)
                if (n != nullptr && !contains(line, n)) {
                    all = false;
                    break;
                }
            if (!all)
                continue;
            out.code = p.code;
            out.severity = p.severity;
            out.message = p.message;
            out.action = p.action;
            out.action_code = p.action_code;
            extractDevice(line, "mlx5_core ", out);
            if (out.pci_address.empty())
                extractDevice(line, "probe of ", out);
            return true;
        }
        return false;
    } catch (...) {
        return false;
    }
}

} // namespace nicd::mlx5
