#include "driver_lines.hpp"

#include "sim.hpp"
#include "vendor_catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace nicd::sim {

namespace {

// How the line's text starts, as dev_printk and its wrappers print it about the PCI function.
enum class Prefix {
    Function, // dev_*(&pdev->dev, ...):            "bnxt_en 0000:5d:00.0: "
    Netdev,   // netdev_*(dev, ...):                "bnxt_en 0000:5d:00.0 ens4f0np0: "
    Ibdev,    // ibdev_*(&rdev->ibdev, ...), parent: "bnxt_en 0000:5d:00.0 bnxt_re0: "
};

struct Line {
    Prefix prefix;
    const char* text;
};

struct Event {
    const char* name;
    std::vector<Line> lines;
};

// bnxt_en and bnxt_re (research notes §5; bnxt_re's lines go out with bnxt_en's driver string,
// the IB device's parent being the PCI function). Values in the formats' fields are made up.
const std::vector<Event>& bnxtEvents()
{
    static const std::vector<Event> v{
        // bnxt_async_event_process, RESET_NOTIFY: "%s firmware reset event, data1: 0x%x, data2:
        // 0x%x, min wait %u ms, max wait %u ms" with %s Fatal.
        {"fw-fatal-reset",
         {{Prefix::Netdev, "Fatal firmware reset event, data1: 0x10000, data2: 0x0, min wait "
                           "1500 ms, max wait 8000 ms"}}},
        // bnxt_fw_exception: the driver's watchdog lost the firmware's heartbeat.
        {"fw-hang", {{Prefix::Netdev, "Detected firmware fatal condition, initiating reset"}}},
        // bnxt_fw_reset_task: recovery failed (rc -110, ETIMEDOUT).
        {"fw-reset-failed",
         {{Prefix::Netdev, "Firmware reset aborted, subsequent func_qcfg cmd failed, rc = -110, "
                           "8040 msecs since reset timestamp"}}},
        // bnxt_tx_timeout.
        {"tx-timeout", {{Prefix::Netdev, "TX timeout detected, starting reset task!"}}},
        // bnxt_hwrm.c __hwrm_send via hwrm_err(): "Error (timeout: %u) msg {0x%x 0x%x} len:%d".
        {"hwrm-timeout", {{Prefix::Netdev, "Error (timeout: 500015) msg {0x23 0x1a3} len:0"}}},
        // bnxt_event_error_report.
        {"pause-storm", {{Prefix::Netdev, "Pause Storm detected!"}}},
        {"thermal",
         {{Prefix::Netdev, "Chip temperature has gone above the critical thermal threshold!"},
          {Prefix::Netdev, "Temperature (In Celsius), Current: 108, threshold: 105"}}},
        // bnxt_io_error_detected, then bnxt_io_slot_reset failing.
        {"pci-error",
         {{Prefix::Netdev, "PCI I/O error detected"},
          {Prefix::Netdev, "PCI Slot Reset"},
          {Prefix::Function, "Cannot re-enable PCI device after reset."}}},
        // qplib_rcfw.c bnxt_re_is_fw_stalled: dev_warn_ratelimited on the pdev with the "QPLIB: "
        // dev_fmt and __func__ (a real 6.8 line's numbers).
        {"fw-stall",
         {{Prefix::Function, "QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0xe]=0x3 "
                             "waited (103641 > 100000) msec active 1 "}}},
        // bnxt_re_dev_init: the RoCE device fails to come up (-ENOMEM).
        {"roce-probe-failed", {{Prefix::Ibdev, "Failed to allocate RCFW Channel: 0xfffffff4"}}},
    };
    return v;
}

// mlx5_core (real lines of shared/fixtures/kernel-log-lines.txt).
const std::vector<Event>& mlx5Events()
{
    static const std::vector<Event> v{
        {"fw-fatal", {{Prefix::Function, "poll_health:694:(pid 0): Fatal error 1 detected"}}},
        {"cmd-timeout",
         {{Prefix::Function, "wait_func:1132:(pid 4242): QUERY_VPORT_COUNTER(0x770) timeout. "
                             "Will cause a leak of a command resource"}}},
        {"tx-timeout", {{Prefix::Netdev, "TX timeout detected"}}},
    };
    return v;
}

const std::vector<Event>& eventsOf(const std::string& vendor)
{
    vendorCatalog(vendor); // throws for an unknown vendor
    return vendor == kBnxt ? bnxtEvents() : mlx5Events();
}

} // namespace

std::vector<std::string> driverEvents(const std::string& vendor)
{
    std::vector<std::string> out;
    for (const auto& e : eventsOf(vendor))
        out.emplace_back(e.name);
    return out;
}

std::vector<DriverLine> driverLines(const std::string& vendor, const std::string& event,
                                    const std::string& bdf, const std::string& netdev,
                                    const std::string& ibdev)
{
    const auto& events = eventsOf(vendor);
    auto it =
        std::find_if(events.begin(), events.end(), [&](const Event& e) { return event == e.name; });
    if (it == events.end())
        throw SimError(fmt::format("{} prints no '{}' lines (its events: {})", vendor, event,
                                   fmt::join(driverEvents(vendor), ", ")));
    const std::string driver = vendorCatalog(vendor).driver;
    std::vector<DriverLine> out;
    for (const auto& l : it->lines) {
        std::string who = driver + " " + bdf;
        if (l.prefix == Prefix::Netdev)
            who += " " + netdev;
        else if (l.prefix == Prefix::Ibdev)
            who += " " + ibdev;
        out.push_back({who + ": " + l.text, "+pci:" + bdf, "pci"});
    }
    return out;
}

} // namespace nicd::sim
