// The real nicd on a simulated node, as systemd, Prometheus and an operator meet it: --once,
// --check-config, the textfile checked by promtool and served by node_exporter, READY=1 after the
// first cycle, watchdog pings, a fault seen, SIGHUP with a bad file keeping the old config,
// SIGTERM.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/journal_writer.hpp"
#include "support/process.hpp"

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
using nicd::test::DaemonTest;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// A datagram socket standing in for systemd's notify socket (the real protocol).
class NotifySocket {
public:
    explicit NotifySocket(const fs::path& path) : path_(path)
    {
        fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
        bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    ~NotifySocket()
    {
        close(fd_);
        unlink(path_.c_str());
    }
    // Everything received so far, appended to `all`.
    const std::string& drain()
    {
        char buf[4096];
        ssize_t n;
        while ((n = recv(fd_, buf, sizeof buf, 0)) > 0)
            all_.append(buf, static_cast<size_t>(n)).append("\n");
        return all_;
    }

private:
    fs::path path_;
    int fd_;
    std::string all_;
};

} // namespace

TEST_F(DaemonTest, OnceWritesATextfilePromtoolAcceptsAndPrintsASummary)
{
    std::string out;
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_NE(out.find("mlx5_6         storage     pf          mlx5    1    DOWN"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("plugin mlx5: running"), std::string::npos) << out;
    std::string check;
    EXPECT_EQ(test::run({"sh", "-c", "promtool check metrics < " + textfile().string()}, check), 0)
        << check;
    EXPECT_EQ(check, "") << "promtool lint: " << check;
}

// Installed before node_exporter, or pointed at a new place: nicd makes the directory (0755, its
// parents too, whatever the umask), writes the file and says so once.
TEST_F(DaemonTest, CreatesAMissingTextfileDirectory)
{
    fs::remove_all(root_ / "var/lib/prometheus");
    writeConfig("[textfile]\nPath=/var/lib/prometheus/node-exporter/nicd.prom\n");
    auto argv = nicd({"--once"});
    argv.insert(argv.begin(), {"sh", "-c", "umask 077 && exec \"$@\"", "sh"});
    std::string out;
    ASSERT_EQ(test::run(argv, out), 0) << out;
    EXPECT_TRUE(fs::exists(textfile())) << out;
    for (const auto& dir :
         {root_ / "var/lib/prometheus", root_ / "var/lib/prometheus/node-exporter"})
        EXPECT_EQ(fs::status(dir).permissions() & fs::perms::all,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                      fs::perms::others_read | fs::perms::others_exec)
            << dir;
    auto said = [&out](const std::string& what) {
        size_t n = 0;
        for (auto p = out.find(what); p != std::string::npos; p = out.find(what, p + 1))
            ++n;
        return n;
    };
    EXPECT_EQ(said("created the textfile directory " +
                   (root_ / "var/lib/prometheus/node-exporter").string()),
              1U)
        << out;

    // A second run finds it there and says nothing.
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_EQ(said("created the textfile directory"), 0U) << out;
}

TEST_F(DaemonTest, NodeExporterServesTheTextfile)
{
    std::string out;
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    int port = 20000 + getpid() % 20000;
    test::Process ne({"prometheus-node-exporter",
                      "--web.listen-address=127.0.0.1:" + std::to_string(port),
                      "--collector.disable-defaults", "--collector.textfile",
                      "--collector.textfile.directory=" + textfile().parent_path().string()},
                     {}, dir_ / "ne.log");
    std::string metrics;
    bool ok = test::waitFor(
        [&] {
            return test::run(
                       {"curl", "-fsS", "http://127.0.0.1:" + std::to_string(port) + "/metrics"},
                       metrics, 5s) == 0;
        },
        10s);
    ASSERT_TRUE(ok) << test::readFile(dir_ / "ne.log");
    EXPECT_NE(metrics.find("\nnicd_up 1\n"), std::string::npos);
    EXPECT_NE(metrics.find("nicd_port_state{device=\"mlx5_6\",port=\"1\"} 1"), std::string::npos);
    EXPECT_NE(metrics.find("\nnode_textfile_scrape_error 0\n"), std::string::npos)
        << metrics.substr(0, 2000);
    EXPECT_NE(metrics.find("node_textfile_mtime_seconds{file="), std::string::npos);
}

TEST_F(DaemonTest, CheckConfigNamesTheBadLine)
{
    std::string out;
    EXPECT_EQ(test::run(nicd({"--check-config"}), out), 0) << out;
    EXPECT_NE(out.find("configuration is valid: " + conf_.string()), std::string::npos) << out;
    writeConfig("[provision]\nRoceTos=300\n");
    EXPECT_EQ(test::run(nicd({"--check-config"}), out), 1);
    EXPECT_NE(
        out.find(conf_.string() + ":5: [provision] RoceTos=300: expected an integer from 0 to 255"),
        std::string::npos)
        << out;
    // The daemon refuses to start on it, saying why.
    EXPECT_EQ(test::run(nicd({"--once"}), out), 3) << "could not judge";
    EXPECT_NE(out.find("RoceTos"), std::string::npos) << out;
}

// The mistakes nicd --check-config once called valid, with the real plugins: a key the plugin
// does not take (Enable= for Enabled=, which left bnxt running), a plugin that is not there, a
// --config file that is not there. The plugin with a wrong section is not created.
TEST_F(DaemonTest, CheckConfigRefusesPluginSectionsThePluginsDoNotTake)
{
    std::string out;
    writeConfig("[plugin:bnxt]\nEnable=no\n[plugin:mlx5]\nFoo=1\n[plugin:nosuch]\n");
    EXPECT_EQ(test::run(nicd({"--check-config"}), out), 1) << out;
    const std::string conf = conf_.string();
    EXPECT_NE(out.find(conf + ":5: [plugin:bnxt] Enable=no: unknown key; did you mean Enabled?"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find(conf + ":7: [plugin:mlx5] Foo=1: unknown key; plugin mlx5 takes Enabled"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find(conf + ":8: [plugin:nosuch] no plugin named nosuch in " +
                       std::string(NICD_BUILD_PLUGIN_DIR) + " (there: bnxt, mlx5)"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("configuration is invalid (3 errors)"), std::string::npos) << out;
    // At start the plugins whose sections are wrong are not created; nicd says why.
    test::run(nicd({"--once"}), out);
    EXPECT_NE(out.find("plugin mlx5: failed"), std::string::npos) << out;
    EXPECT_NE(out.find("plugin bnxt: failed"), std::string::npos) << out;
    EXPECT_NE(out.find("no plugin named nosuch"), std::string::npos) << out;

    writeConfig("[plugin:bnxt]\nEnabled=no\n");
    EXPECT_EQ(test::run(nicd({"--check-config"}), out), 0) << out;
    EXPECT_EQ(test::run({NICD_BIN, "--root", root_.string(), "--config",
                         (dir_ / "nope.conf").string(), "--check-config"},
                        out),
              1);
    EXPECT_NE(out.find("nope.conf: no such file (named by --config"), std::string::npos) << out;
}

// --root given relative to the working directory: the textfile is written as with an absolute
// one (it once refused "not an absolute path" and --once exited 1).
TEST_F(DaemonTest, ARelativeRootWorksAsAnAbsoluteOne)
{
    writeConfig("");
    std::string out;
    const auto rel = root_.filename().string();
    EXPECT_EQ(
        test::run({"sh", "-c",
                   "cd '" + root_.parent_path().string() + "' && exec '" + NICD_BIN + "' --root '" +
                       rel + "' --config '" + conf_.string() + "' --plugin-directory '" +
                       NICD_BUILD_PLUGIN_DIR + "' --no-dbus --once"},
                  out),
        0)
        << out;
    EXPECT_NE(out.find("textfile: " + textfile().string()), std::string::npos) << out;
}

// A root with no RDMA device at all: --once says so instead of printing an empty table.
TEST_F(DaemonTest, OnceOnANodeWithoutRdmaDevicesSaysSo)
{
    const auto empty = dir_ / "empty-root";
    fs::create_directories(empty / "etc/nicd");
    std::ofstream(empty / "etc/nicd/nicd.conf") << "[signals]\nEnable=no\n";
    std::string out;
    test::run({NICD_BIN, "--root", empty.string(), "--plugin-directory", NICD_BUILD_PLUGIN_DIR,
               "--no-dbus", "--once", "--log-level", "error"},
              out);
    EXPECT_NE(out.find("no RDMA devices found"), std::string::npos) << out;
    EXPECT_EQ(out.find("DEVICE "), std::string::npos) << out;
}

TEST_F(DaemonTest, LifecycleUnderTheServiceManager)
{
    NotifySocket notify(dir_ / "notify.sock");
    test::Process d(
        nicd({}), {{"NOTIFY_SOCKET", (dir_ / "notify.sock").string()}, {"WATCHDOG_USEC", "400000"}},
        dir_ / "nicd.log");
    ASSERT_TRUE(
        test::waitFor([&] { return notify.drain().find("READY=1") != std::string::npos; }, 10s))
        << test::readFile(dir_ / "nicd.log");
    EXPECT_TRUE(fs::exists(textfile())) << "READY=1 comes after the first full cycle";
    EXPECT_NE(test::readFile(textfile())
                  .find("nicd_qos_compliant{device=\"mlx5_0\",port=\"1\",setting=\"pfc\"} 1"),
              std::string::npos)
        << "and after the first provisioning round: units after nicd start on a provisioned node";
    // Every plugin of the build runs (mlx5's claims the node's devices; bnxt's none).
    EXPECT_NE(notify.drain().find("STATUS=8 devices, 8 ports (1 down), 2 of 2 plugins running"),
              std::string::npos)
        << notify.drain();
    EXPECT_TRUE(
        test::waitFor([&] { return notify.drain().find("WATCHDOG=1") != std::string::npos; }, 3s));

    // A fault shows up within a few cycles.
    sim::linkDown(root_, "mlx5_2");
    EXPECT_TRUE(textfileShows("nicd_port_state{device=\"mlx5_2\",port=\"1\"} 1", 5s));
    EXPECT_TRUE(
        test::waitFor([&] { return notify.drain().find("(2 down)") != std::string::npos; }, 5s));

    // A driver error written to the journal while nicd runs is picked up live.
    std::string error;
    ASSERT_TRUE(test::writeJournal(
        root_, "live",
        {test::kernelEntry("mlx5_core 0000:4c:00.0: poll_health:709:(pid 0): device's health "
                           "compromised - reached miss count",
                           1700000000000000ULL, "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d")},
        error))
        << error;
    EXPECT_TRUE(textfileShows("code=\"kernel.mlx5.health_compromised\",severity=\"fatal\"", 5s))
        << test::readFile(dir_ / "nicd.log");

    // SIGHUP with a broken file: the old configuration stays, the daemon says why and runs on.
    writeConfig("[daemon]\nPollIntervalMs=fast\n");
    d.signal(SIGHUP);
    // READY=1 with it: the reload is over (systemd would otherwise wait out its timeout).
    ASSERT_TRUE(test::waitFor(
        [&] { return notify.drain().find("READY=1\nSTATUS=reload failed") != std::string::npos; },
        5s));
    EXPECT_NE(test::readFile(dir_ / "nicd.log").find("keeping the previous configuration"),
              std::string::npos);
    EXPECT_NE(test::readFile(dir_ / "nicd.log").find("PollIntervalMs=fast"), std::string::npos);
    EXPECT_TRUE(d.running());
    auto before = fs::last_write_time(textfile());
    EXPECT_TRUE(test::waitFor([&] { return fs::last_write_time(textfile()) != before; }, 3s))
        << "still collecting";

    // A good file is taken.
    writeConfig("[textfile]\nPath=/var/lib/nicd/other.prom\n");
    d.signal(SIGHUP);
    EXPECT_TRUE(test::waitFor([&] { return fs::exists(root_ / "var/lib/nicd/other.prom"); }, 5s));

    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(5s), 0);
    EXPECT_NE(notify.drain().find("STOPPING=1"), std::string::npos);
}

TEST_F(DaemonTest, AWedgedDriverIsCaughtWithoutStallingTheDaemon)
{
    writeConfig("[health]\nDriverTimeoutMs=200\n");
    test::Process d(nicd({}), {}, dir_ / "nicd.log");
    ASSERT_TRUE(test::waitFor([&] { return fs::exists(textfile()); }, 10s))
        << test::readFile(dir_ / "nicd.log");
    sim::stall(root_, "mlx5_1"); // counters/ reads now block like a firmware that stopped answering
    const std::string cond =
        "nicd_condition_active{device=\"mlx5_1\",port=\"0\",code=\"driver_unresponsive\"";
    ASSERT_TRUE(textfileShows(cond, 10s)) << test::readFile(dir_ / "nicd.log");
    // The daemon keeps collecting the other devices.
    sim::linkDown(root_, "mlx5_2");
    EXPECT_TRUE(textfileShows("nicd_port_state{device=\"mlx5_2\",port=\"1\"} 1", 5s));
    EXPECT_NE(test::readFile(dir_ / "nicd.log").find("did not return within 200 ms"),
              std::string::npos);
    // The devices read after the wedged one still get fresh counters/ values.
    sim::addToCounter(root_, "mlx5_3", "symbol_error", 12345);
    const std::string fresh =
        "nicd_ib_port_pma_total{device=\"mlx5_3\",port=\"1\",counter=\"symbol_error\"} " +
        std::to_string(sim::counterValue(root_, "mlx5_3", "symbol_error"));
    EXPECT_TRUE(textfileShows(fresh, 10s)) << fresh;
    // Between PMA reads (every 1 s, cycles every 200 ms) the condition holds: no recovery until
    // the read returns.
    std::this_thread::sleep_for(1500ms);
    EXPECT_EQ(test::readFile(dir_ / "nicd.log").find("the driver answers again"), std::string::npos)
        << test::readFile(dir_ / "nicd.log");
    sim::unstall(root_, "mlx5_1"); // the firmware answers again
    EXPECT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile()).find(cond) == std::string::npos; }, 10s))
        << test::readFile(dir_ / "nicd.log");
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(5s), 0);
}

