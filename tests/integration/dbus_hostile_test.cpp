// Hostile input at nicd's edges, end to end on the real daemon and a real dbus-daemon: bytes from
// sysfs that are not text reach no log line, D-Bus string or textfile label raw (and never make a
// publish fail: D-Bus rejects strings that are not UTF-8), and method calls with odd, huge or
// unknown arguments — from root or from anyone — get a clear D-Bus error, never a crash or a hang;
// and the changing methods stay root's even on a bus whose policy lets anyone call them.
#include "support/bus_fixture.hpp"
#include "support/process.hpp"

#include <signal.h>

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// A firmware string with a terminal escape, a stray byte and a newline; a board id with an
// overlong '/' (on mlx5_2); a counter file whose name carries a colour escape and a byte that is
// not UTF-8.
const std::string kFirmware = "28.39\x1b[2J\xff\n1002";
const std::string kFirmwareShown = "28.39\\x1b[2J\\xff\\x0a1002";
const std::string kCounter = "evil\x1b[31m\xfe";

class HostileInput : public test::NicdOnBusTest {
protected:
    // The hostile counter in the textfile too (it is not of the default set).
    std::string extraConfig() const override { return "[textfile]\nCounters=default evil*\n"; }
    void prepareNode() override
    {
        auto dev = root_ / "sys/class/infiniband/mlx5_0";
        std::ofstream(dev / "fw_ver") << kFirmware << "\n";
        // On another card: mlx5_0 keeps its board, so its firmware is compared with its peers'.
        std::ofstream(root_ / "sys/class/infiniband/mlx5_2/board_id") << "MT_\xc0\xaf\n";
        std::ofstream(dev / "ports/1/hw_counters" / kCounter) << "7\n";
    }
    fs::path textfile() const { return root_ / "var/lib/prometheus/node-exporter/nicd.prom"; }

    // nicd still there and answering within a second.
    void expectAlive()
    {
        EXPECT_TRUE(nicd_->running()) << test::readFile(dir_ / "nicd.log");
        EXPECT_EQ(busctl({"get-property", "io.nicd.Nicd1", "/io/nicd/Nicd1",
                          "io.nicd.Nicd1.Manager", "Health", "--timeout=1"})
                      .first,
                  0);
    }
};

bool hasRawControlOrInvalid(const std::string& s)
{
    for (unsigned char c : s)
        if ((c < 0x20 && c != '\n') || c == 0x7f || c == 0xff || c == 0xfe)
            return true;
    return false;
}

} // namespace

// (Short test names: the private bus's socket lives in a directory named after the test.)
TEST_F(HostileInput, NonTextBytesAreShownEscaped)
{
    ASSERT_TRUE(test::waitFor([&] { return fs::exists(textfile()); }, 10s));
    // The whole tree still publishes: GetManagedObjects answers (sd-bus would refuse the reply
    // were one string not UTF-8), with the firmware shown escaped.
    auto [rc, tree] =
        busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", "org.freedesktop.DBus.ObjectManager",
                "GetManagedObjects", "--json=short"});
    ASSERT_EQ(rc, 0) << tree;
    EXPECT_NE(tree.find("28.39\\\\x1b[2J\\\\xff\\\\x0a1002"), std::string::npos)
        << "JSON shows the backslash of \\x1b escaped: " << tree.substr(0, 2000);
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_0", "io.nicd.Nicd1.Device", "FirmwareVersion"),
              "s \"" + std::string("28.39\\\\x1b[2J\\\\xff\\\\x0a1002") + "\"\n");
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_2", "io.nicd.Nicd1.Device", "BoardId"),
              "s \"MT_\\\\xc0\\\\xaf\"\n");
    auto [crc, counters] = busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1/device/mlx5_0/port/1",
                                   "io.nicd.Nicd1.Port", "GetCounters"});
    ASSERT_EQ(crc, 0) << counters;
    EXPECT_NE(counters.find("evil\\\\x1b[31m\\\\xfe"), std::string::npos)
        << "busctl doubles the backslash: " << counters;
    EXPECT_FALSE(hasRawControlOrInvalid(counters)) << counters;

    // The textfile: promtool accepts it, the labels show the escapes, no raw byte is in it. (The
    // state file held the same names: it was saved, not thrown out — this once ended nicd.)
    std::string prom = test::readFile(textfile());
    std::string check;
    EXPECT_EQ(test::run({"sh", "-c", "promtool check metrics < " + textfile().string()}, check), 0)
        << check;
    EXPECT_NE(prom.find("fw_version=\"28.39\\\\x1b[2J\\\\xff\\n1002\""), std::string::npos)
        << "the newline as the exposition format escapes it";
    EXPECT_NE(prom.find("counter=\"evil\\\\x1b[31m\\\\xfe\""), std::string::npos);
    EXPECT_FALSE(hasRawControlOrInvalid(prom));

    // The firmware differs from the other cards: the drift condition (read on the signals'
    // interval; --once reads everything) names it in its log line, escaped, like every line.
    // (A state of its own: the running nicd's already holds the condition, so would not log it;
    // --dry-run, as the running nicd owns the root.) Degraded: the firmware drift.
    std::ofstream(dir_ / "once.conf") << "[daemon]\nStateDirectory=/var/lib/nicd-once\n";
    std::string once;
    EXPECT_EQ(
        test::run({NICD_BIN, "--root", root_.string(), "--config", (dir_ / "once.conf").string(),
                   "--plugin-directory", NICD_BUILD_PLUGIN_DIR, "--no-dbus", "--once", "--dry-run"},
                  once),
        1)
        << once;
    EXPECT_NE(once.find("firmware " + kFirmwareShown + " differs"), std::string::npos) << once;
    EXPECT_FALSE(hasRawControlOrInvalid(once));
    EXPECT_FALSE(hasRawControlOrInvalid(test::readFile(dir_ / "nicd.log")));
    expectAlive();
}

