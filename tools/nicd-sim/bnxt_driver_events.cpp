// bnxt_en's and bnxt_re's kernel lines (driver_events.hpp): bnxt_re's lines go out with bnxt_en's
// driver string, the IB device's parent being the PCI function. Values in the formats' fields are
// made up.
#include "driver_events.hpp"

namespace nicd::sim {

const std::vector<DriverEvent>& bnxtDriverEvents()
{
    using enum DriverLinePrefix;
    static const std::vector<DriverEvent> v{
        // bnxt_async_event_process, RESET_NOTIFY: "%s firmware reset event, data1: 0x%x, data2:
        // 0x%x, min wait %u ms, max wait %u ms" with %s Fatal.
        {"fw-fatal-reset",
         {{Netdev, "Fatal firmware reset event, data1: 0x10000, data2: 0x0, min wait "
                   "1500 ms, max wait 8000 ms"}}},
        // bnxt_fw_exception: the driver's watchdog lost the firmware's heartbeat.
        {"fw-hang", {{Netdev, "Detected firmware fatal condition, initiating reset"}}},
        // bnxt_fw_reset_task: recovery failed (rc -110, ETIMEDOUT).
        {"fw-reset-failed",
         {{Netdev, "Firmware reset aborted, subsequent func_qcfg cmd failed, rc = -110, "
                   "8040 msecs since reset timestamp"}}},
        // bnxt_tx_timeout.
        {"tx-timeout", {{Netdev, "TX timeout detected, starting reset task!"}}},
        // bnxt_hwrm.c __hwrm_send via hwrm_err(): "Error (timeout: %u) msg {0x%x 0x%x} len:%d".
        {"hwrm-timeout", {{Netdev, "Error (timeout: 500015) msg {0x23 0x1a3} len:0"}}},
        // bnxt_event_error_report.
        {"pause-storm", {{Netdev, "Pause Storm detected!"}}},
        {"thermal",
         {{Netdev, "Chip temperature has gone above the critical thermal threshold!"},
          {Netdev, "Temperature (In Celsius), Current: 108, threshold: 105"}}},
        // bnxt_io_error_detected, then bnxt_io_slot_reset failing.
        {"pci-error",
         {{Netdev, "PCI I/O error detected"},
          {Netdev, "PCI Slot Reset"},
          {Function, "Cannot re-enable PCI device after reset."}}},
        // qplib_rcfw.c bnxt_re_is_fw_stalled: dev_warn_ratelimited on the pdev with the "QPLIB: "
        // dev_fmt and __func__ (a real 6.8 line's numbers).
        {"fw-stall",
         {{Function, "QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0xe]=0x3 "
                     "waited (103641 > 100000) msec active 1 "}}},
        // bnxt_re_dev_init: the RoCE device fails to come up (-ENOMEM).
        {"roce-probe-failed", {{Ibdev, "Failed to allocate RCFW Channel: 0xfffffff4"}}},
    };
    return v;
}

} // namespace nicd::sim
