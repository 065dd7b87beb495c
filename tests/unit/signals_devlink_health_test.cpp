// devlink health: the attribute decoder on hand-built messages, the `devlink -j health show`
// parser on the reference's example, on real captures (tests/data/devlink/SOURCES.md) and on
// malformed text, and the netlink edge against the running kernel: a dump that never hangs and,
// where netdevsim is available, live reporters whose error shows in the dump and as a
// notification.
#include "signals/devlink_health.hpp"
#include "signals/devlink_netlink.hpp"

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
using nicd::signals::DecodeError;
using nicd::signals::decodeReporterMessage;
using nicd::signals::DevlinkMonitor;
using nicd::signals::DevlinkNetlink;
using nicd::signals::parseDevlinkHealthJson;
using nicd::signals::pciAddressOf;

namespace {

// ---- a tiny netlink attribute builder ----

class Attrs {
public:
    Attrs& raw(uint16_t type, const void* data, size_t len, bool pad = true)
    {
        const auto total = static_cast<uint16_t>(NLA_HDRLEN + len);
        const size_t at = bytes.size();
        bytes.resize(at + NLA_HDRLEN);
        std::memcpy(bytes.data() + at, &total, sizeof total);
        std::memcpy(bytes.data() + at + sizeof total, &type, sizeof type);
        const auto* p = static_cast<const uint8_t*>(data);
        bytes.insert(bytes.end(), p, p + len);
        if (pad)
            bytes.resize(NLA_ALIGN(bytes.size()));
        return *this;
    }
    Attrs& str(uint16_t type, const std::string& s) { return raw(type, s.c_str(), s.size() + 1); }
    Attrs& u8(uint16_t type, uint8_t v) { return raw(type, &v, sizeof v); }
    Attrs& u32(uint16_t type, uint32_t v) { return raw(type, &v, sizeof v); }
    Attrs& u64(uint16_t type, uint64_t v) { return raw(type, &v, sizeof v); }
    Attrs& nest(uint16_t type, const Attrs& inner)
    {
        return raw(type, inner.bytes.data(), inner.bytes.size());
    }

    std::vector<uint8_t> bytes;
};

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

template <class F> std::string decodeErrorOf(F&& f)
{
    try {
        f();
    } catch (const DecodeError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no DecodeError";
    return {};
}

std::string messageErrorOf(const std::vector<uint8_t>& bytes)
{
    return decodeErrorOf([&] { decodeReporterMessage(bytes); });
}

std::string jsonErrorOf(const std::string& text)
{
    return decodeErrorOf([&] { parseDevlinkHealthJson(text); });
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

// ---- parseDevlinkHealthJson ----

// The example of /work/shared/reference/pre-failure.md §4.4 (derived from iproute2's printer).
constexpr const char* kReferenceExample = R"({"health":{
  "pci/0000:08:00.0":[
    {"reporter":"fw","state":"healthy","error":0,"recover":0,"auto_dump":true},
    {"reporter":"fw_fatal","state":"healthy","error":0,"recover":0,"grace_period":60000,"auto_recover":true,"auto_dump":true},
    {"reporter":"vnic","state":"healthy","error":0,"recover":0}],
  "pci/0000:08:00.0/65535":[
    {"reporter":"tx","state":"healthy","error":0,"recover":0,"grace_period":500,"auto_recover":true,"auto_dump":true},
    {"reporter":"rx","state":"error","error":3,"recover":2,"last_dump_date":"2026-01-12","last_dump_time":"10:03:55","grace_period":500,"auto_recover":true,"auto_dump":true}]}})";

TEST(DevlinkHealthJson, ReferenceExample)
{
    const auto got = parseDevlinkHealthJson(kReferenceExample);
    const std::vector<HealthReporter> want{
        {"pci/0000:08:00.0", "fw", true, "healthy", 0, 0},
        {"pci/0000:08:00.0", "fw_fatal", true, "healthy", 0, 0},
        {"pci/0000:08:00.0", "vnic", true, "healthy", 0, 0},
        {"pci/0000:08:00.0/65535", "tx", true, "healthy", 0, 0},
        {"pci/0000:08:00.0/65535", "rx", false, "error", 3, 2},
    };
    EXPECT_EQ(got, want);
}