TEST_F(HostileInput, OddHugeAndUnknownArgumentsGetClearErrors)
{
    const std::string huge(100000, 'x'); // near the 128 KiB limit of one command-line argument
    struct Case {
        std::vector<std::string> args;
        std::string error; // expected in busctl's output
    };
    const std::string mgr = "io.nicd.Nicd1.Manager";
    const std::vector<Case> cases{
        {{"/io/nicd/Nicd1", mgr, "ClearCondition", "ss", "", "port_down"}, "needs a device"},
        {{"/io/nicd/Nicd1", mgr, "ClearCondition", "ss", "mlx5_0", ""}, "needs a device"},
        {{"/io/nicd/Nicd1/device/nope", "io.nicd.Nicd1.Device", "GetCounters"}, "nope"},
        {{"/io/nicd/Nicd1/device/mlx5_0/port/99", "io.nicd.Nicd1.Port", "GetCounters"}, ""},
        {{"/io/nicd/Nicd1", mgr, "NoSuchMethod"}, "NoSuchMethod"},
        {{"/io/nicd/Nicd1", mgr, "GetEvents", "s", "not-a-number"}, "GetEvents"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> a{"call", "io.nicd.Nicd1"};
        a.insert(a.end(), c.args.begin(), c.args.end());
        auto [rc, out] = busctl(a);
        EXPECT_NE(rc, 0) << c.args[2] << ": " << out;
        EXPECT_NE(out.find(c.error), std::string::npos) << c.args[2] << ": " << out;
        expectAlive();
    }
    // A huge, a hostile or an unknown name: a clear "nothing to clear" (the name shown escaped),
    // and no event after the last one.
    for (const auto& dev : {huge, std::string("mlx5_0\x1b[2J\xc2\x9b"), std::string("../../x")}) {
        auto [rc, out] = busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", mgr, "ClearCondition",
                                 "ss", dev, "port_down"});
        EXPECT_NE(rc, 0);
        EXPECT_EQ(out.find("no active condition port_down on device "), 13U) << out.substr(0, 300);
        EXPECT_FALSE(hasRawControlOrInvalid(out.substr(0, out.size() - 1)));
    }
    auto [erc, events] = busctl(
        {"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", mgr, "GetEvents", "t", "18446744073709551615"});
    EXPECT_EQ(erc, 0) << events;
    EXPECT_EQ(events, "a(ttsssusss) 0\n");
    EXPECT_FALSE(hasRawControlOrInvalid(test::readFile(dir_ / "nicd.log")));
    expectAlive();
}

