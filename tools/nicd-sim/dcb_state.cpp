#include "dcb_state.hpp"

#include "vendor_catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <sstream>

namespace nicd::sim {

namespace {

uint32_t number(std::string_view s, uint32_t max, const std::string& where)
{
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v > max)
        throw SimError(fmt::format("{}: '{}' is not a number from 0 to {}", where, s, max));
    return v;
}

std::array<uint8_t, 8> eightNumbers(std::string_view s, uint32_t max, const std::string& where)
{
    std::array<uint8_t, 8> out{};
    size_t i = 0;
    for (; i < out.size(); ++i) {
        auto comma = s.find(',');
        out[i] = static_cast<uint8_t>(number(s.substr(0, comma), max, where));
        if (comma == std::string_view::npos)
            break;
        s.remove_prefix(comma + 1);
    }
    if (i != out.size() - 1)
        throw SimError(where + ": wants 8 numbers");
    return out;
}

fs::path rdmaCmDir(const fs::path& root)
{
    return root / "sys/kernel/config/rdma_cm";
}

} // namespace

fs::path dcbFile(const fs::path& root, const std::string& netdev)
{
    return simDir(root) / "dcb" / netdev;
}

std::string formatDcb(const DcbState& s)
{
    std::string out = fmt::format("pfc_cap={}\npfc_en={}\nmbc={}\ndelay={}\n", s.pfc_cap, s.pfc_en,
                                  s.mbc, s.delay);
    if (s.dcbx)
        out += fmt::format("dcbx={}\n", *s.dcbx);
    if (s.ets_cap)
        out += fmt::format("ets_cap={}\nprio_tc={}\ntc_tsa={}\ntc_bw={}\n", *s.ets_cap,
                           fmt::join(s.prio_tc, ","), fmt::join(s.tc_tsa, ","),
                           fmt::join(s.tc_bw, ","));
    for (const auto& a : s.apps)
        out += fmt::format("app={},{},{}\n", a.selector, a.priority, a.protocol);
    return out;
}

DcbState parseDcb(const std::string& text, const std::string& where)
{
    DcbState s;
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        auto at = fmt::format("{}: line {}", where, n);
        if (line.empty() || line.front() == '#')
            continue;
        auto eq = line.find('=');
        if (eq == std::string::npos)
            throw SimError(at + ": not key=value");
        auto key = line.substr(0, eq);
        std::string_view value = std::string_view(line).substr(eq + 1);
        if (key == "pfc_cap")
            s.pfc_cap = static_cast<uint8_t>(number(value, 255, at));
        else if (key == "pfc_en")
            s.pfc_en = static_cast<uint8_t>(number(value, 255, at));
        else if (key == "mbc")
            s.mbc = static_cast<uint8_t>(number(value, 255, at));
        else if (key == "delay")
            s.delay = static_cast<uint16_t>(number(value, 65535, at));
        else if (key == "dcbx")
            s.dcbx = static_cast<uint8_t>(number(value, 255, at));
        else if (key == "ets_cap")
            s.ets_cap = static_cast<uint8_t>(number(value, 255, at));
        else if (key == "prio_tc")
            s.prio_tc = eightNumbers(value, 7, at);
        else if (key == "tc_tsa")
            s.tc_tsa = eightNumbers(value, 255, at);
        else if (key == "tc_bw")
            s.tc_bw = eightNumbers(value, 100, at);
        else if (key == "app") {
            auto c1 = value.find(',');
            auto c2 = c1 == std::string_view::npos ? c1 : value.find(',', c1 + 1);
            if (c2 == std::string_view::npos)
                throw SimError(at + ": app wants selector,priority,protocol");
            s.apps.push_back(
                {static_cast<uint8_t>(number(value.substr(0, c1), 255, at)),
                 static_cast<uint8_t>(number(value.substr(c1 + 1, c2 - c1 - 1), 7, at)),
                 static_cast<uint16_t>(number(value.substr(c2 + 1), 65535, at))});
        } else
            throw SimError(at + ": unknown key '" + key + "'");
    }
    return s;
}

DcbState readDcb(const fs::path& root, const std::string& netdev)
{
    auto file = dcbFile(root, netdev);
    return parseDcb(readText(file), file.string());
}

void writeDcb(const fs::path& root, const std::string& netdev, const DcbState& s)
{
    fs::create_directories(dcbFile(root, netdev).parent_path());
    writeText(root, dcbFile(root, netdev), formatDcb(s));
}

std::vector<std::string> dcbNetdevs(const SimDevice& d)
{
    if (d.role == "pf" || d.role == "lag")
        return d.ethtool_netdevs;
    return {};
}

void createQosState(const fs::path& root, const NodeState& st)
{
    fs::create_directories(rdmaCmDir(root));
    fs::create_directories(simDir(root) / "dcb");
    for (const auto& [name, d] : st.devices)
        for (const auto& nd : dcbNetdevs(d))
            writeDcb(root, nd, vendorCatalog(d.vendor).firmware_dcbx ? freshBnxtDcb() : DcbState{});
}

void qosDrift(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    auto netdevs = dcbNetdevs(st->device(dev));
    if (netdevs.empty())
        throw SimError(dev + " has no DCB netdev (only RoCE PFs and LAG members have one)");
    for (const auto& nd : netdevs) {
        if (!fs::exists(dcbFile(root, nd)))
            continue;
        auto s = readDcb(root, nd);
        s.pfc_en = 1U << 4;
        std::erase_if(s.apps, [](const DcbApp& a) { return a.selector == kDscpSelector; });
        writeDcb(root, nd, s);
    }
}

DcbState freshBnxtDcb()
{
    DcbState s;
    s.pfc_cap = 3;
    s.delay = 0;
    s.dcbx = kDcbxHost;
    s.ets_cap = 7;
    return s;
}

void dcbxOwner(const fs::path& root, const std::string& dev, bool firmware)
{
    LockedNode st(root);
    int changed = 0;
    for (const auto& nd : dcbNetdevs(st->device(dev))) {
        if (!fs::exists(dcbFile(root, nd)))
            continue;
        auto s = readDcb(root, nd);
        if (!s.dcbx)
            continue;
        s.dcbx = firmware ? kDcbxFirmware : kDcbxHost;
        writeDcb(root, nd, s);
        ++changed;
    }
    if (changed == 0)
        throw SimError(dev + " has no DCB netdev with a DCBX owner (a bnxt PF's netdev has one)");
}

void tosReset(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    const auto& d = st->device(dev);
    std::error_code ec;
    for (const auto& p : fs::directory_iterator(rdmaCmDir(root) / dev / "ports", ec))
        if (fs::exists(p.path() / "default_roce_tos"))
            writeText(root, p.path() / "default_roce_tos", "0\n");
    for (const auto& p : fs::directory_iterator(root / d.ib_dir / "tc", ec))
        if (fs::exists(p.path() / "traffic_class"))
            writeText(root, p.path() / "traffic_class", "");
}

} // namespace nicd::sim
