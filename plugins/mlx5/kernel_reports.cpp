#include "kernel_reports.hpp"

#include <nicd/plugin/sdk/soft_lockup.h>

#include <array>

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
    return plugin::sdk::classifySoftLockup(report, kPollFrames, "mlx5", out);
}

} // namespace nicd::mlx5
