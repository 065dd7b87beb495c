// devlink health: the reporter attribute decoder on hand-built messages (the parser of
// `devlink -j health show`: prefailure_devlink_json_test.cpp; the netlink edge against the running
// kernel: prefailure_devlink_netlink_test.cpp).
#include "prefailure/devlink_health.hpp"
#include "prefailure/devlink_netlink.hpp"
#include "support/decode_error.hpp"
#include "support/netlink_attrs.hpp"

#include <fcntl.h>
#include <linux/devlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

using nicd::HealthReporter;
using nicd::prefailure::DecodeError;
using nicd::prefailure::decodeReporterMessage;
using nicd::prefailure::DevlinkMonitor;
using nicd::prefailure::DevlinkNetlink;
using nicd::prefailure::parseDevlinkHealthJson;
using nicd::prefailure::pciAddressOf;
using nicd::test::Attrs;

namespace {

// The reporter nest as devlink_nl_health_reporter_fill lays it out, pad attributes included.
Attrs reporterNest(const std::string& name, uint8_t state, uint64_t errors, uint64_t recovers)
{
    Attrs n;
    n.str(DEVLINK_ATTR_HEALTH_REPORTER_NAME, name)
        .u8(DEVLINK_ATTR_HEALTH_REPORTER_STATE, state)
        .raw(DEVLINK_ATTR_PAD, nullptr, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, errors)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, recovers)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD, 500)
        .u8(DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER, 1)
        .u8(DEVLINK_ATTR_HEALTH_REPORTER_AUTO_DUMP, 1);
    return n;
}

Attrs deviceHandle(const std::string& dev = "0000:08:00.0")
{
    Attrs a;
    a.str(DEVLINK_ATTR_BUS_NAME, "pci").str(DEVLINK_ATTR_DEV_NAME, dev);
    return a;
}

HealthReporter decoded(const Attrs& a)
{
    auto r = decodeReporterMessage(a.bytes);
    EXPECT_TRUE(r.has_value());
    return r.value_or(HealthReporter{});
}

std::string messageErrorOf(const std::vector<uint8_t>& bytes)
{
    return nicd::test::decodeErrorOf([&] { decodeReporterMessage(bytes); });
}

// ---- decodeReporterMessage ----

TEST(DevlinkHealthMessage, DeviceLevelReporter)
{
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("fw_fatal", 0, 0, 0));
    const HealthReporter want{"pci/0000:08:00.0", "fw_fatal", true, "healthy", 0, 0};
    EXPECT_EQ(decoded(msg), want);
}

TEST(DevlinkHealthMessage, PortLevelReporterInError)
{
    auto msg = deviceHandle()
                   .u32(DEVLINK_ATTR_PORT_INDEX, 65535)
                   .nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("rx", 1, 3, 2));
    const HealthReporter want{"pci/0000:08:00.0/65535", "rx", false, "error", 3, 2};
    EXPECT_EQ(decoded(msg), want);
}

TEST(DevlinkHealthMessage, UnknownStateIsNotHealthy)
{
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("fw", 7, 1, 0));
    const auto r = decoded(msg);
    EXPECT_EQ(r.state, "unknown");
    EXPECT_FALSE(r.healthy);
}

TEST(DevlinkHealthMessage, LargeCountersAndNestedFlag)
{
    const uint64_t big = std::numeric_limits<uint64_t>::max();
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER | NLA_F_NESTED,
                                   reporterNest("tx", 0, big, big - 1));
    const auto r = decoded(msg);
    EXPECT_EQ(r.errors, big);
    EXPECT_EQ(r.recovers, big - 1);
}

TEST(DevlinkHealthMessage, LastAttributeWithoutPaddingIsAccepted)
{
    Attrs nest;
    nest.u8(DEVLINK_ATTR_HEALTH_REPORTER_STATE, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, 0)
        .raw(DEVLINK_ATTR_HEALTH_REPORTER_NAME, "tx", 3, false);
    auto msg = deviceHandle().raw(DEVLINK_ATTR_HEALTH_REPORTER, nest.bytes.data(),
                                  nest.bytes.size(), false);
    EXPECT_EQ(decoded(msg).name, "tx");
}

TEST(DevlinkHealthMessage, NoReporterNestIsNotAHealthMessage)
{
    uint16_t port_type = DEVLINK_PORT_TYPE_ETH;
    auto port_new = deviceHandle()
                        .u32(DEVLINK_ATTR_PORT_INDEX, 1)
                        .raw(DEVLINK_ATTR_PORT_TYPE, &port_type, sizeof port_type);
    EXPECT_EQ(decodeReporterMessage(port_new.bytes), std::nullopt);
    EXPECT_EQ(decodeReporterMessage({}), std::nullopt);
}

