// The patterns and where each printk is (research: /work/notes/bnxt-research.md §5). bnxt_en:
// drivers/net/ethernet/broadcom/bnxt/bnxt.c and bnxt_hwrm.c; bnxt_re:
// drivers/infiniband/hw/bnxt_re/main.c and qplib_rcfw.c. Matched by the SDK's one matcher
// (nicd/plugin/sdk/kernel_line_matcher.h). Cheap tests only (no regex).
#include "bnxt_kernel_lines.hpp"

#include <nicd/plugin/sdk/kernel_line_matcher.h>
#include <nicd/plugin/sdk/pcie_report.h>
#include <nicd/plugin/sdk/printed_record.h>

#include <array>

namespace nicd::bnxt {

namespace pv1 = ::nicd::plugin::v1;

namespace {

using S = pv1::Severity;

using ::nicd::plugin::sdk::KernelLinePattern;

// First match wins: more specific patterns before more general ones.
constexpr std::array kPatterns{
    // qplib_rcfw.c bnxt_re_is_fw_stalled: dev_warn_ratelimited(&rcfw->pdev->dev,
    // "%s: FW STALL Detected. cmdq[%#x]=%#x waited (%d > %d) msec active %d ") with QPLIB:.
    KernelLinePattern{"bnxt_re.fw_stall",
                      S::Fatal,
                      {"FW STALL Detected", nullptr},
                      "the RoCE firmware channel stopped answering (FW STALL)",
                      "drain the node; reset the NIC, replace it if it recurs",
                      "reset_nic"},
    // bnxt.c bnxt_io_slot_reset: dev_err "Cannot re-enable PCI device after reset.\n",
    // "Firmware not ready\n": PCIe error recovery of the function failed.
    KernelLinePattern{"bnxt.pci_recovery_failed",
                      S::Fatal,
                      {"Cannot re-enable PCI device after reset", nullptr},
                      "PCIe error recovery failed: the function could not be enabled again",
                      "check the PCIe slot and riser; reseat or replace the NIC",
                      "reseat_nic"},
    KernelLinePattern{"bnxt.pci_recovery_failed",
                      S::Fatal,
                      {"Firmware not ready", nullptr},
                      "PCIe error recovery failed: the firmware did not come back",
                      "check the PCIe slot and riser; reseat or replace the NIC",
                      "reseat_nic"},
    // bnxt.c bnxt_fw_reset_task / bnxt_fw_reset: "Firmware reset aborted[, ...]", "Cannot
    // re-enable PCI device\n", "bnxt_open() failed during FW reset\n"; bnxt_fw_reset_abort
    // leaves the devlink fw reporter in error, remedy "device power cycle". The
    // bnxt_get_registered_vfs() one aborts only the wait for VFs: not matched.
    KernelLinePattern{"bnxt.fw_reset_failed",
                      S::Fatal,
                      {"Firmware reset aborted", nullptr},
                      "the driver could not recover the NIC's firmware after a reset",
                      "drain the node; power-cycle it (reboot), replace the NIC if it recurs",
                      "reboot_node"},
    KernelLinePattern{"bnxt.fw_reset_failed",
                      S::Fatal,
                      {"bnxt_open() failed during FW reset", nullptr},
                      "the driver could not reopen the NIC after a firmware reset",
                      "drain the node; power-cycle it (reboot), replace the NIC if it recurs",
                      "reboot_node"},
    KernelLinePattern{"bnxt.fw_reset_failed",
                      S::Fatal,
                      {"Cannot re-enable PCI device", nullptr},
                      "the driver could not re-enable the NIC after a firmware reset",
                      "drain the node; power-cycle it (reboot), replace the NIC if it recurs",
                      "reboot_node"},
    // bnxt.c bnxt_init_one / bnxt_fw_init_one.
    KernelLinePattern{"bnxt.fw_init_failed",
                      S::Fatal,
                      {"Firmware init phase ", " failed"},
                      "the driver failed to initialise the NIC's firmware",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    KernelLinePattern{"bnxt.fw_init_failed",
                      S::Fatal,
                      {"hwrm query capability failure", nullptr},
                      "the driver failed to initialise the NIC's firmware",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    // bnxt_re main.c bnxt_re_dev_init: ibdev_err, printed through the PCI parent. The RoCE
    // device is missing: fatal for a compute port.
    KernelLinePattern{"bnxt_re.probe_failed",
                      S::Fatal,
                      {"Failed to allocate RCFW Channel", nullptr},
                      "bnxt_re failed to bring up the RDMA device",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    KernelLinePattern{"bnxt_re.probe_failed",
                      S::Fatal,
                      {"Failed to enable RCFW channel", nullptr},
                      "bnxt_re failed to bring up the RDMA device",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    KernelLinePattern{"bnxt_re.probe_failed",
                      S::Fatal,
                      {"Failed to initialize RCFW", nullptr},
                      "bnxt_re failed to bring up the RDMA device",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    KernelLinePattern{"bnxt_re.probe_failed",
                      S::Fatal,
                      {"Failed to allocate CREQ", nullptr},
                      "bnxt_re failed to bring up the RDMA device",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    KernelLinePattern{"bnxt_re.probe_failed",
                      S::Fatal,
                      {"Failed to register with netedev", nullptr},
                      "bnxt_re failed to bring up the RDMA device",
                      "check firmware and driver versions; reflash or replace the NIC",
                      "update_firmware"},
    // bnxt.c bnxt_event_error_report: "Chip temperature has gone %s the %s thermal threshold!\n".
    KernelLinePattern{"bnxt.thermal",
                      S::Fatal,
                      {"Chip temperature has gone above the critical", nullptr},
                      "the NIC's chip passed its critical temperature",
                      "check airflow and fans; drain the node",
                      "check_cooling"},
    KernelLinePattern{"bnxt.thermal",
                      S::Fatal,
                      {"Chip temperature has gone above the fatal", nullptr},
                      "the NIC's chip passed its fatal temperature",
                      "check airflow and fans; drain the node",
                      "check_cooling"},
    KernelLinePattern{"bnxt.thermal",
                      S::Fatal,
                      {"Chip temperature has gone above the shutdown", nullptr},
                      "the NIC's chip passed its shutdown temperature",
                      "check airflow and fans; drain the node",
                      "check_cooling"},
    KernelLinePattern{"bnxt.thermal_warning",
                      S::NonFatal,
                      {"Chip temperature has gone above the warning", nullptr},
                      "the NIC's chip passed its warning temperature",
                      "check airflow and fans",
                      "check_cooling"},
    // bnxt_hwrm.c __hwrm_send (hwrm_err): "Error (timeout: %u) msg {0x%x 0x%x} len:%d[ v:%d]\n",
    // "Abandoning msg {0x%x 0x%x} len: %d due to firmware status: 0x%x\n". One is degraded;
    // repeats become fatal (KernelRepeatCount=).
    KernelLinePattern{"bnxt.hwrm_timeout",
                      S::NonFatal,
                      {"Error (timeout: ", ") msg {"},
                      "a firmware command timed out",
                      "watch for repeats; reset the NIC if they recur",
                      "none"},
    KernelLinePattern{"bnxt.hwrm_timeout",
                      S::NonFatal,
                      {"Abandoning msg {", "due to firmware status"},
                      "a firmware command was abandoned: the firmware is not ready",
                      "watch for repeats; reset the NIC if they recur",
                      "none"},
    // bnxt.c bnxt_fw_exception (the driver's firmware health watchdog).
    KernelLinePattern{"bnxt.fw_hang_detected",
                      S::NonFatal,
                      {"Detected firmware fatal condition", nullptr},
                      "the driver's watchdog found the firmware hung and resets it",
                      "watch for repeats and the devlink fw reporter",
                      "none"},
    // bnxt.c bnxt_async_event_process RESET_NOTIFY: netif_warn "%s firmware reset event, data1:
    // ..." (Fatal / Non-fatal; Solicited is requested, not matched); 5.6-5.11 "Firmware fatal
    // reset event received", "Firmware non-fatal reset event received, max wait time ...".
    KernelLinePattern{"bnxt.fw_fatal_reset",
                      S::NonFatal,
                      {"Fatal firmware reset event", nullptr},
                      "the NIC's firmware hit a fatal condition; the driver resets it",
                      "watch for repeats and the devlink fw reporter",
                      "none"},
    KernelLinePattern{"bnxt.fw_fatal_reset",
                      S::NonFatal,
                      {"Firmware fatal reset event received", nullptr},
                      "the NIC's firmware hit a fatal condition; the driver resets it",
                      "watch for repeats and the devlink fw reporter",
                      "none"},
    KernelLinePattern{"bnxt.fw_reset",
                      S::NonFatal,
                      {"Non-fatal firmware reset event", nullptr},
                      "the NIC's firmware reset itself",
                      "watch for repeats",
                      "none"},
    KernelLinePattern{"bnxt.fw_reset",
                      S::NonFatal,
                      {"Firmware non-fatal reset event received", nullptr},
                      "the NIC's firmware reset itself",
                      "watch for repeats",
                      "none"},
    // bnxt.c bnxt_tx_timeout: netdev_err "TX timeout detected, starting reset task!\n".
    KernelLinePattern{"bnxt.tx_timeout",
                      S::NonFatal,
                      {"TX timeout detected", nullptr},
                      "a transmit queue stopped completing; the driver resets the NIC",
                      "watch for repeats; a wedged queue stalls collectives",
                      "none"},
    // bnxt.c bnxt_sched_reset_txr: "Invalid Tx completion (ring:%d tx_hw_cons:%u ...)".
    KernelLinePattern{"bnxt.invalid_tx_completion",
                      S::NonFatal,
                      {"Invalid Tx completion (ring:", nullptr},
                      "the NIC wrote a corrupt transmit completion; the driver resets the ring",
                      "watch for repeats",
                      "none"},
    // bnxt.c bnxt_event_error_report.
    KernelLinePattern{"bnxt.pause_storm",
                      S::NonFatal,
                      {"Pause Storm detected!", nullptr},
                      "the NIC's firmware detected a PFC pause storm",
                      "check the fabric's congestion control and the host draining the queues",
                      "check_congestion_config"},
    KernelLinePattern{"bnxt.doorbell_drop",
                      S::NonFatal,
                      {"One or more MMIO doorbells dropped", nullptr},
                      "the NIC dropped doorbell writes (work requests may stall)",
                      "watch for repeats",
                      "none"},
    // bnxt.c bnxt_io_error_detected: netdev_info "PCI I/O error detected\n"; recovery follows
    // (bnxt_io_slot_reset, bnxt_io_resume "PCI Slot Resume"), or its failure above.
    KernelLinePattern{"bnxt.pci_error",
                      S::NonFatal,
                      {"PCI I/O error detected", nullptr},
                      "a PCIe error on the NIC; the driver attempts recovery",
                      "check the PCIe slot and riser if it recurs",
                      "none"},
};

bool contains(std::string_view text, const char* needle)
{
    return text.find(needle) != std::string_view::npos;
}

// A record bnxt printed: bnxt_en's (the PCI function, as pci/<bdf>), or bnxt_re's dev_* lines
// about its IB device ("infiniband bnxt_reN: ..."; the device a label bnxt_re registered as
// "bnxt_re%d", main.c bnxt_re_register_ib).
bool isBnxt(const pv1::KernelRecord& rec, std::string_view driver)
{
    if (rec.subsystem == "pci")
        return driver == "bnxt_en";
    return rec.subsystem == "infiniband" && driver == "infiniband" &&
           rec.device.starts_with("bnxt_re");
}

// bnxt_en's and bnxt_re's own lines, by the first pattern that matches.
bool classifyBnxt(const pv1::KernelRecord& rec, const plugin::sdk::PrintedRecord& printed,
                  pv1::KernelLineMatch& out)
{
    if (!isBnxt(rec, printed.driver))
        return false;
    // "Firmware reset aborted, bnxt_get_registered_vfs() returns %d": only the wait for the
    // VFs was given up, the reset goes on (bnxt_fw_reset_task).
    if (contains(printed.text, "bnxt_get_registered_vfs()"))
        return false;
    return ::nicd::plugin::sdk::matchKernelLine(printed.text, kPatterns, out);
}

} // namespace

bool classifyKernelRecord(const pv1::KernelRecord& rec, pv1::KernelLineMatch& out) noexcept
{
    try {
        const auto printed = plugin::sdk::printedAbout(rec); // nullopt for a device-less record
        if (!printed)
            return false;
        // The port's AER/DPC reports are printed by pcieport, not bnxt_en: a node with only bnxt
        // NICs sees them only here.
        if (!plugin::sdk::classifyPcie(*printed, "bnxt_en", out) &&
            !classifyBnxt(rec, *printed, out))
            return false;
        if (rec.subsystem == "pci") {
            if (out.pci_address.empty())
                out.pci_address = std::string(rec.device);
            // netdev_printk's interface; ibdev_printk's "bnxt_reN" is no netdev.
            if (!printed->netdev.starts_with("bnxt_re"))
                out.netdev = std::string(printed->netdev);
        }
        return true;
    } catch (...) {
        out = {};
        return false;
    }
}

} // namespace nicd::bnxt
