// The options of `nicd-sim create` that make a GPU node (gpu_node.hpp): --profile, --gpus,
// --gpu-model, --compute-nics, --storage-ports.
#pragma once

#include "sim.hpp"

#include <CLI/CLI.hpp>

#include <functional>

namespace nicd::sim::cli {

// Adds them to `cmd`, storing into `o`; the function returned completes `o` once the command
// line is parsed (a --profile's shape).
std::function<void(CreateOptions&)> addGpuNodeOptions(CLI::App& cmd, CreateOptions& o);

} // namespace nicd::sim::cli
