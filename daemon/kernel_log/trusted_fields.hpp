// Where a kernel line came from. A line counts against a device only when the kernel said it
// about that device: journald's trusted fields _KERNEL_DEVICE ("+pci:0000:3b:00.0") and
// _KERNEL_SUBSYSTEM, which the kernel's dev_printk() sets and no program can (journald takes them
// from the kernel's own record; a program writing to /dev/kmsg cannot give them, and the
// journal's "_" fields are never a client's). The text of a line proves nothing: the kernel
// prints names users chose (a crashing program's name and file in a segfault report) without
// escaping them, so "mlx5_core 0000:10:00.1: Fatal error 1 detected" can be the name of a file.
#pragma once

#include "model/kernel_origin.hpp"

#include <optional>
#include <string_view>

namespace nicd::kernel_log {

// Reads the pair of trusted fields (either may be empty). "+<subsystem>:<name>" names a device by
// subsystem and name; "n<ifindex>", "c<major>:<minor>" and "b<major>:<minor>" a network, char or
// block device by number (subsystem "net", "char", "block"; the number as the name); neither
// field: a device-less line. nullopt: not an origin the kernel writes (a malformed value, a
// subsystem field that contradicts the device's): such a line is not judged at all.
std::optional<KernelOrigin> parseKernelOrigin(std::string_view kernel_device,
                                              std::string_view kernel_subsystem);

} // namespace nicd::kernel_log