namespace {

// Which file is at `p` now: the atomic write replaces it with a new inode every time.
ino_t inodeOf(const fs::path& p)
{
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

} // namespace

// Kernel lines that are nobody's business (most of a busy node's log) move the journal cursor
// and nothing else: no textfile rendered, no state file written per batch. A driver error among
// them is published at once.
TEST_F(DaemonTest, KernelLinesThatAreNotDriverErrorsPublishNothing)
{
    // No cycle in the window: only what the kernel lines do is published.
    std::ofstream(conf_) << "[daemon]\nPollIntervalMs=60000\nPmaIntervalMs=60000\n";
    test::Process d(nicd({}), {}, dir_ / "nicd.log");
    const std::string compliant =
        "nicd_qos_compliant{device=\"mlx5_0\",port=\"1\",setting=\"pfc\"} 1";
    ASSERT_TRUE(textfileShows(compliant, 10s)) << test::readFile(dir_ / "nicd.log");
    std::this_thread::sleep_for(500ms); // the first cycle and round are published
    const fs::path state = root_ / "var/lib/nicd/state.json";
    const ino_t textfile_before = inodeOf(textfile());
    const ino_t state_before = inodeOf(state);
    ASSERT_NE(textfile_before, 0U);

    std::string error;
    for (int batch = 0; batch < 8; ++batch) {
        std::vector<test::JournalEntry> noise;
        for (int i = 0; i < 50; ++i)
            noise.push_back({.message = "EXT4-fs (nvme0n1p2): " + std::to_string(batch * 50 + i) +
                                        " orphan inodes deleted",
                             .boot_id = "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d",
                             .realtime_usec = 1700000000000000ULL + batch * 1000 + i});
        ASSERT_TRUE(test::writeJournal(root_, "noise-" + std::to_string(batch), noise, error))
            << error;
        std::this_thread::sleep_for(100ms);
    }
    std::this_thread::sleep_for(500ms);
    EXPECT_EQ(inodeOf(textfile()), textfile_before) << "noise re-rendered the textfile";
    EXPECT_EQ(inodeOf(state), state_before) << "noise rewrote the state file";

    ASSERT_TRUE(test::writeJournal(
        root_, "error",
        {test::kernelEntry("mlx5_core 0000:4c:00.0: poll_health:709:(pid 0): device's health "
                           "compromised - reached miss count",
                           1700000000100000ULL, "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d")},
        error))
        << error;
    EXPECT_TRUE(textfileShows("code=\"kernel.mlx5.health_compromised\",severity=\"fatal\"", 5s))
        << test::readFile(dir_ / "nicd.log");
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(5s), 0);
}