TEST(DevlinkHealthJson, PrettyPrintedOutputGivesTheSameReporters)
{
    const std::string pretty = R"({
    "health": {
        "pci/0000:08:00.0": [ {
                "reporter": "fw",
                "state": "healthy",
                "error": 0,
                "recover": 0,
                "auto_dump": true
            },{
                "reporter": "fw_fatal",
                "state": "healthy",
                "error": 0,
                "recover": 0,
                "grace_period": 60000,
                "auto_recover": true,
                "auto_dump": true
            },{
                "reporter": "vnic",
                "state": "healthy",
                "error": 0,
                "recover": 0
            } ],
        "pci/0000:08:00.0/65535": [ {
                "reporter": "tx",
                "state": "healthy",
                "error": 0,
                "recover": 0,
                "grace_period": 500,
                "auto_recover": true,
                "auto_dump": true
            },{
                "reporter": "rx",
                "state": "error",
                "error": 3,
                "recover": 2,
                "last_dump_date": "2026-01-12",
                "last_dump_time": "10:03:55",
                "grace_period": 500,
                "auto_recover": true,
                "auto_dump": true
            } ]
    }
}
)";
    EXPECT_EQ(parseDevlinkHealthJson(pretty), parseDevlinkHealthJson(kReferenceExample));
}

TEST(DevlinkHealthJson, KeepsTheOrderIproute2Printed)
{
    const auto got = parseDevlinkHealthJson(
        R"({"health":{"pci/0000:09:00.0":[{"reporter":"fw","state":"healthy","error":0,"recover":0}],)"
        R"("pci/0000:08:00.0":[{"reporter":"vnic","state":"healthy","error":0,"recover":0},)"
        R"({"reporter":"fw","state":"healthy","error":0,"recover":0}]}})");
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].handle, "pci/0000:09:00.0");
    EXPECT_EQ(got[1].name, "vnic");
    EXPECT_EQ(got[2].name, "fw");
}

TEST(DevlinkHealthJson, UnlimitedPeriodsAndCounters)
{
    const auto got = parseDevlinkHealthJson(
        R"({"health":{"pci/0000:08:00.1/65535":[{"reporter":"tx","state":"healthy","error":"unlimited","recover":7,"grace_period":"unlimited","burst_period":"unlimited","auto_recover":true,"auto_dump":true}]}})");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].errors, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(got[0].recovers, 7u);
}

TEST(DevlinkHealthJson, NoDevicesAndUnknownState)
{
    EXPECT_TRUE(parseDevlinkHealthJson(R"({"health":{}})").empty());
    const auto got = parseDevlinkHealthJson(
        R"({"health":{"pci/0000:08:00.0":[{"reporter":"fw","state":"<unknown state>","error":0,"recover":0}]}})");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_FALSE(got[0].healthy);
    EXPECT_EQ(got[0].state, "<unknown state>");
}

TEST(DevlinkHealthJson, MalformedTextThrowsNamingTheKey)
{
    const std::string rx = R"("pci/0000:08:00.0/65535")";
    EXPECT_NE(jsonErrorOf("not json").find("document"), std::string::npos);
    EXPECT_NE(jsonErrorOf("[]").find("top level"), std::string::npos);
    EXPECT_NE(jsonErrorOf(R"({"port":{}})").find("\"health\""), std::string::npos);
    EXPECT_NE(jsonErrorOf(R"({"health":[]})").find("\"health\""), std::string::npos);
    EXPECT_NE(
        jsonErrorOf(R"({"health":{"pci/0000:08:00.0/65535":{}}})").find(rx + ": not an array"),
        std::string::npos);
    const std::string missing_name = jsonErrorOf(
        R"({"health":{"pci/0000:08:00.0/65535":[{"state":"healthy","error":0,"recover":0}]}})");
    EXPECT_NE(missing_name.find(rx + "[0]"), std::string::npos) << missing_name;
    EXPECT_NE(missing_name.find("\"reporter\""), std::string::npos) << missing_name;
    EXPECT_NE(
        jsonErrorOf(
            R"({"health":{"pci/0000:08:00.0/65535":[{"reporter":"","state":"healthy","error":0,"recover":0}]}})")
            .find("empty"),
        std::string::npos);
    EXPECT_NE(
        jsonErrorOf(
            R"({"health":{"pci/0000:08:00.0/65535":[{"reporter":"rx","error":0,"recover":0}]}})")
            .find("\"state\""),
        std::string::npos);
    EXPECT_NE(jsonErrorOf(R"({"health":{"pci/0000:08:00.0/65535":[7]}})").find("not an object"),
              std::string::npos);
}