TEST(DevlinkHealthMessage, TruncatedAttributesAreRejected)
{
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("rx", 0, 0, 0));
    auto cut = msg.bytes;
    cut.resize(cut.size() - 3); // the nest now claims more than is there
    EXPECT_NE(messageErrorOf(cut).find("past the end"), std::string::npos);

    auto trailing = msg.bytes;
    trailing.push_back(0);
    trailing.push_back(0); // two bytes: not even a header
    EXPECT_NE(messageErrorOf(trailing).find("truncated header"), std::string::npos);
}

TEST(DevlinkHealthMessage, NlaLenPastTheEndIsRejected)
{
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("rx", 0, 0, 0));
    const uint16_t huge = 0xfff0;
    std::memcpy(msg.bytes.data(), &huge, sizeof huge); // first attribute: the bus name
    const auto what = messageErrorOf(msg.bytes);
    EXPECT_NE(what.find("nla_len 65520 past the end"), std::string::npos) << what;
    EXPECT_NE(what.find("offset 0"), std::string::npos) << what;
}

TEST(DevlinkHealthMessage, NlaLenShorterThanHeaderIsRejected)
{
    auto msg = deviceHandle();
    const uint16_t tiny = 2;
    std::memcpy(msg.bytes.data(), &tiny, sizeof tiny);
    EXPECT_NE(messageErrorOf(msg.bytes).find("shorter than its header"), std::string::npos);
}

TEST(DevlinkHealthMessage, NestedLengthErrorsAreFound)
{
    Attrs nest = reporterNest("rx", 0, 0, 0);
    const uint16_t huge = 0x0100;
    std::memcpy(nest.bytes.data(), &huge, sizeof huge); // the name inside the nest
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, nest);
    EXPECT_NE(messageErrorOf(msg.bytes).find("past the end"), std::string::npos);
}

TEST(DevlinkHealthMessage, WrongIntegerLengthsAreRejected)
{
    Attrs nest;
    nest.str(DEVLINK_ATTR_HEALTH_REPORTER_NAME, "tx")
        .u8(DEVLINK_ATTR_HEALTH_REPORTER_STATE, 0)
        .u32(DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 5) // a u64 sent as 4 bytes
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, 0);
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, nest);
    const auto what = messageErrorOf(msg.bytes);
    EXPECT_NE(what.find("ERR_COUNT"), std::string::npos) << what;
    EXPECT_NE(what.find("4 bytes, want 8"), std::string::npos) << what;

    auto port = deviceHandle()
                    .u64(DEVLINK_ATTR_PORT_INDEX, 1)
                    .nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("tx", 0, 0, 0));
    EXPECT_NE(messageErrorOf(port.bytes).find("PORT_INDEX"), std::string::npos);

    Attrs wide_state;
    wide_state.str(DEVLINK_ATTR_HEALTH_REPORTER_NAME, "tx")
        .u32(DEVLINK_ATTR_HEALTH_REPORTER_STATE, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, 0);
    auto state = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, wide_state);
    EXPECT_NE(messageErrorOf(state.bytes).find("STATE"), std::string::npos);
}

TEST(DevlinkHealthMessage, MissingNamesAreRejected)
{
    Attrs no_bus;
    no_bus.str(DEVLINK_ATTR_DEV_NAME, "0000:08:00.0")
        .nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("fw", 0, 0, 0));
    EXPECT_NE(messageErrorOf(no_bus.bytes).find("BUS_NAME"), std::string::npos);

    Attrs no_dev;
    no_dev.str(DEVLINK_ATTR_BUS_NAME, "pci")
        .nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("fw", 0, 0, 0));
    EXPECT_NE(messageErrorOf(no_dev.bytes).find("DEV_NAME"), std::string::npos);

    Attrs nameless;
    nameless.u8(DEVLINK_ATTR_HEALTH_REPORTER_STATE, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, 0);
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, nameless);
    EXPECT_NE(messageErrorOf(msg.bytes).find("REPORTER_NAME"), std::string::npos);

    auto empty = deviceHandle("").nest(DEVLINK_ATTR_HEALTH_REPORTER, reporterNest("fw", 0, 0, 0));
    EXPECT_NE(messageErrorOf(empty.bytes).find("empty"), std::string::npos);
}

TEST(DevlinkHealthMessage, MissingStateOrCountersAreRejected)
{
    Attrs no_state;
    no_state.str(DEVLINK_ATTR_HEALTH_REPORTER_NAME, "fw")
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, 0);
    auto msg = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, no_state);
    EXPECT_NE(messageErrorOf(msg.bytes).find("no STATE"), std::string::npos);

    Attrs no_recover;
    no_recover.str(DEVLINK_ATTR_HEALTH_REPORTER_NAME, "fw")
        .u8(DEVLINK_ATTR_HEALTH_REPORTER_STATE, 0)
        .u64(DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 0);
    auto msg2 = deviceHandle().nest(DEVLINK_ATTR_HEALTH_REPORTER, no_recover);
    EXPECT_NE(messageErrorOf(msg2.bytes).find("no RECOVER_COUNT"), std::string::npos);
}

} // namespace
