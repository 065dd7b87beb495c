// nicd on a real (private) dbus-daemon with the shipped bus policy, met with the tools operators
// use: busctl, dbus-monitor, nicctl, and an unprivileged user through setpriv.
#include "sim.hpp"
#include "support/bus_fixture.hpp"
#include "support/journal_writer.hpp"
#include "support/process.hpp"

#include <nlohmann/json.hpp>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using DbusApiTest = test::NicdOnBusTest;

// Member names (methods, properties, signals) of one interface in introspection XML.
std::set<std::string> membersOf(const std::string& xml, const std::string& iface)
{
    auto start = xml.find("<interface name=\"" + iface + "\"");
    if (start == std::string::npos)
        return {};
    auto end = xml.find("</interface>", start);
    std::string body = xml.substr(start, end - start);
    std::set<std::string> out;
    std::regex member(R"re(<(method|property|signal) name="([^"]+)"(?: type="([^"]+)")?)re");
    for (std::sregex_iterator it(body.begin(), body.end(), member), e; it != e; ++it)
        out.insert((*it)[1].str() + " " + (*it)[2].str() + " " + (*it)[3].str());
    return out;
}

TEST_F(DbusApiTest, BusctlTreeShowsTheWholeNode)
{
    ASSERT_TRUE(test::waitFor(
        [&] {
            return busctl({"tree", "io.nicd.Nicd1"}).second.find("/plugin/mlx5") !=
                   std::string::npos;
        },
        10s));
    auto [rc, tree] = busctl({"tree", "--list", "io.nicd.Nicd1"});
    ASSERT_EQ(rc, 0) << tree;
    for (const char* path :
         {"/io/nicd/Nicd1\n", "/io/nicd/Nicd1/device/mlx5_0\n",
          "/io/nicd/Nicd1/device/mlx5_0/port/1\n", "/io/nicd/Nicd1/device/mlx5_4/port/1\n",
          "/io/nicd/Nicd1/device/mlx5_bond_0/port/1\n", "/io/nicd/Nicd1/device/mlx5_6/port/1\n",
          "/io/nicd/Nicd1/plugin/mlx5\n"})
        EXPECT_NE(tree.find(path), std::string::npos) << path << " missing from\n" << tree;

    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_1", "io.nicd.Nicd1.Device", "PciAddress"),
              "s \"0000:3b:00.0\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_6/port/1", "io.nicd.Nicd1.Port", "State"),
              "s \"DOWN\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_5", "io.nicd.Nicd1.Device", "Role"),
              "s \"compute\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_5", "io.nicd.Nicd1.Device", "Function"),
              "s \"vf\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_4", "io.nicd.Nicd1.Device", "Role"),
              "s \"storage\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_4", "io.nicd.Nicd1.Device", "RoleReason"),
              "s \"no GPU beside it\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_1", "io.nicd.Nicd1.Device", "RoleReason"),
              "s \"shares a PCIe switch with GPU 0000:3b:01.0\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1", "io.nicd.Nicd1.Manager", "NodeHealth"), "s \"healthy\"\n");
}

TEST_F(DbusApiTest, IntrospectionMatchesTheXml)
{
    const std::vector<std::pair<std::string, std::string>> objects{
        {"io.nicd.Nicd1.Manager", "/io/nicd/Nicd1"},
        {"io.nicd.Nicd1.Device", "/io/nicd/Nicd1/device/mlx5_0"},
        {"io.nicd.Nicd1.Port", "/io/nicd/Nicd1/device/mlx5_0/port/1"},
        {"io.nicd.Nicd1.Plugin", "/io/nicd/Nicd1/plugin/mlx5"}};
    ASSERT_TRUE(test::waitFor(
        [&] {
            return busctl({"introspect", "io.nicd.Nicd1", "/io/nicd/Nicd1/plugin/mlx5"}).first == 0;
        },
        10s));
    for (const auto& [iface, path] : objects) {
        auto want =
            membersOf(test::readFile(fs::path(NICD_SOURCE_DIR) / "dbus" / (iface + ".xml")), iface);
        ASSERT_FALSE(want.empty()) << iface;
        auto [rc, xml] = busctl({"introspect", "--xml-interface", "io.nicd.Nicd1", path});
        ASSERT_EQ(rc, 0) << xml;
        EXPECT_EQ(membersOf(xml, iface), want) << iface << " on " << path;
    }
    auto [rc, root] = busctl({"introspect", "--xml-interface", "io.nicd.Nicd1", "/io/nicd/Nicd1"});
    EXPECT_NE(root.find("org.freedesktop.DBus.ObjectManager"), std::string::npos);
}

