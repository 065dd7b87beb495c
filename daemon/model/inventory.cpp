#include "model/inventory.hpp"

namespace nicd {

const char* toString(DeviceRole role)
{
    switch (role) {
    case DeviceRole::Physical:
        return "pf";
    case DeviceRole::VirtualFunction:
        return "vf";
    case DeviceRole::Lag:
        return "lag";
    case DeviceRole::BondMember:
        return "bond-member";
    }
    return "unknown";
}

} // namespace nicd
