#include <nicd/client/error_names.hpp>

#include <string_view>

namespace nicd::dbus {

std::string errorName(const std::string& kind)
{
    return kErrorPrefix + kind;
}

std::string errorKindOf(const sdbus::Error& error)
{
    const std::string& name = error.getName();
    std::string_view prefix = kErrorPrefix;
    return name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
}

} // namespace nicd::dbus
