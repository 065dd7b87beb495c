// Whitespace (std::isspace: space, tab, newline, CR, VT, FF) off both ends: the one trim of
// nicd's readers of text (configuration lines and values, sysfs values).
#pragma once

#include <cctype>
#include <string_view>

namespace nicd::text {

inline std::string_view trim(std::string_view v)
{
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front())) != 0)
        v.remove_prefix(1);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back())) != 0)
        v.remove_suffix(1);
    return v;
}

} // namespace nicd::text