// [textfile] IntervalMs=: counters wait for the interval, a fault does not.
TEST_F(DaemonTest, ATextfileIntervalHoldsCountersBackButNeverAFault)
{
    writeConfig("[textfile]\nIntervalMs=60000\n");
    test::Process d(nicd({}), {}, dir_ / "nicd.log");
    ASSERT_TRUE(test::waitFor([&] { return fs::exists(textfile()); }, 10s))
        << test::readFile(dir_ / "nicd.log");
    // The first seconds settle verdicts (provisioning, the congestion windows' first judgement
    // after 2 s): each is written at once. Then the file stays as it is.
    ino_t settled = 0;
    ASSERT_TRUE(test::waitFor(
        [&] {
            ino_t now = inodeOf(textfile());
            std::this_thread::sleep_for(3s);
            settled = inodeOf(textfile());
            return now == settled;
        },
        30s));
    const uint64_t before = sim::counterValue(root_, "mlx5_3", "symbol_error");
    auto pma = [&](uint64_t v) {
        return "nicd_ib_port_pma_total{device=\"mlx5_3\",port=\"1\",counter=\"symbol_error\"} " +
               std::to_string(v) + "\n";
    };
    ASSERT_NE(test::readFile(textfile()).find(pma(before)), std::string::npos);
    sim::addToCounter(root_, "mlx5_3", "symbol_error", 5); // under its rule's threshold
    const uint64_t after = sim::counterValue(root_, "mlx5_3", "symbol_error");
    std::this_thread::sleep_for(2s); // PMA reads every second, cycles every 200 ms
    EXPECT_EQ(inodeOf(textfile()), settled) << "a counter's new value waits for the interval";
    sim::linkDown(root_, "mlx5_2");
    EXPECT_TRUE(textfileShows("nicd_port_state{device=\"mlx5_2\",port=\"1\"} 1", 5s))
        << "a port that went down is written at once";
    EXPECT_NE(test::readFile(textfile()).find(pma(after)), std::string::npos)
        << "and with it the counters as they are";
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(5s), 0);
}
