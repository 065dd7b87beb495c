// devlink health: the `devlink -j health show` parser on the reference's example, on real
// captures (tests/data/devlink/SOURCES.md) and on malformed text; pciAddressOf.
#include "prefailure/devlink_health.hpp"
#include "prefailure/devlink_netlink.hpp"
#include "support/decode_error.hpp"

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

namespace {

std::string jsonErrorOf(const std::string& text)
{
    return nicd::test::decodeErrorOf([&] { parseDevlinkHealthJson(text); });
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

} // namespace
