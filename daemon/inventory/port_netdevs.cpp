#include "inventory/port_netdevs.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace nicd::inventory {

bool isNetdevName(std::string_view name)
{
    if (name.empty() || name.size() > 15 || name == "." || name == "..")
        return false;
    return std::none_of(name.begin(), name.end(), [](char c) {
        return c == '/' || std::isspace(static_cast<unsigned char>(c)) || c == '\0';
    });
}

std::vector<std::string> gidNetdevs(std::vector<std::pair<uint64_t, std::string>> by_gid_index)
{
    std::sort(by_gid_index.begin(), by_gid_index.end());
    std::vector<std::string> out;
    for (auto& [index, name] : by_gid_index)
        if (isNetdevName(name) && std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(std::move(name));
    return out;
}

namespace {

// Switchdev representors have a phys_port_name like "pf0vf1"; the uplink's is "p0".
bool isRepresentor(const FunctionNetdev& nd)
{
    const auto& n = nd.phys_port_name;
    if (n.empty())
        return false;
    return !(n.size() > 1 && n[0] == 'p' && std::all_of(n.begin() + 1, n.end(), [](char c) {
                 return std::isdigit(static_cast<unsigned char>(c));
             }));
}

using Attr = std::optional<uint64_t> FunctionNetdev::*;

// An attribute can tell ports apart when every netdev has it, and it is not the all-zero default
// of a driver that never sets it (a single netdev's 0 is believed).
bool selectsPorts(const std::vector<FunctionNetdev>& netdevs, Attr attr)
{
    bool any_nonzero = false;
    for (const auto& nd : netdevs) {
        if (!(nd.*attr))
            return false;
        any_nonzero = any_nonzero || *(nd.*attr) != 0;
    }
    return any_nonzero || netdevs.size() == 1;
}

} // namespace

std::vector<std::string> functionNetdevsOfPort(const std::vector<FunctionNetdev>& all,
                                               uint32_t port, size_t port_count)
{
    std::vector<FunctionNetdev> netdevs;
    std::copy_if(all.begin(), all.end(), std::back_inserter(netdevs),
                 [](const FunctionNetdev& nd) { return !isRepresentor(nd); });
    std::vector<std::string> out;
    Attr selector = nullptr;
    if (port_count > 1 && !netdevs.empty()) {
        if (selectsPorts(netdevs, &FunctionNetdev::dev_port))
            selector = &FunctionNetdev::dev_port;
        else if (selectsPorts(netdevs, &FunctionNetdev::dev_id))
            selector = &FunctionNetdev::dev_id;
    }
    for (const auto& nd : netdevs)
        if (!selector || *(nd.*selector) + 1 == port)
            out.push_back(nd.name);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace nicd::inventory
