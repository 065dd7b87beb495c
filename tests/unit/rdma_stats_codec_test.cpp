// plugin::sdk's RDMA netlink codec on messages built by hand from the uapi layout
// (rdma_netlink.h) as nldev.c sends them: STAT_GET replies (counter tables in any attribute order,
// with padding, without the nest flag, cut short, with bad lengths and wrong sizes), the device
// dump, and the matching of datagrams to a request (stale messages, multi-part dumps, errors).
#include "support/rdma_netlink_messages.hpp"

#include <nicd/plugin/sdk/rdma_stats_codec.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

using namespace nicd::test;
using nicd::plugin::sdk::DecodeError;
using nicd::plugin::sdk::RdmaAnswer;
using nicd::plugin::sdk::RdmaHwCounters;

namespace sdk = nicd::plugin::sdk;

namespace {

constexpr uint32_t kStatsSeq = 0x51;

HwCounterList decode(const Bytes& attrs, sdk::RdmaStatHeader* header = nullptr)
{
    RdmaHwCounters counters;
    auto h = sdk::decodeStatGetReply(attrs, counters);
    if (header)
        *header = h;
    HwCounterList out;
    for (size_t i = 0; i < counters.size(); ++i)
        out.emplace_back(std::string(counters.name(i)), counters.value(i));
    return out;
}

// The decoder's complaint about `attrs`, or "" when it accepts them.
std::string complaint(const Bytes& attrs)
{
    try {
        decode(attrs);
        return "";
    } catch (const DecodeError& e) {
        return e.what();
    }
}

Bytes handle()
{
    return Attrs()
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 3)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0")
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)
        .bytes;
}

// A reply with `table` (already laid out) as its counter table.
Bytes withTable(const Attrs& table)
{
    return cat(
        {handle(), Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS | NLA_F_NESTED, table).bytes});
}

} // namespace

TEST(RdmaStatsCodec, TwoCounterReplyIsDecodedSortedByName)
{
    sdk::RdmaStatHeader h; // its name points into the bytes
    const Bytes attrs =
        statReplyAttrs(3, "mlx5_0", 1, {{"rx_write_requests", 3809045607}, {"out_of_buffer", 41}});
    auto counters = decode(attrs, &h);
    EXPECT_EQ(h.dev_index, 3U);
    EXPECT_EQ(h.dev_name, "mlx5_0");
    EXPECT_EQ(h.port, 1U);
    EXPECT_EQ(counters, (HwCounterList{{"out_of_buffer", 41}, {"rx_write_requests", 3809045607}}));
}

TEST(RdmaStatsCodec, EveryCounterOfARealRdmaStatisticSample)
{
    // spiderpool's `rdma statistic -j` sample: what STAT_GET gave for mlx5_1 port 1.
    std::ifstream in(std::filesystem::path(NICD_SHARED_DIR) /
                     "fixtures/rdma-netlink/spiderpool-rdma-statistic-j.json");
    auto sample = nlohmann::json::parse(in).at(0);
    HwCounterList sent;
    std::map<std::string, uint64_t> want;
    for (const auto& [key, value] : sample.items())
        if (key != "ifname" && key != "port") {
            sent.emplace_back(key, value.get<uint64_t>());
            want[key] = value.get<uint64_t>();
        }
    ASSERT_EQ(sent.size(), 31U);
    auto counters = decode(statReplyAttrs(7, sample.at("ifname"), sample.at("port"), sent));
    EXPECT_EQ(counters, HwCounterList(want.begin(), want.end()));
}