TEST_F(DbusApiTest, NicctlStatusShowsALinkDownAndExitsFatal)
{
    sim::linkDown(root_, "mlx5_1", 1);
    std::regex down_row(
        R"(mlx5_1 +compute +1 +ens2f0np0 +- +DOWN .*fatal +[a-z_-]+ +[a-z-]+ +check_cable +(port_down|netdev_down[.]ens2f0np0): )");
    ASSERT_TRUE(
        test::waitFor([&] { return std::regex_search(nicctl({"status"}).second, down_row); }, 10s))
        << nicctl({"status"}).second << test::readFile(dir_ / "nicd.log");
    auto [rc, out] = nicctl({"status"});
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("DEVICE"), std::string::npos) << out;
    EXPECT_TRUE(
        std::regex_search(out, std::regex(R"(mlx5_0 +compute +1 +ens1f0np0 +- +ACTIVE .*healthy)")))
        << out;
    EXPECT_NE(out.find("Node: fatal"), std::string::npos) << out;
    EXPECT_EQ(out.find("\033["), std::string::npos) << "no colours when not on a terminal";

    auto [jrc, json] = nicctl({"--json", "status"});
    EXPECT_EQ(jrc, 2);
    auto j = nlohmann::json::parse(json);
    EXPECT_EQ(j["health"], "fatal");
    bool found = false;
    for (const auto& d : j["devices"])
        if (d["device"] == "mlx5_1") {
            found = true;
            EXPECT_EQ(d["ports"][0]["state"], "DOWN");
            EXPECT_EQ(d["ports"][0]["health"], "fatal");
            EXPECT_FALSE(d["ports"][0]["conditions"].empty());
        }
    EXPECT_TRUE(found) << json;

    // Back up: the port recovers, and the exit code says so once nothing else is wrong there.
    sim::linkUp(root_, "mlx5_1", 1);
    EXPECT_TRUE(test::waitFor(
        [&] {
            auto s = nicctl({"--json", "status"}).second;
            auto jj = nlohmann::json::parse(s, nullptr, false);
            if (jj.is_discarded())
                return false;
            for (const auto& d : jj["devices"])
                if (d["device"] == "mlx5_1")
                    return d["ports"][0]["state"] == "ACTIVE";
            return false;
        },
        10s));
}

TEST_F(DbusApiTest, NicctlCountersShowsAPortsAndADevicesCounters)
{
    std::regex pma(R"(\ncounters\.port_rcv_data_bytes +[0-9]+\n)");
    ASSERT_TRUE(test::waitFor(
        [&] {
            return std::regex_search("\n" + nicctl({"counters", "mlx5_0/1"}).second, pma);
        },
        10s))
        << nicctl({"counters", "mlx5_0/1"}).second;
    auto [rc, out] = nicctl({"counters", "mlx5_0/1"});
    EXPECT_EQ(rc, 0);
    EXPECT_NE(out.find("hw_counters.out_of_buffer "), std::string::npos) << out;
    EXPECT_NE(out.find("ethtool.rx_prio3_pause "), std::string::npos) << out;
    // Every statistic is served, also those the textfile leaves out ([textfile] Counters=).
    EXPECT_NE(out.find("ethtool.rx0_packets "), std::string::npos) << out;
    EXPECT_EQ(test::readFile(root_ / "var/lib/prometheus/node-exporter/nicd.prom")
                  .find("stat=\"rx0_packets\""),
              std::string::npos);

    auto [jrc, json] = nicctl({"--json", "counters", "mlx5_0/1"});
    ASSERT_EQ(jrc, 0) << json;
    auto j = nlohmann::json::parse(json);
    EXPECT_TRUE(j.contains("counters.symbol_error")) << json;
    // Each cycle keeps only the statistics nicd uses; a port asked about is read whole: every
    // statistic its netdev prints, on the first call for a device too (mlx5_1 was never asked).
    for (const char* dev : {"mlx5_0", "mlx5_1"}) {
        std::string netdev;
        for (const auto& d : sim::devices(root_))
            if (d.name == dev && !d.netdevs.empty())
                netdev = d.netdevs.front();
        ASSERT_FALSE(netdev.empty()) << dev;
        auto printed = sim::parseEthtool(test::readFile(root_ / "run/nicd-sim/ethtool" / netdev));
        auto [crc, counters] = nicctl({"--json", "counters", std::string(dev) + "/1"});
        ASSERT_EQ(crc, 0) << counters;
        auto served = nlohmann::json::parse(counters);
        size_t ethtool = 0;
        for (const auto& [key, _] : served.items())
            ethtool += key.starts_with("ethtool.");
        EXPECT_EQ(ethtool, printed.size()) << dev << " " << netdev;
        for (const auto& [name, _] : printed)
            EXPECT_TRUE(served.contains("ethtool." + name)) << dev << " " << name;
    }
    // A device's own counters, and clear errors for what does not exist.
    EXPECT_EQ(nicctl({"counters", "mlx5_0"}).first, 0);
    auto [nrc, none] = nicctl({"counters", "mlx5_99/1"});
    EXPECT_EQ(nrc, 3);
    EXPECT_NE(none.find("mlx5_99"), std::string::npos) << none;
    auto [brc, bad] = nicctl({"counters", "mlx5_0/x"});
    EXPECT_NE(brc, 0);
    EXPECT_NE(bad.find("expected DEVICE or DEVICE/PORT"), std::string::npos) << bad;
}