TEST(DevlinkHealthJson, CountersMustBeUnsignedNumbers)
{
    for (const char* bad : {R"("3")", "-1", "1.5", "true", "null", "18446744073709551616"}) {
        const std::string text =
            std::string(
                R"({"health":{"pci/0000:08:00.0":[{"reporter":"fw","state":"healthy","error":)") +
            bad + R"(,"recover":0}]}})";
        const auto what = jsonErrorOf(text);
        EXPECT_NE(what.find(R"("pci/0000:08:00.0"[0]: "error")"), std::string::npos)
            << bad << ": " << what;
    }
    EXPECT_NE(
        jsonErrorOf(
            R"({"health":{"pci/0000:08:00.0":[{"reporter":"fw","state":"healthy","error":0}]}})")
            .find("\"recover\""),
        std::string::npos);
}

TEST(DevlinkHealthJson, DuplicateHandleIsRefused)
{
    const auto what = jsonErrorOf(
        R"({"health":{"pci/0000:08:00.0":[],"pci/0000:08:00.0":[{"reporter":"fw","state":"healthy","error":0,"recover":0}]}})");
    EXPECT_NE(what.find("appears twice"), std::string::npos) << what;
    EXPECT_NE(jsonErrorOf(R"({"health":{"a/b":[]},"health":{"c/d":[]}})").find("appears twice"),
              std::string::npos);
    // The same key at another depth is no handle.
    EXPECT_EQ(
        parseDevlinkHealthJson(
            R"({"health":{"a/b":[{"reporter":"x","state":"healthy","error":0,"recover":0}]},"other":{"a/b":1}})")
            .size(),
        1u);
}

// ---- real captures (tests/data/devlink) ----

std::string dataFile(const std::string& name)
{
    std::ifstream in(std::string(NICD_SOURCE_DIR) + "/tests/data/devlink/" + name);
    EXPECT_TRUE(in.good()) << name;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Reads `devlink health show` text: "<handle>:" lines, "reporter <name>" and "state <s> error <n>
// recover <n> ..." lines.
std::vector<HealthReporter> readHealthText(const std::string& text)
{
    std::vector<HealthReporter> out;
    std::istringstream lines(text);
    std::string line, handle;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (first.empty() || first == "$")
            continue;
        if (line[0] != ' ') {
            handle = first.substr(0, first.size() - 1);
        } else if (first == "reporter") {
            out.push_back({handle, "", true, "", 0, 0});
            words >> out.back().name;
        } else if (first == "state" && !out.empty()) {
            std::string key;
            words >> out.back().state >> key >> out.back().errors >> key >> out.back().recovers;
            out.back().healthy = out.back().state == "healthy";
        }
    }
    return out;
}

struct Capture {
    const char* base;
    size_t reporters;
};

TEST(DevlinkHealthCaptures, TranscriptionsMatchTheTextCaptures)
{
    for (const Capture c : {Capture{"mlx5-pfs-vnic-ports", 12}, Capture{"mlx5-port-reporters", 4},
                            Capture{"mlx5-aux-eth-port", 2}, Capture{"mlxsw-fw-fatal-error", 1}}) {
        const auto from_text = readHealthText(dataFile(std::string(c.base) + ".txt"));
        const auto from_json = parseDevlinkHealthJson(dataFile(std::string(c.base) + ".json"));
        EXPECT_EQ(from_json.size(), c.reporters) << c.base;
        EXPECT_EQ(from_json, from_text) << c.base;
    }
}

TEST(DevlinkHealthCaptures, Mlx5TwoPfsWithVnicPorts)
{
    const auto r = parseDevlinkHealthJson(dataFile("mlx5-pfs-vnic-ports.json"));
    ASSERT_EQ(r.size(), 12u);
    EXPECT_EQ(r[1], (HealthReporter{"pci/0000:08:00.0", "fw_fatal", true, "healthy", 0, 0}));
    EXPECT_EQ(r[3], (HealthReporter{"pci/0000:08:00.0/32768", "vnic", true, "healthy", 0, 0}));
    EXPECT_EQ(r[11].handle, "pci/0000:08:00.1/98306");
    EXPECT_EQ(pciAddressOf(r[3].handle), "0000:08:00.0");
    EXPECT_EQ(pciAddressOf(r[11].handle), "0000:08:00.1");
    for (const auto& x : r)
        EXPECT_TRUE(x.healthy) << x.handle << " " << x.name;
}

TEST(DevlinkHealthCaptures, Mlx5PrettyPortReporter)
{
    const auto r = parseDevlinkHealthJson(dataFile("mlx5-port-rx-pretty.json"));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0], (HealthReporter{"pci/0000:00:0b.0/1", "rx", true, "healthy", 0, 0}));
    EXPECT_EQ(pciAddressOf(r[0].handle), "0000:00:0b.0");
}

