// How long after boot the inventory is judged: nicd may start before the RDMA drivers have probed
// every NIC (mlx5_core and mlx5_ib load from udev's coldplug, a ConnectX initialises its firmware
// for tens of seconds), and a NIC not probed yet is no NIC gone. Until CLOCK_MONOTONIC (seconds
// since boot) passes this, neither inventory_short/inventory_slow nor device_missing of a NIC of
// the last boot is raised; a NIC that vanishes later in the boot is judged as before.
#pragma once

namespace nicd::health {

inline constexpr double kInventoryBootGraceSec = 300;

inline bool inBootGrace(double now_mono)
{
    return now_mono < kInventoryBootGraceSec;
}

} // namespace nicd::health
