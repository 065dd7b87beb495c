// Bus name and object paths of nicd on D-Bus (DESIGN.md §7). A path element is the name itself
// when it is made of [A-Za-z0-9_] (every kernel RDMA device name is); any other byte becomes _XX
// (two lower-case hex digits), and an empty name becomes "_".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nicd::dbus {

inline constexpr const char* kBusName = "io.nicd.Nicd1";
inline constexpr const char* kRootPath = "/io/nicd/Nicd1";

std::string encodePathElement(std::string_view name);

std::string devicePath(std::string_view ibdev);              // /io/nicd/Nicd1/device/<ibdev>
std::string portPath(std::string_view ibdev, uint32_t port); // .../device/<ibdev>/port/<n>
std::string pluginPath(std::string_view name);               // /io/nicd/Nicd1/plugin/<name>

} // namespace nicd::dbus
