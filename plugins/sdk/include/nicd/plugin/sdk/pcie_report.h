// The PCIe AER/DPC reports about a NIC's function, read the same way by every NIC plugin: the
// root or downstream port's ("pcieport <bdf>: AER: ... error received: <bdf>", DPC), naming the
// failing function where it is known, and the NIC driver's own ("<driver> <bdf>: PCIe Bus Error:
// severity=Uncorrected (Fatal), ..."). A port's report is not about any one vendor's function,
// so each plugin must recognise it for a node with only that vendor's NICs to see it.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/printed_record.h>

#include <string_view>

namespace nicd::plugin::sdk {

// Fills `out` with the pcie.* condition the record reports (code, severity, message, action,
// action code; for a port's report, pci_address from "error received: <bdf>" where it names one)
// and returns true; false, `out` untouched, for any other record. `own_driver` is the plugin's
// driver ("mlx5_core", "bnxt_en"): its "PCIe Bus Error" lines are taken, another driver's not.
bool classifyPcie(const PrintedRecord& record, std::string_view own_driver,
                  v1::KernelLineMatch& out);

} // namespace nicd::plugin::sdk
