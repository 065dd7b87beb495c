// nicctl against nicd on a private bus, as an SRE uses it: the counters of a device and their
// rates, plain errors, the log level, the last reload, the configuration in effect, and
// slurm-check's dry run where Slurm cannot be asked. (The bus interface itself:
// dbus_api_test.cpp.)
#include "support/bus_fixture.hpp"
#include "support/process.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {
using NicctlOnBus = test::NicdOnBusTest;
namespace fs = std::filesystem;
} // namespace

// The rough edges an SRE met: a device without a port printed nothing; a device that is not there
// gave a raw D-Bus error; --json only before the subcommand; no hint when there is no bus at all.
TEST_F(NicctlOnBus, NicctlCountersOfADeviceListEachPortAndMistakesAreSaidPlainly)
{
    ASSERT_TRUE(test::waitFor(
        [&] {
            return nicctl({"counters", "mlx5_0/1"}).second.find("counters.symbol_error") !=
                   std::string::npos;
        },
        10s));
    auto [rc, out] = nicctl({"counters", "mlx5_0"});
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("mlx5_0/1:\n"), std::string::npos) << out;
    EXPECT_NE(out.find("counters.symbol_error "), std::string::npos) << out;
    auto [jrc, json] = nicctl({"counters", "mlx5_0", "--json"});
    ASSERT_EQ(jrc, 0) << json;
    auto j = nlohmann::json::parse(json, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << json;
    EXPECT_TRUE(j["ports"]["1"].contains("counters.symbol_error")) << json;
    EXPECT_TRUE(j.contains("device")) << json;

    auto [nrc, none] = nicctl({"counters", "nosuch"});
    EXPECT_EQ(nrc, 3);
    EXPECT_NE(none.find("nicctl: no device nosuch (nicctl status lists them)"), std::string::npos)
        << none;
    EXPECT_EQ(none.find("org.freedesktop"), std::string::npos) << none;
    auto [prc, port] = nicctl({"counters", "mlx5_0/7"});
    EXPECT_EQ(prc, 3);
    EXPECT_NE(port.find("nicctl: mlx5_0 has no port 7 (its ports: 1)"), std::string::npos) << port;

    auto [src, status] = nicctl({"status", "--json"});
    EXPECT_LE(src, 2) << status;
    EXPECT_FALSE(nlohmann::json::parse(status, nullptr, false).is_discarded()) << status;

    // --rate: two readings a cycle or more apart; what grew, per second.
    auto [rrc, rates] = nicctl({"counters", "--rate", "--interval", "1", "mlx5_0/1"});
    EXPECT_EQ(rrc, 0) << rates;
    EXPECT_EQ(rates.rfind("per second over ", 0), 0U) << rates;
    EXPECT_NE(rates.find("did not change)"), std::string::npos) << rates;
    auto [jrrc, jrates] = nicctl({"counters", "--rate", "--interval", "1", "mlx5_0", "--json"});
    auto jr = nlohmann::json::parse(jrates, nullptr, false);
    ASSERT_FALSE(jr.is_discarded()) << jrates;
    EXPECT_GE(jr["seconds"].get<double>(), 1.0) << jrates;
    EXPECT_TRUE(jr["ports"].contains("1")) << jrates;

    // (LeakSanitizer off: sdbus-c++ leaks the sd_bus of a connection that failed.)
    std::string nobus;
    EXPECT_EQ(test::run({"env", "ASAN_OPTIONS=detect_leaks=0", NICCTL_BIN, "--bus",
                         "unix:path=" + (dir_ / "no.socket").string(), "status"},
                        nobus),
              3);
    EXPECT_NE(nobus.find("is nicd running?"), std::string::npos) << nobus;
}

