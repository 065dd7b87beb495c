// What a NIC is for, as fleets classify NICs: the node verdict weighs a device by it
// (inventory/nic_roles.hpp says how it is found without configuration).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace nicd {

enum class Role : uint8_t {
    Compute,    // carries training traffic: beside a GPU (same PCIe switch or NUMA node)
    Storage,    // another RDMA device
    Management, // carries the default route (the netdev provisioning leaves alone)
};

const char* toString(Role role);
std::optional<Role> parseRole(std::string_view name);

} // namespace nicd
