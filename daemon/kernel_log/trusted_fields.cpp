#include "kernel_log/trusted_fields.hpp"

#include <cctype>

namespace nicd::kernel_log {

namespace {

bool allOf(std::string_view s, bool (*ok)(unsigned char))
{
    if (s.empty())
        return false;
    for (char c : s)
        if (!ok(static_cast<unsigned char>(c)))
            return false;
    return true;
}

bool isDigit(unsigned char c)
{
    return std::isdigit(c) != 0;
}

// A subsystem: "pci", "infiniband", "pci_express", "usb-serial".
bool isSubsystemChar(unsigned char c)
{
    return std::islower(c) || std::isdigit(c) || c == '_' || c == '-';
}

// A device name as sysfs has it: printable, no blank, no '/'.
bool isNameChar(unsigned char c)
{
    return c > 0x20 && c < 0x7f && c != '/';
}

bool isMajorMinor(std::string_view s)
{
    auto colon = s.find(':');
    return colon != std::string_view::npos && allOf(s.substr(0, colon), isDigit) &&
           allOf(s.substr(colon + 1), isDigit);
}

constexpr size_t kMaxName = 128;

} // namespace

std::optional<KernelOrigin> parseKernelOrigin(std::string_view device, std::string_view subsystem)
{
    if (device.empty())
        return subsystem.empty() ? std::optional<KernelOrigin>(KernelOrigin{}) : std::nullopt;
    if (device.size() > kMaxName)
        return std::nullopt;
    KernelOrigin o;
    const char kind = device.front();
    auto id = device.substr(1);
    if (kind == '+') {
        auto colon = id.find(':');
        if (colon == std::string_view::npos || !allOf(id.substr(0, colon), isSubsystemChar) ||
            !allOf(id.substr(colon + 1), isNameChar))
            return std::nullopt;
        o.subsystem = std::string(id.substr(0, colon));
        o.device = std::string(id.substr(colon + 1));
    } else if (kind == 'n' && allOf(id, isDigit)) {
        o.subsystem = "net";
        o.device = std::string(id);
    } else if ((kind == 'c' || kind == 'b') && isMajorMinor(id)) {
        o.subsystem = kind == 'c' ? "char" : "block";
        o.device = std::string(id);
    } else {
        return std::nullopt;
    }
    // _KERNEL_SUBSYSTEM, where journald has it, is the same subsystem ("net" for n<ifindex>).
    if (!subsystem.empty() && kind != 'c' && kind != 'b' && subsystem != o.subsystem)
        return std::nullopt;
    return o;
}

} // namespace nicd::kernel_log