TEST_F(DbusApiTest, EventsAreServedAndSignalledAndAnOperatorCanClear)
{
    auto follow = std::make_unique<test::Process>(
        std::vector<std::string>{NICCTL_BIN, "--bus", bus_->address(), "events", "--follow"},
        std::map<std::string, std::string>{}, dir_ / "follow.log");
    std::this_thread::sleep_for(500ms);
    sim::linkDown(root_, "mlx5_2", 1);
    ASSERT_TRUE(test::waitFor(
        [&] { return nicctl({"events"}).second.find("raised mlx5_2/1") != std::string::npos; },
        10s))
        << nicctl({"events"}).second;
    // The follower saw it live, through the Event signal.
    EXPECT_TRUE(test::waitFor(
        [&] {
            return test::readFile(dir_ / "follow.log").find("raised mlx5_2/1") != std::string::npos;
        },
        5s))
        << test::readFile(dir_ / "follow.log");
    // The signal carries the condition's action: the link's, check the cable.
    EXPECT_TRUE(std::regex_search(test::readFile(dir_ / "follow.log"),
                                  std::regex(R"(raised mlx5_2/1 \S+: .* -> check_cable)")))
        << test::readFile(dir_ / "follow.log");

    auto [jrc, json] = nicctl({"--json", "events"});
    ASSERT_EQ(jrc, 0) << json;
    auto events = nlohmann::json::parse(json);
    std::string code;
    uint64_t last_seq = 0;
    for (const auto& e : events) {
        EXPECT_GT(e["seq"].get<uint64_t>(), last_seq) << "sequence numbers increase";
        last_seq = e["seq"];
        if (e["device"] == "mlx5_2" && e["kind"] == "raised") {
            code = e["code"];
            EXPECT_EQ(e["action"], "check_cable") << "GetEvents carries the action";
        } else if (e["kind"] != "raised") {
            EXPECT_EQ(e["action"], "none") << e.dump();
        }
    }
    ASSERT_FALSE(code.empty()) << json;
    // --since: only what is newer (the link-down may still be raising counter conditions).
    auto [src, since] = nicctl({"--json", "events", "--since", std::to_string(last_seq - 1)});
    auto newer = nlohmann::json::parse(since);
    ASSERT_FALSE(newer.empty()) << since;
    EXPECT_EQ(newer[0]["seq"].get<uint64_t>(), last_seq) << since;
    for (const auto& e : newer)
        EXPECT_GE(e["seq"].get<uint64_t>(), last_seq) << since;

    // Root clears it; the clear is an event of its own.
    auto [crc, cleared] = nicctl({"clear", "mlx5_2", code});
    EXPECT_EQ(crc, 0) << cleared;
    EXPECT_NE(cleared.find("cleared 1"), std::string::npos) << cleared;
    EXPECT_NE(nicctl({"events", "--since", std::to_string(last_seq)}).second.find("cleared mlx5_2"),
              std::string::npos);
    // A condition that is not active: a clear error naming it, exit 3.
    auto [nrc, none] = nicctl({"clear", "mlx5_0", "no.such.code"});
    EXPECT_EQ(nrc, 3);
    EXPECT_NE(none.find("io.nicd.Nicd1.Error.NotFound"), std::string::npos) << none;
    EXPECT_NE(none.find("no.such.code"), std::string::npos) << none;
}

