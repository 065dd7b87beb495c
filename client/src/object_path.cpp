#include <nicd/client/object_path.hpp>

namespace nicd::dbus {

namespace {
bool keptAsIs(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}
} // namespace

std::string encodePathElement(std::string_view name)
{
    if (name.empty())
        return "_";
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(name.size());
    for (char c : name) {
        if (keptAsIs(c)) {
            out += c;
            continue;
        }
        auto byte = static_cast<unsigned char>(c);
        out += '_';
        out += kHex[byte >> 4];
        out += kHex[byte & 0xf];
    }
    return out;
}

std::string devicePath(std::string_view ibdev)
{
    return std::string(kRootPath) + "/device/" + encodePathElement(ibdev);
}

std::string portPath(std::string_view ibdev, uint32_t port)
{
    return devicePath(ibdev) + "/port/" + std::to_string(port);
}

std::string pluginPath(std::string_view name)
{
    return std::string(kRootPath) + "/plugin/" + encodePathElement(name);
}

} // namespace nicd::dbus