TEST(RdmaStatsCodec, AttributesInAnotherOrderWithPaddingAndUnknownOnes)
{
    Attrs entry_value_first;
    entry_value_first.u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 9)
        .raw(RDMA_NLDEV_ATTR_PAD, nullptr, 0)
        .u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, 4) // as STAT_GET_STATUS puts it: skipped
        .str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "np_cnp_sent");
    Attrs table;
    table.raw(RDMA_NLDEV_ATTR_PAD, nullptr, 0)
        .nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, entry_value_first) // without NLA_F_NESTED
        .nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY | NLA_F_NESTED,
              hwCounterEntry("duplicate_request", 2, true));
    // The table first, the handle after it, and an attribute a later kernel might add.
    Bytes attrs = cat({Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, table).bytes,
                       Attrs().u32(RDMA_NLDEV_ATTR_MAX + 5, 1).bytes,
                       Attrs().u32(RDMA_NLDEV_ATTR_PORT_INDEX, 2).bytes,
                       Attrs().str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_1").bytes,
                       Attrs().u32(RDMA_NLDEV_ATTR_DEV_INDEX, 4).bytes});
    sdk::RdmaStatHeader h;
    EXPECT_EQ(decode(attrs, &h), (HwCounterList{{"duplicate_request", 2}, {"np_cnp_sent", 9}}));
    EXPECT_EQ(h.port, 2U);
    EXPECT_EQ(h.dev_name, "mlx5_1");
}

TEST(RdmaStatsCodec, AnEmptyTableIsAReplyWithNoCounters)
{
    EXPECT_TRUE(decode(withTable(Attrs())).empty());
}

TEST(RdmaStatsCodec, ATruncatedAttributeIsRefused)
{
    Bytes attrs = statReplyAttrs(3, "mlx5_0", 1, {{"out_of_buffer", 41}});
    attrs.resize(attrs.size() - 6); // the value cut short, as a message that ends early
    EXPECT_NE(complaint(attrs).find("past the end"), std::string::npos) << complaint(attrs);
    Bytes half_header = cat({handle(), {8, 0}}); // two bytes of an attribute's header
    EXPECT_NE(complaint(half_header).find("at offset 28: truncated header (2 bytes left)"),
              std::string::npos)
        << complaint(half_header);
}

TEST(RdmaStatsCodec, BadLengthsAreRefusedWithTheirOffset)
{
    // nla_len shorter than the header.
    Bytes attrs = handle();
    Bytes shorter = {2, 0, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, 0};
    EXPECT_NE(
        complaint(cat({attrs, shorter})).find("at offset 28: nla_len 2 shorter than its header"),
        std::string::npos)
        << complaint(cat({attrs, shorter}));

    // An entry whose length runs past its table (the table's own length is right).
    Bytes entry = Attrs()
                      .nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY | NLA_F_NESTED,
                            hwCounterEntry("out_of_buffer", 1))
                      .bytes;
    entry[0] = static_cast<uint8_t>(entry[0] + 8);
    Bytes table = attr(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS | NLA_F_NESTED, entry);
    EXPECT_NE(complaint(cat({attrs, table})).find("past the end"), std::string::npos);
}

TEST(RdmaStatsCodec, AnAttributeOfTheWrongSizeOrKindIsRefused)
{
    Attrs u32_value;
    u32_value.str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "out_of_buffer")
        .u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 41);
    EXPECT_NE(complaint(withTable(Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, u32_value)))
                  .find("hw counter value (attribute 83 at offset 56): 4 bytes, want 8"),
              std::string::npos)
        << complaint(withTable(Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, u32_value)));

    Attrs unterminated;
    unterminated.raw(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "abc", 3)
        .u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1);
    EXPECT_NE(complaint(withTable(Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, unterminated)))
                  .find("not a NUL-terminated string"),
              std::string::npos);

    Bytes index_u64 = cat({Attrs().u64(RDMA_NLDEV_ATTR_DEV_INDEX, 3).bytes,
                           Attrs().str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0").bytes,
                           Attrs().u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1).bytes,
                           Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, Attrs()).bytes});
    EXPECT_NE(complaint(index_u64).find("device index"), std::string::npos);
}

TEST(RdmaStatsCodec, EntriesAndRepliesMissingAPartAreRefused)
{
    Attrs no_value;
    no_value.str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "out_of_buffer");
    EXPECT_NE(complaint(withTable(Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, no_value)))
                  .find("no value"),
              std::string::npos);
    EXPECT_NE(complaint(handle()).find("without its hw counter table"), std::string::npos);
    Bytes no_port = Attrs()
                        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 3)
                        .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0")
                        .nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, Attrs())
                        .bytes;
    EXPECT_NE(complaint(no_port).find("without its port index"), std::string::npos);
}