// A firmware timeout in the kernel log has no natural recovery: it holds until an operator who
// fixed the NIC clears it, and the clear survives a restart (the line is not read again).
TEST_F(DbusApiTest, AKernelConditionHoldsUntilClearedAndStaysCleared)
{
    std::string error;
    ASSERT_TRUE(test::writeJournal(
        root_, "fw",
        {test::kernelEntry(
            "mlx5_core 0000:3b:00.0: wait_func:1132:(pid 4242): QUERY_VPORT_COUNTER(0x770) "
            "timeout. Will cause a leak of a command resource",
            1700000000000000ULL, "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d")},
        error))
        << error;
    auto health = [&] {
        return busctl({"get-property", "io.nicd.Nicd1", "/io/nicd/Nicd1/device/mlx5_1",
                       "io.nicd.Nicd1.Device", "Health"})
            .second;
    };
    ASSERT_TRUE(test::waitFor([&] { return health() == "s \"fatal\"\n"; }, 10s))
        << health() << test::readFile(dir_ / "nicd.log");
    std::this_thread::sleep_for(1s); // cycles go by: it holds
    EXPECT_EQ(health(), "s \"fatal\"\n");

    auto [rc, out] = nicctl({"clear", "mlx5_1", "kernel.mlx5.cmd_timeout"});
    ASSERT_EQ(rc, 0) << out;
    EXPECT_TRUE(test::waitFor([&] { return health() == "s \"healthy\"\n"; }, 5s)) << health();

    // Restart: the condition does not come back from the state file or the journal.
    nicd_->signal(SIGTERM);
    ASSERT_EQ(nicd_->wait(10s), 0);
    nicd_ = std::make_unique<test::Process>(
        std::vector<std::string>{NICD_BIN, "--root", root_.string(), "--config",
                                 (dir_ / "nicd.conf").string(), "--plugin-directory",
                                 NICD_BUILD_PLUGIN_DIR, "--bus", bus_->address()},
        std::map<std::string, std::string>{}, dir_ / "nicd2.log");
    ASSERT_TRUE(test::waitFor([&] { return health() == "s \"healthy\"\n"; }, 15s))
        << health() << test::readFile(dir_ / "nicd2.log");
    std::this_thread::sleep_for(1s);
    EXPECT_EQ(health(), "s \"healthy\"\n") << test::readFile(dir_ / "nicd2.log");
}

TEST_F(DbusApiTest, ChangesArePropertiesChangedSignals)
{
    // Start from a settled node: QoS provisioned (that changes every managed port's QoS
    // properties once) and a first congestion verdict (after a window of 2 s; idle here: nothing
    // advances the counters).
    ASSERT_TRUE(test::waitFor(
        [&] {
            const std::string port = "/io/nicd/Nicd1/device/mlx5_0/port/1";
            return property(port, "io.nicd.Nicd1.Port", "QosStatus") == "s \"compliant\"\n" &&
                   property(port, "io.nicd.Nicd1.Port", "Congestion") == "s \"idle\"\n";
        },
        15s));
    std::this_thread::sleep_for(500ms);
    auto monitor = std::make_unique<test::Process>(
        std::vector<std::string>{"dbus-monitor", "--address", bus_->address(),
                                 "type='signal',sender='io.nicd.Nicd1'"},
        std::map<std::string, std::string>{}, dir_ / "monitor.log");
    std::this_thread::sleep_for(700ms);
    sim::linkDown(root_, "mlx5_3", 1);
    sim::remove(root_, "mlx5_5");
    ASSERT_TRUE(test::waitFor(
        [&] {
            auto log = test::readFile(dir_ / "monitor.log");
            return log.find("InterfacesRemoved") != std::string::npos &&
                   log.find("path=/io/nicd/Nicd1/device/mlx5_3/port/1") != std::string::npos;
        },
        10s))
        << test::readFile(dir_ / "monitor.log");
    std::this_thread::sleep_for(1s); // a few more cycles
    auto log = test::readFile(dir_ / "monitor.log");
    EXPECT_NE(log.find("string \"State\""), std::string::npos) << log;
    EXPECT_NE(log.find("object path \"/io/nicd/Nicd1/device/mlx5_5\""), std::string::npos) << log;
    EXPECT_EQ(log.find("string \"Cycle\""), std::string::npos) << "the cycle number never signals";
    // Nothing changes on mlx5_0: no signal for it, cycle after cycle.
    EXPECT_EQ(log.find("path=/io/nicd/Nicd1/device/mlx5_0/port/1"), std::string::npos) << log;

    // The device comes back: announced with its interfaces.
    sim::restore(root_, "mlx5_5");
    EXPECT_TRUE(test::waitFor(
        [&] {
            auto l = test::readFile(dir_ / "monitor.log");
            auto added = l.find("member=InterfacesAdded");
            return added != std::string::npos &&
                   l.find("object path \"/io/nicd/Nicd1/device/mlx5_5\"", added) !=
                       std::string::npos;
        },
        10s))
        << test::readFile(dir_ / "monitor.log");
}

