#include "privilege/knob_shapes.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace nicd::privilege {

namespace {

std::vector<std::string_view> split(std::string_view rel)
{
    std::vector<std::string_view> out;
    while (true) {
        auto slash = rel.find('/');
        out.push_back(rel.substr(0, slash));
        if (slash == std::string_view::npos)
            return out;
        rel.remove_prefix(slash + 1);
    }
}

std::optional<unsigned> decimal(std::string_view s, unsigned max)
{
    if (s.empty() || s.size() > 3 || (s.size() > 1 && s.front() == '0'))
        return std::nullopt;
    unsigned v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v > max)
        return std::nullopt;
    return v;
}

bool starts(const std::vector<std::string_view>& parts,
            std::initializer_list<std::string_view> head)
{
    return parts.size() >= head.size() && std::equal(head.begin(), head.end(), parts.begin());
}

std::vector<std::string> strings(std::initializer_list<std::string_view> parts)
{
    return {parts.begin(), parts.end()};
}

// The knobs under sys/class/net/<netdev>/ecn/: the enable bit of a priority at either point,
// the CNPs' DSCP and priority at the notification point.
std::optional<KnobTarget> ecnKnob(const std::vector<std::string_view>& p)
{
    // sys class net <netdev> ecn <point> ...
    if (p.size() < 7 || p[4] != "ecn" || !validNetdevName(p[3]))
        return std::nullopt;
    KnobTarget t{KnobKind::EcnEnable, KnobAnchor::ClassNet, std::string(p[3]), {}};
    if (p.size() == 8 && (p[5] == "roce_np" || p[5] == "roce_rp") && p[6] == "enable" &&
        decimal(p[7], 7)) {
        t.beneath = strings({p[4], p[5], p[6], p[7]});
        return t;
    }
    if (p.size() == 7 && p[5] == "roce_np" && (p[6] == "cnp_dscp" || p[6] == "cnp_802p_prio")) {
        t.kind = p[6] == "cnp_dscp" ? KnobKind::CnpDscp : KnobKind::CnpPriority;
        t.beneath = strings({p[4], p[5], p[6]});
        return t;
    }
    return std::nullopt;
}

std::optional<KnobTarget> writeKnob(const std::vector<std::string_view>& p)
{
    // sys kernel config rdma_cm <ibdev> ports <port> default_roce_tos
    if (starts(p, {"sys", "kernel", "config", "rdma_cm"}) && p.size() == 8 &&
        validIbdevName(p[4]) && p[5] == "ports" && validPortNumber(p[6]) &&
        p[7] == "default_roce_tos")
        return KnobTarget{KnobKind::RoceTos, KnobAnchor::RdmaCm, std::string(p[4]),
                          strings({p[5], p[6], p[7]})};
    // sys class infiniband <ibdev> tc <port> traffic_class
    if (starts(p, {"sys", "class", "infiniband"}) && p.size() == 7 && validIbdevName(p[3]) &&
        p[4] == "tc" && validPortNumber(p[5]) && p[6] == "traffic_class")
        return KnobTarget{KnobKind::TrafficClass, KnobAnchor::ClassInfiniband, std::string(p[3]),
                          strings({p[4], p[5], p[6]})};
    if (starts(p, {"sys", "class", "net"}))
        return ecnKnob(p);
    return std::nullopt;
}

} // namespace

bool validPortNumber(std::string_view name)
{
    auto v = decimal(name, 255);
    return v && *v >= 1;
}

bool validNetdevName(std::string_view name)
{
    if (name.empty() || name.size() > 15 || name == "." || name == "..")
        return false;
    return std::none_of(name.begin(), name.end(), [](char c) {
        return c == '/' || c == ':' || c == '\0' || std::isspace(static_cast<unsigned char>(c));
    });
}

bool validIbdevName(std::string_view name)
{
    if (name.empty() || name.size() > 63 || name == "." || name == "..")
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
}

Result<KnobTarget> matchKnob(KnobOp op, std::string_view rel)
{
    auto parts = split(rel);
    if (op == KnobOp::MakeGroup) {
        if (starts(parts, {"sys", "kernel", "config", "rdma_cm"}) && parts.size() == 5 &&
            validIbdevName(parts[4]))
            return KnobTarget{KnobKind::RdmaCmGroup, KnobAnchor::RdmaCm, std::string(parts[4]), {}};
        return Error{"not an rdma_cm group of an IB device"};
    }
    if (op == KnobOp::Write)
        if (auto t = writeKnob(parts))
            return *t;
    return Error{"not a knob nicd's writer may change"};
}

Result<void> checkKnobValue(KnobKind kind, std::string_view text)
{
    if (kind == KnobKind::RdmaCmGroup)
        return text.empty() ? Result<void>() : Error{"a group is made, not written"};
    unsigned max = 255;
    const char* want = "a number from 0 to 255";
    if (kind == KnobKind::EcnEnable) {
        max = 1;
        want = "0 or 1";
    } else if (kind == KnobKind::CnpDscp) {
        max = 63;
        want = "a number from 0 to 63";
    } else if (kind == KnobKind::CnpPriority) {
        max = 7;
        want = "a number from 0 to 7";
    }
    if (text.ends_with('\n'))
        text.remove_suffix(1);
    if (!decimal(text, max))
        return Error{std::string("the value must be ") + want};
    return {};
}

std::optional<std::vector<std::string>> classLinkTarget(KnobAnchor anchor, std::string_view device,
                                                        std::string_view link)
{
    if (anchor == KnobAnchor::RdmaCm)
        return std::nullopt;
    auto parts = split(link);
    const std::string_view cls = anchor == KnobAnchor::ClassNet ? "net" : "infiniband";
    // .. .. devices <at least one> <cls> <device>
    if (parts.size() < 6 || parts[0] != ".." || parts[1] != ".." || parts[2] != "devices" ||
        parts[parts.size() - 2] != cls || parts.back() != device)
        return std::nullopt;
    std::vector<std::string> out{"sys"};
    for (size_t i = 2; i < parts.size(); ++i) {
        if (parts[i].empty() || parts[i] == "." || parts[i] == "..")
            return std::nullopt;
        out.emplace_back(parts[i]);
    }
    return out;
}

} // namespace nicd::privilege
