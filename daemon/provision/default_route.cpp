#include "provision/default_route.hpp"

#include <sstream>
#include <vector>

namespace nicd::provision {

namespace {

constexpr unsigned long kRtfUp = 0x0001;

std::vector<std::string> fields(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string f; in >> f;)
        out.push_back(f);
    return out;
}

bool flagsUp(const std::string& hex)
{
    try {
        return (std::stoul(hex, nullptr, 16) & kRtfUp) != 0;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace

std::set<std::string> ipv4DefaultRouteNetdevs(std::string_view text)
{
    std::set<std::string> out;
    std::istringstream in{std::string(text)};
    std::string line;
    std::getline(in, line); // header: Iface Destination Gateway Flags RefCnt Use Metric Mask ...
    while (std::getline(in, line)) {
        auto f = fields(line);
        if (f.size() < 8)
            continue;
        if (f[1] == "00000000" && f[7] == "00000000" && flagsUp(f[3]))
            out.insert(f[0]);
    }
    return out;
}

std::set<std::string> ipv6DefaultRouteNetdevs(std::string_view text)
{
    std::set<std::string> out;
    std::istringstream in{std::string(text)};
    std::string line;
    // dest dest_plen src src_plen next_hop metric refcnt use flags iface
    while (std::getline(in, line)) {
        auto f = fields(line);
        if (f.size() < 10)
            continue;
        if (f[0] == std::string(32, '0') && f[1] == "00" && flagsUp(f[8]) && f[9] != "lo")
            out.insert(f[9]);
    }
    return out;
}

} // namespace nicd::provision
