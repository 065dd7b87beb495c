// plugin::sdk's netlink attribute reader on attributes laid out by hand
// (support/netlink_attrs.hpp): what it yields (types without flags, offsets, payloads, a last
// attribute without its padding) and what it rejects, naming the offset (truncated header, nla_len
// below the header, nla_len past the end, a nest that overruns its parent), and the typed getters.
#include "support/netlink_attrs.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <linux/netlink.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd::test;
namespace sdk = nicd::plugin::sdk;

namespace {

struct Seen {
    uint16_t type;
    size_t offset;
    size_t size;
    bool operator==(const Seen&) const = default;
};

std::vector<Seen> walk(const Bytes& bytes, size_t base = 0)
{
    std::vector<Seen> out;
    for (const sdk::NetlinkAttr& a : sdk::NetlinkAttrs(bytes, "test", base))
        out.push_back({a.type, a.offset, a.payload.size()});
    return out;
}

std::string complaint(const Bytes& bytes)
{
    try {
        walk(bytes);
    } catch (const sdk::DecodeError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(NetlinkAttrs, YieldsEachAttributeWithItsOffsetAndFlagsMasked)
{
    const Bytes bytes = cat({u32Attr(7, 1), stringAttr(3, "eth0"), nest(9, {u32Attr(1, 2)}),
                             attr(5 | NLA_F_NET_BYTEORDER, {0, 1})});
    EXPECT_EQ(walk(bytes), (std::vector<Seen>{{7, 0, 4}, {3, 8, 5}, {9, 20, 8}, {5, 32, 2}}));
    EXPECT_EQ(walk(bytes, 100).front(), (Seen{7, 100, 4}));
    EXPECT_TRUE(walk({}).empty());
}

TEST(NetlinkAttrs, AcceptsALastAttributeWithoutItsPadding)
{
    Bytes bytes = cat({u32Attr(1, 1), attr(2, {0xaa})});
    bytes.resize(bytes.size() - 3); // nla_len 5, no padding after it
    EXPECT_EQ(walk(bytes), (std::vector<Seen>{{1, 0, 4}, {2, 8, 1}}));
}

TEST(NetlinkAttrs, RejectsATruncatedHeader)
{
    Bytes bytes = cat({u32Attr(1, 1), Bytes{8, 0}});
    EXPECT_EQ(complaint(bytes), "test: attribute at offset 8: truncated header (2 bytes left)");
}

TEST(NetlinkAttrs, RejectsAnNlaLenShorterThanItsHeader)
{
    Bytes bytes = u32Attr(6, 1);
    bytes[0] = 3;
    EXPECT_EQ(complaint(bytes), "test: attribute 6 at offset 0: nla_len 3 shorter than its header");
    bytes[0] = 0; // would loop forever if taken as a length
    EXPECT_NE(complaint(bytes).find("nla_len 0 shorter"), std::string::npos);
}

TEST(NetlinkAttrs, RejectsAnNlaLenPastTheEnd)
{
    Bytes bytes = cat({u32Attr(1, 1), u32Attr(2, 2)});
    bytes[8] = 0x40; // nla_len 64 with 8 bytes left
    EXPECT_EQ(complaint(bytes),
              "test: attribute 2 at offset 8: nla_len 64 past the end (8 bytes left)");
}

TEST(NetlinkAttrs, RejectsANestThatOverrunsItsParentAndNamesTheAbsoluteOffset)
{
    // The nest's own length fits the message; its child claims 12 bytes of the 8 in the nest, and
    // the 4 bytes after the nest must not be read as the rest of it.
    Bytes bytes = cat({u32Attr(1, 1), nest(9, {u32Attr(4, 2)}), u32Attr(3, 3)});
    bytes[12] = 12; // the child's nla_len
    std::string what;
    try {
        for (const sdk::NetlinkAttr& a : sdk::NetlinkAttrs(bytes, "outer"))
            if (a.type == 9)
                for ([[maybe_unused]] const sdk::NetlinkAttr& c :
                     sdk::NetlinkAttrs(a.payload, "nest 9", a.payloadOffset())) {
                }
    } catch (const sdk::DecodeError& e) {
        what = e.what();
    }
    EXPECT_EQ(what, "nest 9: attribute 4 at offset 12: nla_len 12 past the end (8 bytes left)");
}

TEST(NetlinkAttrs, TypedGettersCheckTheSize)
{
    const Bytes bytes = cat({u32Attr(1, 0x01020304), stringAttr(2, "mlx5_0"), attr(3, {7})});
    std::vector<sdk::NetlinkAttr> attrs;
    for (const sdk::NetlinkAttr& a : sdk::NetlinkAttrs(bytes, "test"))
        attrs.push_back(a);
    ASSERT_EQ(attrs.size(), 3u);
    EXPECT_EQ(attrs[0].u32("one"), 0x01020304u);
    EXPECT_EQ(attrs[1].string(), "mlx5_0");
    EXPECT_EQ(attrs[2].u8("three"), 7);
    try {
        attrs[0].u64("the counter");
        FAIL() << "a u32 read as a u64";
    } catch (const sdk::DecodeError& e) {
        EXPECT_STREQ(e.what(), "the counter (attribute 1 at offset 0): 4 bytes, want 8");
    }
    EXPECT_THROW(attrs[2].u16("three"), sdk::DecodeError);
}