TEST(DevlinkHealthCaptures, Mlx5AuxiliaryPortIsNotPci)
{
    const auto r = parseDevlinkHealthJson(dataFile("mlx5-aux-eth-port.json"));
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].handle, "auxiliary/mlx5_core.eth.1/131071");
    EXPECT_EQ(r[0].name, "tx");
    EXPECT_EQ(r[1].name, "rx");
    EXPECT_EQ(pciAddressOf(r[0].handle), "");
}

TEST(DevlinkHealthCaptures, MlxswFwFatalInError)
{
    const auto r = parseDevlinkHealthJson(dataFile("mlxsw-fw-fatal-error.json"));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0], (HealthReporter{"pci/0000:03:00.0", "fw_fatal", false, "error", 1, 0}));
}

TEST(DevlinkHealth, PciAddressOf)
{
    EXPECT_EQ(pciAddressOf("pci/0000:08:00.0"), "0000:08:00.0");
    EXPECT_EQ(pciAddressOf("pci/0000:08:00.0/65535"), "0000:08:00.0");
    EXPECT_EQ(pciAddressOf("netdevsim/netdevsim1"), "");
    EXPECT_EQ(pciAddressOf("pcie/0000:08:00.0"), "");
    EXPECT_EQ(pciAddressOf("pci"), "");
    EXPECT_EQ(pciAddressOf(""), "");
}

// ---- the running kernel ----

// Runs `fn` on a detached thread; nullopt when it has not returned within `limit` (the test then
// fails instead of hanging; the thread is left behind).
template <class T, class F> std::optional<T> within(std::chrono::seconds limit, F fn)
{
    std::packaged_task<T()> task(std::move(fn));
    auto result = task.get_future();
    std::thread(std::move(task)).detach();
    if (result.wait_for(limit) != std::future_status::ready)
        return std::nullopt;
    return result.get();
}

using DumpReply = nicd::signals::Reply<std::vector<HealthReporter>>;

TEST(DevlinkNetlinkLive, DumpReturnsPromptlyOkOrUnsupported)
{
    auto reply = within<DumpReply>(std::chrono::seconds(10), [] {
        return DevlinkNetlink(std::chrono::milliseconds(1000)).dumpReporters();
    });
    ASSERT_TRUE(reply.has_value()) << "dumpReporters did not return within 10 s";
    EXPECT_NE(reply->status, DumpReply::Status::Failed) << reply->message;
    if (reply->status == DumpReply::Status::Unsupported)
        EXPECT_FALSE(reply->message.empty());
    else
        EXPECT_TRUE(reply->message.empty()) << reply->message;
}

