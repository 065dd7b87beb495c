// The two candidates for nicd's one netlink attribute reader, on the real decoders' inputs:
// libnl-3's nla_parse/nla_parse_nested with a struct nla_policy, and the SDK's NetlinkAttrs
// (plugins/sdk netlink_attrs.h). Inputs: the STAT_GET reply of a real mlx5 port (spiderpool's
// `rdma statistic -j` sample: 31 hw counters, two levels of nests), as RdmaStatsClient reads it
// every cycle for every port, and an ethtool FEC_GET reply (header nest, active mode, the stats
// nest with per-lane arrays). Each reader takes out what the decoder needs (names, values). Then
// what each does with hostile bytes: an attribute whose nla_len runs past the message, and one
// cut short in a nest. Prints ns per message; asserts nothing (make bench prints it).
#include "support/netlink_attrs.hpp"
#include "support/rdma_netlink_messages.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>
#include <nicd/plugin/sdk/rdma_stats_codec.h>

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <netlink/attr.h>
#include <netlink/netlink.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using namespace nicd::test;
namespace sdk = nicd::plugin::sdk;

namespace {

constexpr int kRounds = 200000;

// What each reader takes out, summed so that the work cannot be optimised away.
struct Sum {
    uint64_t values = 0;
    size_t name_bytes = 0;
};

// ---- the RDMA STAT_GET reply ----

Sum rdmaInHouse(const Bytes& attrs)
{
    Sum sum;
    for (const sdk::NetlinkAttr& a : sdk::NetlinkAttrs(attrs, "bench")) {
        if (a.type == RDMA_NLDEV_ATTR_DEV_INDEX || a.type == RDMA_NLDEV_ATTR_PORT_INDEX)
            sum.values += a.u32("index");
        else if (a.type == RDMA_NLDEV_ATTR_DEV_NAME)
            sum.name_bytes += a.string().size();
        if (a.type != RDMA_NLDEV_ATTR_STAT_HWCOUNTERS)
            continue;
        for (const sdk::NetlinkAttr& e : sdk::NetlinkAttrs(a.payload, "bench", a.payloadOffset()))
            for (const sdk::NetlinkAttr& f :
                 sdk::NetlinkAttrs(e.payload, "bench", e.payloadOffset())) {
                if (f.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME)
                    sum.name_bytes += f.string().size();
                else if (f.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE)
                    sum.values += f.u64("value");
            }
    }
    return sum;
}

// libnl's policies: what nla_parse checks of each attribute the decoders read.
nla_policy rdmaPolicy[RDMA_NLDEV_ATTR_MAX + 1];
nla_policy entryPolicy[RDMA_NLDEV_ATTR_MAX + 1];
nla_policy fecPolicy[ETHTOOL_A_FEC_MAX + 1];
nla_policy headerPolicy[ETHTOOL_A_HEADER_MAX + 1];
nla_policy statsPolicy[ETHTOOL_A_FEC_STAT_MAX + 1];

void initPolicies()
{
    rdmaPolicy[RDMA_NLDEV_ATTR_DEV_INDEX].type = NLA_U32;
    rdmaPolicy[RDMA_NLDEV_ATTR_PORT_INDEX].type = NLA_U32;
    rdmaPolicy[RDMA_NLDEV_ATTR_DEV_NAME].type = NLA_STRING;
    rdmaPolicy[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS].type = NLA_NESTED;
    entryPolicy[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME].type = NLA_STRING;
    entryPolicy[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE].type = NLA_U64;
    fecPolicy[ETHTOOL_A_FEC_HEADER].type = NLA_NESTED;
    fecPolicy[ETHTOOL_A_FEC_ACTIVE].type = NLA_U32;
    fecPolicy[ETHTOOL_A_FEC_STATS].type = NLA_NESTED;
    headerPolicy[ETHTOOL_A_HEADER_DEV_NAME].type = NLA_STRING;
}

// -1 when libnl refused the bytes.
long rdmaLibnl(Bytes& attrs, Sum& sum)
{
    nlattr* tb[RDMA_NLDEV_ATTR_MAX + 1];
    auto* head = reinterpret_cast<nlattr*>(attrs.data());
    if (nla_parse(tb, RDMA_NLDEV_ATTR_MAX, head, static_cast<int>(attrs.size()), rdmaPolicy) < 0)
        return -1;
    for (int t : {RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_PORT_INDEX})
        if (tb[t])
            sum.values += nla_get_u32(tb[t]);
    if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
        sum.name_bytes += std::strlen(nla_get_string(tb[RDMA_NLDEV_ATTR_DEV_NAME]));
    if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
        return 0;
    nlattr* entry;
    int rem;
    nla_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem)
    {
        nlattr* fields[RDMA_NLDEV_ATTR_MAX + 1];
        if (nla_parse_nested(fields, RDMA_NLDEV_ATTR_MAX, entry, entryPolicy) < 0)
            return -1;
        if (auto* n = fields[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME])
            sum.name_bytes += std::strlen(nla_get_string(n));
        if (auto* v = fields[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE])
            sum.values += nla_get_u64(v);
    }
    return rem == 0 ? 0 : -1; // leftover bytes in the table: libnl only says so at debug level
}

// ---- the FEC_GET reply ----

Sum fecInHouse(const Bytes& attrs)
{
    Sum sum;
    for (const sdk::NetlinkAttr& a : sdk::NetlinkAttrs(attrs, "bench")) {
        if (a.type == ETHTOOL_A_FEC_ACTIVE)
            sum.values += a.u32("active");
        else if (a.type == ETHTOOL_A_FEC_HEADER)
            for (const sdk::NetlinkAttr& n :
                 sdk::NetlinkAttrs(a.payload, "bench", a.payloadOffset())) {
                if (n.type == ETHTOOL_A_HEADER_DEV_NAME)
                    sum.name_bytes += n.string().size();
            }
        else if (a.type == ETHTOOL_A_FEC_STATS)
            for (const sdk::NetlinkAttr& n :
                 sdk::NetlinkAttrs(a.payload, "bench", a.payloadOffset())) {
                if (n.payload.size() >= 8)
                    sum.values += n.payload[0];
            }
    }
    return sum;
}