// slurm-check --dry-run where Slurm cannot be asked (its controller does not answer): it still says
// what nicd's verdict would do, as for a node no one has drained, and changes nothing.
TEST_F(NicctlOnBus, SlurmCheckDryRunWorksWithoutAController)
{
    ASSERT_TRUE(test::waitFor([&] { return nicctl({"status"}).first == 0; }, 15s))
        << nicctl({"status"}).second;
    std::ofstream(dir_ / "slurm-check.conf")
        << "StateFile=" << (dir_ / "slurm.state").string() << "\n";
    // A controller that does not answer (port 1): scontrol fails at once (without a slurm.conf
    // it retries for a minute).
    std::ofstream(dir_ / "slurm.conf") << "ClusterName=test\nSlurmctldHost=localhost\n"
                                          "SlurmctldPort=1\nMessageTimeout=2\n"
                                          "NodeName=gpu01 CPUs=1 State=UNKNOWN\n"
                                          "PartitionName=p Nodes=gpu01 Default=YES\n";
    std::string out;
    int rc = test::run({"env", "SLURM_CONF=" + (dir_ / "slurm.conf").string(), NICCTL_BIN, "--bus",
                        bus_->address(), "slurm-check", "--dry-run", "--node", "gpu01", "--config",
                        (dir_ / "slurm-check.conf").string()},
                       out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("dry run: deciding as if the node had no drain reason"), std::string::npos)
        << out;
    EXPECT_NE(out.find("gpu01: "), std::string::npos) << out;
    EXPECT_FALSE(fs::exists(dir_ / "slurm.state")) << "a dry run writes no state";
}

// What an SRE looks for: the log level, changed at run time by root only; and whether the last
// reload of the configuration worked.
TEST_F(NicctlOnBus, RootSetsTheLogLevelAndStatusSaysHowTheLastReloadWent)
{
    auto [rc, level] = nicctl({"log-level", "debug"});
    ASSERT_EQ(rc, 0) << level;
    EXPECT_EQ(level, "debug\n");
    EXPECT_EQ(property("/io/nicd/Nicd1", "io.nicd.Nicd1.Manager", "LogLevel"), "s \"debug\"\n");
    EXPECT_EQ(nicctl({"log-level"}, true).second, "debug\n") << "anyone may read it";
    auto [nrc, refused] = nicctl({"log-level", "error"}, true);
    EXPECT_EQ(nrc, 3) << refused;
    EXPECT_NE(refused.find("AccessDenied"), std::string::npos) << refused;
    auto [brc, bad] = busctl({"set-property", "io.nicd.Nicd1", "/io/nicd/Nicd1",
                              "io.nicd.Nicd1.Manager", "LogLevel", "s", "loud"});
    EXPECT_NE(brc, 0);
    EXPECT_NE(bad.find("expected trace, debug, info, warn or error"), std::string::npos) << bad;
    EXPECT_EQ(nicctl({"log-level"}).second, "debug\n") << "a refused value changes nothing";
    EXPECT_NE(log().find("log level debug (was "), std::string::npos) << log();

    EXPECT_EQ(nicctl({"status"}).second.find("Last reload"), std::string::npos);
    writeConfig(extraConfig() + "[daemon]\nNoSuchKey=1\n");
    auto reload = [&] {
        return busctl(
                   {"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", "io.nicd.Nicd1.Manager", "Reload"})
            .first;
    };
    ASSERT_EQ(reload(), 0);
    auto status = nicctl({"status"}).second;
    EXPECT_TRUE(std::regex_search(
        status, std::regex(R"(\nLast reload: 20[0-9-]+T[0-9:]+Z, failed: .*NoSuchKey)")))
        << status;
    auto [jrc, json] = nicctl({"status", "--json"});
    auto j = nlohmann::json::parse(json, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << json;
    EXPECT_EQ(j["last_reload"]["result"].get<std::string>().rfind("failed: ", 0), 0U) << json;
    writeConfig(extraConfig());
    ASSERT_EQ(reload(), 0);
    EXPECT_NE(nicctl({"status"}).second.find("Z, ok\n"), std::string::npos);
}

// nicctl config: the configuration in effect, what the file set with its line, the rest default.
TEST_F(NicctlOnBus, NicctlConfigShowsEachValueWithItsSource)
{
    auto [rc, out] = nicctl({"config"});
    ASSERT_EQ(rc, 0) << out;
    EXPECT_EQ(out.rfind("[daemon]\n", 0), 0U) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(\nEventRingSize=1024 +# default\n)"))) << out;
    EXPECT_TRUE(
        std::regex_search(out, std::regex("\nPollIntervalMs=200 +# " + conf_.string() + ":2\n")))
        << out;
    auto [jrc, json] = nicctl({"config", "--json"}, true);
    ASSERT_EQ(jrc, 0) << "anyone may read it: " << json;
    auto j = nlohmann::json::parse(json, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << json;
    EXPECT_EQ(j[0]["section"], "daemon");
}
