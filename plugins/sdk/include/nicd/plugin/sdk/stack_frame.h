// Reading the kernel's stack traces: the running function of one trace line. A plugin names its
// own driver's frames (IPlugin::classifyKernelReport); how a trace line is written is the
// kernel's, the same for every vendor, so it is read here once.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

// The running function of a stack-trace line, "mlx5e_napi_poll" of
// "  mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]" or "RIP: 0010:mlx5e_napi_poll+0x1f/0x2a0"; nullopt
// for any other line, and for a speculative frame ("? mlx5e_napi_poll+0x1f/0x2a0"). Only a whole
// line of that shape counts: a program's name holding "mlx5e_napi_poll+0x1f" inside a longer
// line is not a frame.
std::optional<std::string_view> runningFrame(std::string_view line);

// The first of `lines` (a report's, KernelReport::lines) whose running function is one of
// `frames` (a plugin's own): that function; nullopt when none is.
std::optional<std::string_view> firstRunningFrameOf(std::span<const std::string> lines,
                                                    std::span<const std::string_view> frames);

} // namespace nicd::plugin::sdk
