// Arguments shared by the fault commands: DEV, COUNTER and --port.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace nicd::sim::cli {

struct DeviceArgs {
    std::string dev;
    uint32_t port = 0;
    explicit DeviceArgs(CLI::App& cmd, const char* port_help = nullptr)
    {
        cmd.add_option("DEV", dev, "RDMA device, e.g. mlx5_0")->required();
        if (port_help)
            cmd.add_option("--port", port, port_help)->check(CLI::Range(1U, 255U));
    }
};

struct CounterArgs : DeviceArgs {
    std::string counter;
    explicit CounterArgs(CLI::App& cmd) : DeviceArgs(cmd, "port number (default 1)")
    {
        cmd.add_option("COUNTER", counter,
                       "counter name in counters/, hw_counters/ or the ethtool statistics")
            ->required();
    }
};

} // namespace nicd::sim::cli