TEST(RdmaStatsCodec, NamesThatNoFileCouldHaveOrThatRepeatAreRefused)
{
    EXPECT_NE(complaint(statReplyAttrs(3, "mlx5_0", 1, {{"a", 1}, {"a", 2}})).find("twice"),
              std::string::npos);
    EXPECT_NE(complaint(statReplyAttrs(3, "mlx5_0", 1, {{"../lifespan", 1}})).find("has a '/'"),
              std::string::npos);
    EXPECT_NE(complaint(statReplyAttrs(3, "mlx5_0", 1, {{"", 1}})).find("empty name"),
              std::string::npos);
    Bytes two_tables = cat({statReplyAttrs(3, "mlx5_0", 1, {{"a", 1}}),
                            Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, Attrs()).bytes});
    EXPECT_NE(complaint(two_tables).find("appears twice"), std::string::npos);
}

TEST(RdmaStatsCodec, DeviceMessageOfTheDump)
{
    const Bytes msg = deviceMessage(kStatsSeq, 12, "rxe0");
    auto dev = sdk::decodeDeviceMessage(std::span(msg).subspan(NLMSG_HDRLEN));
    EXPECT_EQ(dev.index, 12U);
    EXPECT_EQ(dev.name, "rxe0");
    EXPECT_THROW(sdk::decodeDeviceMessage(Attrs().u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1).bytes),
                 DecodeError);
}

TEST(RdmaStatsCodec, RequestsAreLaidOutAsTheKernelParsesThem)
{
    std::vector<uint8_t> req;
    sdk::buildStatGetRequest(kStatsSeq, 3, 2, req);
    // nlmsghdr: 32 bytes, type RDMA_NL_GET_TYPE(RDMA_NL_NLDEV = 5, STAT_GET = 17) = 0x1411,
    // NLM_F_REQUEST, seq, port id 0; then DEV_INDEX (1) = 3 and PORT_INDEX (3) = 2.
    EXPECT_EQ(req, cat({{32, 0, 0, 0, 0x11, 0x14, 1, 0, kStatsSeq, 0, 0, 0, 0, 0, 0, 0},
                        {8, 0, 1, 0, 3, 0, 0, 0},
                        {8, 0, 3, 0, 2, 0, 0, 0}}));
    sdk::buildDeviceDumpRequest(kStatsSeq, req);
    EXPECT_EQ(req, Bytes({16, 0, 0, 0, 0x01, 0x14, 0x01, 0x03, kStatsSeq, 0, 0, 0, 0, 0, 0, 0}));
}

// ---- matching datagrams to a request ----

TEST(RdmaStatsCodec, AReplyFinishesAStatGetAndStaleMessagesAreSkipped)
{
    const uint16_t type = rdmaType(RDMA_NLDEV_CMD_STAT_GET);
    RdmaAnswer answer;
    // The late reply to a request given up on (another sequence number) comes first.
    Bytes datagram = cat({statReply(kStatsSeq - 1, 3, "mlx5_0", 1, {{"stale", 1}}),
                          statReply(kStatsSeq, 3, "mlx5_0", 1, {{"out_of_buffer", 41}})});
    sdk::absorbRdmaDatagram(datagram, kStatsSeq, type, false, answer);
    EXPECT_TRUE(answer.finished);
    EXPECT_EQ(answer.error, 0);
    ASSERT_EQ(answer.messages.size(), 1U);
    EXPECT_EQ(decode(Bytes(answer.messages[0].begin(), answer.messages[0].end())),
              (HwCounterList{{"out_of_buffer", 41}}));
}

