#include "model/inventory.hpp"

namespace nicd {

const char* toString(DeviceFunction role)
{
    switch (role) {
    case DeviceFunction::Physical:
        return "pf";
    case DeviceFunction::VirtualFunction:
        return "vf";
    case DeviceFunction::Lag:
        return "lag";
    case DeviceFunction::BondMember:
        return "bond-member";
    }
    return "unknown";
}

const char* toString(Role role)
{
    switch (role) {
    case Role::Compute:
        return "compute";
    case Role::Storage:
        return "storage";
    case Role::Management:
        return "management";
    }
    return "unknown";
}

std::optional<Role> parseRole(std::string_view name)
{
    for (auto r : {Role::Compute, Role::Storage, Role::Management})
        if (name == toString(r))
            return r;
    return std::nullopt;
}

} // namespace nicd
