#include <nicd/plugin/sdk/pcie_report.h>

#include <array>
#include <string>

namespace nicd::plugin::sdk {

namespace {

bool contains(std::string_view text, const char* needle)
{
    return text.find(needle) != std::string_view::npos;
}

// The PCI address right after `after` in `text` ("error received: 0000:3b:00.0"), or empty.
std::string pciAfter(std::string_view text, std::string_view after)
{
    auto at = text.find(after);
    if (at == std::string_view::npos)
        return {};
    auto rest = text.substr(at + after.size());
    return startsWithPciAddress(rest) ? std::string(rest.substr(0, 12)) : std::string();
}

} // namespace

bool classifyPcie(const PrintedRecord& p, std::string_view own_driver, v1::KernelLineMatch& out)
{
    const bool port = p.driver == "pcieport";
    if (!port && !(p.driver == own_driver && contains(p.text, "PCIe Bus Error")))
        return false;
    using S = v1::Severity;
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
    for (const auto& c : pcie) {
        if (!contains(p.text, c.needle))
            continue;
        if (port)
            out.pci_address = pciAfter(p.text, "error received: ");
        out.code = c.code;
        out.severity = c.severity;
        out.message = c.message;
        out.action = "check the PCIe slot, riser and NIC; reseat or replace";
        out.action_code = c.action_code;
        return true;
    }
    return false;
}

} // namespace nicd::plugin::sdk
