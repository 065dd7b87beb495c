// mlx5 driver errors in kernel log lines: pure classification.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string_view>

namespace nicd::mlx5 {

bool classifyKernelLine(std::string_view line, ::nicd::plugin::v1::KernelLineMatch& out) noexcept;

} // namespace nicd::mlx5