TEST(RdmaStatsCodec, AMultiPartDumpEndsAtDone)
{
    const uint16_t type = rdmaType(RDMA_NLDEV_CMD_GET);
    RdmaAnswer answer;
    sdk::absorbRdmaDatagram(
        cat({deviceMessage(kStatsSeq, 1, "mlx5_0"), deviceMessage(kStatsSeq, 2, "mlx5_1")}),
        kStatsSeq, type, true, answer);
    EXPECT_FALSE(answer.finished);
    EXPECT_EQ(answer.messages.size(), 2U);
    const Bytes second = cat({deviceMessage(kStatsSeq, 5, "mlx5_bond_0"), nlDone(kStatsSeq)});
    sdk::absorbRdmaDatagram(second, kStatsSeq, type, true, answer);
    EXPECT_TRUE(answer.finished);
    EXPECT_EQ(answer.error, 0);
    ASSERT_EQ(answer.messages.size(), 1U) << "each datagram's messages on their own";
    EXPECT_EQ(sdk::decodeDeviceMessage(answer.messages[0]).name, "mlx5_bond_0");
    EXPECT_FALSE(answer.interrupted);

    RdmaAnswer empty; // no device at all: DONE alone
    sdk::absorbRdmaDatagram(nlDone(kStatsSeq), kStatsSeq, type, true, empty);
    EXPECT_TRUE(empty.finished);
    EXPECT_TRUE(empty.messages.empty());

    RdmaAnswer interrupted;
    sdk::absorbRdmaDatagram(nlmsg(type, NLM_F_MULTI | NLM_F_DUMP_INTR, kStatsSeq,
                                  Attrs().u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1).bytes),
                            kStatsSeq, type, true, interrupted);
    EXPECT_TRUE(interrupted.interrupted);
}

TEST(RdmaStatsCodec, ErrorsCarryTheirErrnoAndTheKernelsText)
{
    const uint16_t type = rdmaType(RDMA_NLDEV_CMD_STAT_GET);
    RdmaAnswer answer;
    sdk::absorbRdmaDatagram(nlError(kStatsSeq, EOPNOTSUPP, "Counters are not supported"), kStatsSeq,
                            type, false, answer);
    EXPECT_TRUE(answer.finished);
    EXPECT_EQ(answer.error, EOPNOTSUPP);
    EXPECT_EQ(answer.extack, "Counters are not supported");
    EXPECT_TRUE(answer.messages.empty());

    RdmaAnswer done_failed; // a dump that failed part way ends with its errno in NLMSG_DONE
    sdk::absorbRdmaDatagram(nlDone(kStatsSeq, EMSGSIZE), kStatsSeq, rdmaType(RDMA_NLDEV_CMD_GET),
                            true, done_failed);
    EXPECT_TRUE(done_failed.finished);
    EXPECT_EQ(done_failed.error, EMSGSIZE);
}

TEST(RdmaStatsCodec, MalformedDatagramsAreRefused)
{
    const uint16_t type = rdmaType(RDMA_NLDEV_CMD_STAT_GET);
    RdmaAnswer answer;
    Bytes too_long = statReply(kStatsSeq, 3, "mlx5_0", 1, {{"a", 1}});
    too_long[0] = static_cast<uint8_t>(too_long[0] + 4);
    EXPECT_THROW(sdk::absorbRdmaDatagram(too_long, kStatsSeq, type, false, answer), DecodeError);
    Bytes short_error = nlmsg(NLMSG_ERROR, 0, kStatsSeq, {0xa1, 0xff, 0xff, 0xff});
    EXPECT_THROW(sdk::absorbRdmaDatagram(short_error, kStatsSeq, type, false, answer), DecodeError);
    Bytes not_an_errno = nlmsg(NLMSG_DONE, NLM_F_MULTI, kStatsSeq, {0, 0, 0, 0x80}); // INT32_MIN
    EXPECT_THROW(sdk::absorbRdmaDatagram(not_an_errno, kStatsSeq, type, true, answer), DecodeError);
    Bytes other_type = nlmsg(rdmaType(RDMA_NLDEV_CMD_PORT_GET), 0, kStatsSeq, handle());
    EXPECT_THROW(sdk::absorbRdmaDatagram(other_type, kStatsSeq, type, false, answer), DecodeError);
    EXPECT_FALSE(answer.finished);
}