// Every method, called by an unprivileged user: the reading ones answer, the changing ones are
// refused by the bus's policy before nicd sees them — and none of it hurts the daemon.
TEST_F(HostileInput, EveryMethodCalledByAnyoneGetsAnAnswerOrAClearRefusal)
{
    const std::string mgr = "io.nicd.Nicd1.Manager";
    struct Call {
        std::vector<std::string> args;
        bool allowed;
    };
    const std::vector<Call> calls{
        {{"/io/nicd/Nicd1", mgr, "GetEvents", "t", "0"}, true},
        {{"/io/nicd/Nicd1", mgr, "Verify"}, true},
        {{"/io/nicd/Nicd1/device/mlx5_0", "io.nicd.Nicd1.Device", "GetCounters"}, true},
        {{"/io/nicd/Nicd1/device/mlx5_0/port/1", "io.nicd.Nicd1.Port", "GetCounters"}, true},
        {{"/io/nicd/Nicd1", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"}, true},
        {{"/io/nicd/Nicd1", mgr, "Apply", "b", "true"}, false},
        {{"/io/nicd/Nicd1", mgr, "Apply", "b", "false"}, false},
        {{"/io/nicd/Nicd1", mgr, "Reload"}, false},
        {{"/io/nicd/Nicd1", mgr, "ClearCondition", "ss", "mlx5_0", "port_down"}, false},
        {{"/io/nicd/Nicd1", "org.freedesktop.DBus.Properties", "Set", "ssv", mgr, "Health", "s",
          "healthy"},
         false},
    };
    for (const auto& c : calls) {
        std::vector<std::string> a{"call", "io.nicd.Nicd1"};
        a.insert(a.end(), c.args.begin(), c.args.end());
        auto [rc, out] = busctl(a, true);
        if (c.allowed) {
            EXPECT_EQ(rc, 0) << c.args[2] << ": " << out.substr(0, 300);
        } else {
            EXPECT_NE(rc, 0) << c.args[2];
            EXPECT_NE(out.find("Access denied"), std::string::npos) << c.args[2] << ": " << out;
        }
    }
    expectAlive();
    EXPECT_EQ(test::readFile(dir_ / "nicd.log").find("Reload"), std::string::npos)
        << "the refused calls never reached nicd";
}

namespace {

// A bus that lets anyone call anything (a policy edited too far, or none installed).
class AnyoneMayCall : public test::NicdOnBusTest {
protected:
    test::PrivateBus::Policy busPolicy() const override
    {
        return test::PrivateBus::Policy::AllowEverything;
    }
};

} // namespace

// nicd refuses Apply, Reload, ClearCondition, ForgetDevice and AcceptInventory to anyone but
// root itself, naming the method and the caller; root's calls and everyone's Verify still work.
TEST_F(AnyoneMayCall, ChangingMethodsAreRootsWhateverThePolicy)
{
    const std::string mgr = "io.nicd.Nicd1.Manager";
    // dbus-send prints the error's name and message (busctl shows only "Access denied").
    const std::vector<std::vector<std::string>> changing{
        {"Apply", "boolean:false"},
        {"Apply", "boolean:true"},
        {"Reload"},
        {"ClearCondition", "string:mlx5_0", "string:port_down"},
        {"ForgetDevice", "string:mlx5_0"},
        {"AcceptInventory"},
    };
    for (const auto& c : changing) {
        std::vector<std::string> a{"dbus-send",      "--bus=" + bus_->address(),
                                   "--print-reply",  "--dest=io.nicd.Nicd1",
                                   "/io/nicd/Nicd1", mgr + "." + c[0]};
        a.insert(a.end(), c.begin() + 1, c.end());
        auto [rc, out] = runAs(true, a);
        EXPECT_NE(rc, 0) << c[0] << ": " << out;
        EXPECT_NE(out.find("Error org.freedesktop.DBus.Error.AccessDenied: " + c[0] +
                           " changes the node and is for root only; it was called by uid 65534"),
                  std::string::npos)
            << out;
    }
    EXPECT_EQ(test::readFile(dir_ / "nicd.log").find("SIGHUP"), std::string::npos);
    EXPECT_EQ(test::readFile(dir_ / "nicd.log").find("Reload"), std::string::npos)
        << "nobody's Reload did nothing";

    // Verify is everyone's.
    auto [vrc, verify] = busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", mgr, "Verify"}, true);
    EXPECT_EQ(vrc, 0) << verify;
    // Root's calls go through: a dry run answers its rows, a reload is done, a clear of nothing
    // is "nothing to clear", not a refusal.
    auto [arc, apply] =
        busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", mgr, "Apply", "b", "true"});
    EXPECT_EQ(arc, 0) << apply;
    EXPECT_NE(apply.find("\"roce_tos\""), std::string::npos) << apply;
    auto [rrc, reload] = busctl({"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", mgr, "Reload"});
    EXPECT_EQ(rrc, 0) << reload;
    EXPECT_TRUE(test::waitFor(
        [&] {
            return test::readFile(dir_ / "nicd.log").find("configuration reloaded") !=
                   std::string::npos;
        },
        5s));
    auto [crc, clear] = busctl(
        {"call", "io.nicd.Nicd1", "/io/nicd/Nicd1", mgr, "ClearCondition", "ss", "mlx5_0", "x"});
    EXPECT_NE(crc, 0);
    EXPECT_NE(clear.find("no active condition x on device mlx5_0"), std::string::npos) << clear;
    EXPECT_TRUE(nicd_->running());
}
