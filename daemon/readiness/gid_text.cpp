#include "readiness/gid_text.hpp"

#include "inventory/sysfs_values.hpp"
#include "text/hex_digit.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace nicd::readiness {

namespace {

using nicd::text::hexDigit;

} // namespace

std::optional<Gid> parseGid(std::string_view text)
{
    text = sysfs::trim(text);
    Gid gid{};
    size_t group = 0;
    while (group < 8) {
        unsigned value = 0;
        size_t digits = 0;
        while (!text.empty() && text.front() != ':') {
            const int d = hexDigit(text.front());
            if (d < 0 || ++digits > 4)
                return std::nullopt;
            value = value * 16 + static_cast<unsigned>(d);
            text.remove_prefix(1);
        }
        if (digits == 0)
            return std::nullopt;
        gid[2 * group] = static_cast<uint8_t>(value >> 8);
        gid[2 * group + 1] = static_cast<uint8_t>(value & 0xff);
        ++group;
        if (group < 8) {
            if (text.empty())
                return std::nullopt;
            text.remove_prefix(1); // the ':'
        }
    }
    if (!text.empty())
        return std::nullopt;
    return gid;
}

std::string sysfsGidText(const Gid& gid)
{
    std::string out;
    for (size_t i = 0; i < 16; i += 2)
        out += fmt::format("{}{:02x}{:02x}", i == 0 ? "" : ":", gid[i], gid[i + 1]);
    return out;
}

std::string gidAddress(const Gid& gid)
{
    char text[INET6_ADDRSTRLEN] = {};
    if (inet_ntop(AF_INET6, gid.data(), text, sizeof(text)) == nullptr)
        return sysfsGidText(gid);
    return text;
}

GidKind gidKind(const Gid& gid)
{
    if (std::all_of(gid.begin(), gid.end(), [](uint8_t b) { return b == 0; }))
        return GidKind::Zero;
    if (std::all_of(gid.begin(), gid.begin() + 10, [](uint8_t b) { return b == 0; }) &&
        gid[10] == 0xff && gid[11] == 0xff)
        return GidKind::Ipv4Mapped;
    if (gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80)
        return GidKind::LinkLocal;
    return GidKind::Ipv6;
}

bool carriesIpAddress(const Gid& gid)
{
    auto kind = gidKind(gid);
    return kind == GidKind::Ipv4Mapped || kind == GidKind::Ipv6;
}

} // namespace nicd::readiness
