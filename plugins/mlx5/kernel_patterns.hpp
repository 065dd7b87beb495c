// mlx5 driver errors in kernel log records: pure classification (IPlugin::classifyKernelRecord).
#pragma once

#include <nicd/plugin/plugin.h>

#include <string_view>

namespace nicd::mlx5 {

bool classifyKernelRecord(const ::nicd::plugin::v1::KernelRecord& rec,
                          ::nicd::plugin::v1::KernelLineMatch& out) noexcept;

} // namespace nicd::mlx5