TEST_F(DbusApiTest, AnyoneMayReadOnlyRootMayAct)
{
    // Reads: properties, the object tree, events, introspection; nicctl status as nobody.
    EXPECT_EQ(busctl({"get-property", "io.nicd.Nicd1", "/io/nicd/Nicd1", "io.nicd.Nicd1.Manager",
                      "Health"},
                     true)
                  .first,
              0);
    EXPECT_EQ(busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", "io.nicd.Nicd1.Manager",
                      "GetEvents", "t", "0"},
                     true)
                  .first,
              0);
    EXPECT_EQ(busctl({"introspect", "io.nicd.Nicd1", "/io/nicd/Nicd1"}, true).first, 0);
    auto [crc, counters] = nicctl({"counters", "mlx5_0/1"}, true);
    EXPECT_EQ(crc, 0) << counters;
    EXPECT_NE(counters.find("counters.symbol_error "), std::string::npos) << counters;
    EXPECT_EQ(nicctl({"counters", "mlx5_0"}, true).first, 0);
    auto [src, status] = nicctl({"status"}, true);
    EXPECT_GE(src, 0) << status;
    EXPECT_LE(src, 2) << status;
    EXPECT_NE(status.find("mlx5_0"), std::string::npos) << status;

    // Acts: Apply, Reload, ClearCondition, ForgetDevice, AcceptInventory are denied by the bus
    // before nicd sees them.
    for (const auto& call :
         std::vector<std::vector<std::string>>{{"Apply", "b", "false"},
                                               {"Reload"},
                                               {"ClearCondition", "ss", "mlx5_0", "x"},
                                               {"ForgetDevice", "s", "mlx5_0"},
                                               {"AcceptInventory"}}) {
        std::vector<std::string> args{"call", "io.nicd.Nicd1", "/io/nicd/Nicd1",
                                      "io.nicd.Nicd1.Manager"};
        args.insert(args.end(), call.begin(), call.end());
        auto [rc, out] = busctl(args, true);
        EXPECT_NE(rc, 0) << call[0];
        EXPECT_NE(out.find("Access denied"), std::string::npos) << call[0] << ": " << out;
    }
    auto [arc, apply] = nicctl({"apply", "--dry-run"}, true);
    EXPECT_EQ(arc, 3);
    EXPECT_NE(apply.find("org.freedesktop.DBus.Error.AccessDenied"), std::string::npos) << apply;
    // Root is let through (Reload answers at once).
    EXPECT_EQ(busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", "io.nicd.Nicd1.Manager", "Reload"})
                  .first,
              0);
}

TEST_F(DbusApiTest, NicctlSaysWhenNicdIsNotThere)
{
    nicd_->signal(SIGTERM);
    ASSERT_EQ(nicd_->wait(10s), 0);
    auto [rc, out] = nicctl({"status"});
    EXPECT_EQ(rc, 3) << out;
    EXPECT_NE(out.find("is nicd running?"), std::string::npos) << out;
}

TEST_F(DbusApiTest, TheDaemonOutlivesTheBusAndComesBack)
{
    auto textfile = root_ / "var/lib/prometheus/node-exporter/nicd.prom";
    bus_->stop();
    ASSERT_TRUE(test::waitFor(
        [&] {
            return test::readFile(dir_ / "nicd.log").find("monitoring continues without the bus") !=
                   std::string::npos;
        },
        10s))
        << test::readFile(dir_ / "nicd.log");
    auto before = fs::last_write_time(textfile);
    EXPECT_TRUE(test::waitFor([&] { return fs::last_write_time(textfile) != before; }, 5s))
        << "the textfile is still written";
    EXPECT_TRUE(nicd_->running());

    bus_->start();
    EXPECT_TRUE(test::waitFor(
        [&] {
            return busctl({"get-property", "io.nicd.Nicd1", "/io/nicd/Nicd1/device/mlx5_0",
                           "io.nicd.Nicd1.Device", "Name"})
                       .second == "s \"mlx5_0\"\n";
        },
        20s))
        << test::readFile(dir_ / "nicd.log");
}

} // namespace
