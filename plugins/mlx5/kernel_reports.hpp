// mlx5 driver failures in multi-line kernel reports (IPlugin::classifyKernelReport, ABI 1.5), as
// data for the SDK's soft-lockup classifier (nicd/plugin/sdk/soft_lockup.h): a soft-lockup report
// whose trace runs in mlx5's NAPI or CQ polling (the running frame, not a speculative "? frame")
// means the mlx5 driver is wedged in its poll loop (NVSentinel #1334: a node stayed Ready for days
// so).
#pragma once

#include <nicd/plugin/sdk/soft_lockup.h>

#include <array>
#include <string_view>

namespace nicd::mlx5 {

// mlx5_core's poll loop (drivers/net/ethernet/mellanox/mlx5/core/en_txrx.c, en_rx.c, en_tx.c,
// cq.c): a CPU stuck here is stuck in the driver.
inline constexpr std::array<std::string_view, 5> kPollFrames{"mlx5e_napi_poll", "mlx5e_poll_ico_cq",
                                                             "mlx5e_poll_rx_cq", "mlx5e_poll_tx_cq",
                                                             "mlx5_cq_tasklet_cb"};
inline constexpr plugin::sdk::PollLoop kPollLoop{"mlx5", kPollFrames};

} // namespace nicd::mlx5