TEST(DevlinkNetlinkLive, MonitorOpensOrSaysWhy)
{
    DevlinkMonitor monitor;
    if (!monitor.open()) {
        EXPECT_FALSE(monitor.error().empty());
        EXPECT_EQ(monitor.fd(), -1);
        EXPECT_TRUE(monitor.drain().empty());
        return;
    }
    EXPECT_GE(monitor.fd(), 0);
    const auto start = std::chrono::steady_clock::now();
    monitor.drain(); // nothing may be pending: it must not wait
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

// ---- netdevsim: real reporters "empty" and "dummy" (drivers/net/netdevsim/health.c) ----

const std::filesystem::path kNetdevsimBus = "/sys/bus/netdevsim";
const std::filesystem::path kNetdevsimDebugfs = "/sys/kernel/debug/netdevsim";

bool writeText(const std::filesystem::path& file, const std::string& text)
{
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

bool debugfsMounted()
{
    std::ifstream mounts("/proc/mounts");
    std::string device, point, type, rest;
    while (mounts >> device >> point >> type && std::getline(mounts, rest))
        if (type == "debugfs" && point == "/sys/kernel/debug")
            return true;
    return false;
}

// Why netdevsim cannot be used here; empty when it can.
std::string netdevsimUnavailable()
{
    if (geteuid() != 0)
        return "not root";
    if (!std::filesystem::exists(kNetdevsimBus / "new_device"))
        (void)std::system("modprobe netdevsim >/dev/null 2>&1");
    if (!std::filesystem::exists(kNetdevsimBus / "new_device"))
        return "netdevsim is not available (no " + (kNetdevsimBus / "new_device").string() + ")";
    if (!debugfsMounted())
        return "debugfs is not mounted on /sys/kernel/debug";
    return {};
}

// One netdevsim device with one port, deleted again at scope exit.
class NetdevsimDevice {
public:
    explicit NetdevsimDevice(unsigned id)
        : id_(id), created_(writeText(kNetdevsimBus / "new_device", std::to_string(id) + " 1"))
    {
    }
    ~NetdevsimDevice()
    {
        if (created_)
            writeText(kNetdevsimBus / "del_device", std::to_string(id_));
    }
    NetdevsimDevice(const NetdevsimDevice&) = delete;
    NetdevsimDevice& operator=(const NetdevsimDevice&) = delete;

    bool created() const { return created_; }
    std::string handle() const { return "netdevsim/netdevsim" + std::to_string(id_); }
    std::filesystem::path health() const
    {
        return kNetdevsimDebugfs / ("netdevsim" + std::to_string(id_)) / "health";
    }

private:
    unsigned id_;
    bool created_;
};

std::optional<HealthReporter> findReporter(const std::vector<HealthReporter>& all,
                                           const std::string& handle, const std::string& name)
{
    for (const auto& r : all)
        if (r.handle == handle && r.name == name)
            return r;
    return std::nullopt;
}

// Dumps until `handle` has reporter `name` (the device registers asynchronously) or 5 s pass.
std::optional<HealthReporter> dumpUntilFound(const std::string& handle, const std::string& name)
{
    DevlinkNetlink nl(std::chrono::milliseconds(2000));
    for (int i = 0; i < 50; ++i) {
        auto reply = nl.dumpReporters();
        EXPECT_TRUE(reply.ok()) << reply.message;
        if (auto r = findReporter(reply.value, handle, name))
            return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return std::nullopt;
}

// Waits up to 5 s for a notification about `name` on `handle` with at least `errors` errors.
std::optional<HealthReporter> awaitNotification(DevlinkMonitor& monitor, const std::string& handle,
                                                const std::string& name, uint64_t errors)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd pfd{monitor.fd(), POLLIN, 0};
        if (::poll(&pfd, 1, 200) <= 0)
            continue;
        for (const auto& r : monitor.drain())
            if (r.handle == handle && r.name == name && r.errors >= errors)
                return r;
        EXPECT_TRUE(monitor.error().empty()) << monitor.error();
    }
    return std::nullopt;
}

TEST(DevlinkNetlinkLive, NetdevsimReporterErrorShowsInDumpAndNotification)
{
    if (auto why = netdevsimUnavailable(); !why.empty())
        GTEST_SKIP() << why;
    NetdevsimDevice dev(4000 + static_cast<unsigned>(getpid() % 4000));
    ASSERT_TRUE(dev.created()) << "writing " << (kNetdevsimBus / "new_device");

    const auto empty = dumpUntilFound(dev.handle(), "empty");
    ASSERT_TRUE(empty.has_value()) << "no reporter 'empty' on " << dev.handle();
    const auto dummy =
        findReporter(DevlinkNetlink(std::chrono::milliseconds(2000)).dumpReporters().value,
                     dev.handle(), "dummy");
    ASSERT_TRUE(dummy.has_value());
    EXPECT_EQ(*dummy, (HealthReporter{dev.handle(), "dummy", true, "healthy", 0, 0}));
    if (!std::filesystem::exists(dev.health() / "break_health"))
        GTEST_SKIP() << "no " << (dev.health() / "break_health") << " in debugfs";

    DevlinkMonitor monitor;
    ASSERT_TRUE(monitor.open()) << monitor.error();
    // With recovery made to fail the report leaves the reporter in error (the write itself then
    // fails, which is expected).
    ASSERT_TRUE(writeText(dev.health() / "fail_recover", "y"));
    writeText(dev.health() / "break_health", "nicd test");

    const auto seen = awaitNotification(monitor, dev.handle(), "dummy", 1);
    ASSERT_TRUE(seen.has_value()) << "no DEVLINK_CMD_HEALTH_REPORTER_RECOVER notification";
    EXPECT_FALSE(seen->healthy);
    EXPECT_EQ(seen->state, "error");
    EXPECT_EQ(seen->errors, 1u);

    const auto after =
        findReporter(DevlinkNetlink(std::chrono::milliseconds(2000)).dumpReporters().value,
                     dev.handle(), "dummy");
    ASSERT_TRUE(after.has_value());
    EXPECT_EQ(*after, (HealthReporter{dev.handle(), "dummy", false, "error", 1, 0}));
}

} // namespace