long fecLibnl(Bytes& attrs, Sum& sum)
{
    nlattr* tb[ETHTOOL_A_FEC_MAX + 1];
    if (nla_parse(tb, ETHTOOL_A_FEC_MAX, reinterpret_cast<nlattr*>(attrs.data()),
                  static_cast<int>(attrs.size()), fecPolicy) < 0)
        return -1;
    if (tb[ETHTOOL_A_FEC_ACTIVE])
        sum.values += nla_get_u32(tb[ETHTOOL_A_FEC_ACTIVE]);
    nlattr* header[ETHTOOL_A_HEADER_MAX + 1];
    if (tb[ETHTOOL_A_FEC_HEADER] &&
        nla_parse_nested(header, ETHTOOL_A_HEADER_MAX, tb[ETHTOOL_A_FEC_HEADER], headerPolicy) ==
            0 &&
        header[ETHTOOL_A_HEADER_DEV_NAME])
        sum.name_bytes += std::strlen(nla_get_string(header[ETHTOOL_A_HEADER_DEV_NAME]));
    nlattr* stats[ETHTOOL_A_FEC_STAT_MAX + 1];
    if (tb[ETHTOOL_A_FEC_STATS] &&
        nla_parse_nested(stats, ETHTOOL_A_FEC_STAT_MAX, tb[ETHTOOL_A_FEC_STATS], statsPolicy) == 0)
        for (int t = 1; t <= ETHTOOL_A_FEC_STAT_MAX; ++t)
            if (stats[t] && nla_len(stats[t]) >= 8)
                sum.values += static_cast<const uint8_t*>(nla_data(stats[t]))[0];
    return 0;
}

// ---- timing ----

template <class F> double nsPerMessage(F&& once)
{
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kRounds; ++i)
        once();
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    return took.count() / kRounds;
}

void compare(const char* input, Bytes attrs, Sum (*inHouse)(const Bytes&),
             long (*libnl)(Bytes&, Sum&))
{
    Sum a, b;
    const double ours = nsPerMessage([&] { a.values += inHouse(attrs).values; });
    const double theirs = nsPerMessage([&] { libnl(attrs, b); });
    const bool same = a.values == b.values && inHouse(attrs).name_bytes == [&] {
        Sum one;
        libnl(attrs, one);
        return one.name_bytes;
    }();
    std::printf("%-28s %5zu bytes  NetlinkAttrs %7.1f ns  libnl nla_parse %7.1f ns  (%s)\n", input,
                attrs.size(), ours, theirs, same ? "same values" : "VALUES DIFFER");
}

// Whether each reader refuses bytes it cannot trust.
void hostile(const char* what, Bytes attrs, Sum (*inHouse)(const Bytes&),
             long (*libnl)(Bytes&, Sum&))
{
    std::string ours = "accepted";
    try {
        inHouse(attrs);
    } catch (const sdk::DecodeError& e) {
        ours = std::string("DecodeError \"") + e.what() + "\"";
    }
    Sum sum;
    const char* theirs = libnl(attrs, sum) < 0 ? "refused (no offset given)" : "accepted";
    std::printf("%-34s NetlinkAttrs: %s\n%-34s libnl: %s\n", what, ours.c_str(), "", theirs);
}

} // namespace

int main()
{
    initPolicies();
    std::ifstream in(std::filesystem::path(NICD_SHARED_DIR) /
                     "fixtures/rdma-netlink/spiderpool-rdma-statistic-j.json");
    const auto sample = nlohmann::json::parse(in).at(0);
    HwCounterList counters;
    for (const auto& [key, value] : sample.items())
        if (key != "ifname" && key != "port")
            counters.emplace_back(key, value.get<uint64_t>());
    const Bytes rdma = statReplyAttrs(7, sample.at("ifname"), sample.at("port"), counters);
    const Bytes fec = cat(
        {nest(ETHTOOL_A_FEC_HEADER, {stringAttr(ETHTOOL_A_HEADER_DEV_NAME, "ens1f0np0")}),
         u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT),
         nest(ETHTOOL_A_FEC_STATS, {u64Array(ETHTOOL_A_FEC_STAT_CORRECTED, {90, 30, 20, 20, 20}),
                                    u64Array(ETHTOOL_A_FEC_STAT_UNCORR, {1, 0, 1, 0, 0}),
                                    u64Array(ETHTOOL_A_FEC_STAT_CORR_BITS, {})})});

    std::printf("netlink attribute readers, %d rounds each (one core)\n", kRounds);
    compare("RDMA STAT_GET, 31 counters", rdma, rdmaInHouse, rdmaLibnl);
    compare("ethtool FEC_GET reply", fec, fecInHouse, fecLibnl);

    Bytes past_end = rdma;
    past_end.resize(past_end.size() - 6); // the last counter entry cut inside its value
    hostile("RDMA reply cut short:", past_end, rdmaInHouse, rdmaLibnl);
    Bytes nest_overrun = fec;
    // ETHTOOL_A_FEC_STAT_UNCORR (44 bytes, then the 4 of an empty CORR_BITS end the stats nest)
    // made 8 bytes longer than what is left of its nest.
    nest_overrun[fec.size() - 48] += 8;
    hostile("FEC array overrunning its nest:", nest_overrun, fecInHouse, fecLibnl);
    return 0;
}
