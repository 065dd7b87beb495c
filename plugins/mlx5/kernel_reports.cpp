#include "kernel_reports.hpp"

#include <nicd/plugin/stack_frame.h>

#include <algorithm>
#include <array>
#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

namespace {

// mlx5_core's poll loop (drivers/net/ethernet/mellanox/mlx5/core/en_txrx.c, en_rx.c, en_tx.c,
// cq.c): a CPU stuck here is stuck in the driver.
constexpr std::array<std::string_view, 5> kPollFrames{"mlx5e_napi_poll", "mlx5e_poll_ico_cq",
                                                      "mlx5e_poll_rx_cq", "mlx5e_poll_tx_cq",
                                                      "mlx5_cq_tasklet_cb"};

} // namespace

bool classifyKernelReport(const pv1::KernelReport& report, pv1::KernelLineMatch& out) noexcept
{
    if (report.kind != "soft_lockup")
        return false;
    for (const auto& line : report.lines) {
        auto frame = plugin::sdk::runningFrame(line);
        if (!frame ||
            std::find(kPollFrames.begin(), kPollFrames.end(), *frame) == kPollFrames.end())
            continue;
        try {
            out.code = "driver_soft_lockup";
            out.severity = pv1::Severity::Fatal;
            out.message = "kernel soft lockup: " + std::string(report.header) +
                          " in mlx5 polling (" + std::string(*frame) + ")";
            out.action = "drain and reboot the node; the mlx5 driver is wedged";
            out.action_code = "reboot_node";
        } catch (...) {
            return false;
        }
        return true;
    }
    return false;
}

} // namespace nicd::mlx5
