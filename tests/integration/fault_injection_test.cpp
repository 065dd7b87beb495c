// The real nicd under the faults a node throws at it (issue 17): killed at random moments, its
// disk full or read-only, devices vanishing under its reads, a plugin that stops answering. Each
// test asserts what an operator relies on afterwards: whole files, one log line per problem, the
// state carried on, collection going on.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <nlohmann/json.hpp>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

class FaultInjection : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "faults"; }
    // A cycle every 100 ms (the shortest allowed).
    std::string baseConfig() const override
    {
        return "[daemon]\nPollIntervalMs=100\nPmaIntervalMs=1000\n";
    }
    void TearDown() override
    {
        nicd_.reset();
        if (mounted_)
            ::umount2((root_ / "faults").c_str(), MNT_DETACH);
        DaemonTest::TearDown();
    }

    fs::path stateFile() const { return root_ / "var/lib/nicd/state.json"; }

    // The number in "nicd_cycles_total N" of the textfile, or -1.
    long cyclesIn(const fs::path& f) const { return test::cyclesIn(test::readFile(f)); }

    // A tmpfs of `size` at <root>/faults, private to this test's mount namespace.
    bool mountTmpfs(const std::string& size)
    {
        if (::geteuid() != 0)
            return false;
        if (::unshare(CLONE_NEWNS) != 0 ||
            ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            return false;
        fs::create_directories(root_ / "faults");
        mounted_ = ::mount("tmpfs", (root_ / "faults").c_str(), "tmpfs", 0,
                           ("size=" + size + ",mode=0755").c_str()) == 0;
        return mounted_;
    }

    bool mounted_ = false;
};

// Every file in `dir` whose name starts with '.' (the writer's temporary files).
std::vector<std::string> hiddenFiles(const fs::path& dir)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().front() == '.')
            out.push_back(e.path().filename().string());
    return out;
}

} // namespace

// kill -9 at random moments of the cycle, many times: what a reader finds is always a whole,
// valid textfile and state file (or none yet), never a mix; the next start removes the temporary
// file a kill left and carries on from the state.
TEST_F(FaultInjection, KillNineAtRandomMomentsLeavesWholeFilesAndTheStateCarriesOn)
{
    writeConfig(""); // a cycle every 100 ms (the shortest allowed): many kills land near a write
    std::mt19937 rng(std::random_device{}());
    sim::setRate(root_, "mlx5_0", "symbol_error", 5); // health keeps changing: the state is written
    // The kills spread from 30 ms to twice the time this build takes to write its first textfile
    // (400 ms at least): an ASan build on a busy machine starts slower than a cycle, and kills that
    // all land before the first write would prove nothing.
    int upto_ms = 400;
    {
        const auto t0 = std::chrono::steady_clock::now();
        test::Process d(nicd(), {}, dir_ / "nicd-first.log");
        for (int i = 0; i < 400 && !fs::exists(textfile()); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - t0)
                              .count();
        d.signal(SIGKILL);
        d.wait(5s);
        ASSERT_TRUE(fs::exists(textfile())) << "nicd wrote no textfile in 10 s";
        upto_ms = std::max(upto_ms, static_cast<int>(2 * took));
    }
    std::uniform_int_distribution<int> delay_ms(30, upto_ms);
    // 30 kills; 12 in the sanitizer build, whose every start costs seconds and whose kills look
    // for memory errors on the way to and from a kill, not for more moments to land on.
#ifdef NICD_SANITIZED
    constexpr int kRounds = 12;
#else
    constexpr int kRounds = 30;
#endif
    int kills = 0;
    for (int round = 0; round < kRounds; ++round) {
        sim::tick(root_, 1);
        test::Process d(nicd(), {}, dir_ / ("nicd-" + std::to_string(round) + ".log"));
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
        d.signal(SIGKILL);
        d.wait(5s);
        ++kills;
        if (fs::exists(textfile())) {
            std::string check;
            ASSERT_EQ(
                test::run({"sh", "-c", "promtool check metrics < " + textfile().string()}, check),
                0)
                << "after kill " << kills << ": " << check;
            ASSERT_GE(cyclesIn(textfile()), 1) << "after kill " << kills;
        }
        if (fs::exists(stateFile())) {
            auto j = nlohmann::json::parse(test::readFile(stateFile()), nullptr, false);
            ASSERT_FALSE(j.is_discarded()) << "after kill " << kills << ": state.json is not JSON";
            ASSERT_EQ(j.value("version", 0), 1);
        }
        for (const auto& e : fs::directory_iterator(stateFile().parent_path()))
            ASSERT_EQ(e.path().filename().string().find(".corrupt-"), std::string::npos)
                << "a state file had to be set aside after kill " << kills;
    }
    ASSERT_TRUE(fs::exists(textfile()));
    ASSERT_TRUE(fs::exists(stateFile()));

    // The next start removes whatever temporary file the kills left, and restores the state.
    std::string out;
    ASSERT_LE(test::run(nicd({"--once"}), out), 2) << out; // it judged (the node's verdict)
    EXPECT_NE(out.find("state restored from"), std::string::npos) << out;
    EXPECT_EQ(out.find("unusable"), std::string::npos) << out;
    EXPECT_EQ(hiddenFiles(textfile().parent_path()), std::vector<std::string>{});
    EXPECT_EQ(hiddenFiles(stateFile().parent_path()), std::vector<std::string>{});
}

// The disk fills under nicd: the write fails, the error is logged once (not every cycle), the
// last good file stays for node_exporter, no temporary file is left, and writing resumes — and is
// reported — when space returns. Then the same with the directory mounted read-only.
TEST_F(FaultInjection, AFullOrReadOnlyDiskIsReportedOnceAndWritingResumes)
{
    if (!mountTmpfs("2m"))
        GTEST_SKIP() << "needs root to mount a tmpfs in a private mount namespace";
    writeConfig("StateDirectory=/faults/state\n[textfile]\nPath=/faults/prom/nicd.prom\n");
    const fs::path prom = root_ / "faults/prom/nicd.prom";
    const fs::path state = root_ / "faults/state/state.json";
    const fs::path log = dir_ / "nicd.log";
    test::Process d(nicd(), {}, log);
    ASSERT_TRUE(test::waitFor([&] { return cyclesIn(prom) >= 2 && fs::exists(state); }, 10s))
        << test::readFile(log);

    // Fill the tmpfs to the last byte.
    {
        std::ofstream filler(root_ / "faults/filler", std::ios::binary);
        std::string block(64 * 1024, 'x');
        while (filler.write(block.data(), static_cast<std::streamsize>(block.size())))
            filler.flush();
    }
    {
        std::ofstream filler(root_ / "faults/filler2", std::ios::binary);
        while (filler.put('x'))
            filler.flush();
    }
    sim::linkDown(root_, "mlx5_0"); // health changes: the state is due now, too
    std::this_thread::sleep_for(300ms);
    const long frozen = cyclesIn(prom);
    const std::string kept = test::readFile(prom);
    std::this_thread::sleep_for(2s); // about 20 cycles that cannot write
    EXPECT_EQ(test::readFile(prom), kept) << "the last good file stays";
    EXPECT_GE(frozen, 2);
    std::string text = test::readFile(log);
    EXPECT_EQ(test::occurrences(text, "textfile not written:"), 1U) << text;
    EXPECT_NE(text.find("No space left on device"), std::string::npos) << text;
    EXPECT_EQ(test::occurrences(text, "state not written:"), 1U) << text;
    // A write that fails removes its temporary file; one may be in flight at any moment (a cycle
    // is trying), so a leak is a temporary file that stays.
    auto noTemporaryFiles = [&] {
        return hiddenFiles(prom.parent_path()).empty() && hiddenFiles(state.parent_path()).empty();
    };
    EXPECT_TRUE(test::waitFor(noTemporaryFiles, 2s))
        << testing::PrintToString(hiddenFiles(prom.parent_path()))
        << testing::PrintToString(hiddenFiles(state.parent_path()));

    // Space returns: the textfile moves on at once, the state within its 10 s retry.
    fs::remove(root_ / "faults/filler");
    fs::remove(root_ / "faults/filler2");
    EXPECT_TRUE(test::waitFor([&] { return cyclesIn(prom) > frozen + 1; }, 5s));
    EXPECT_TRUE(test::waitFor(
        [&] { return test::readFile(log).find("state written again") != std::string::npos; }, 15s))
        << test::readFile(log);
    text = test::readFile(log);
    EXPECT_NE(text.find("textfile written again to " + prom.string() + " after "),
              std::string::npos)
        << text;
    EXPECT_NE(test::readFile(state).find("port_down"), std::string::npos)
        << "the state written after the fault holds it";

    // Read-only: the same story with EROFS.
    ASSERT_EQ(
        ::mount(nullptr, (root_ / "faults").c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0);
    std::this_thread::sleep_for(300ms);
    const long ro_frozen = cyclesIn(prom);
    std::this_thread::sleep_for(1500ms);
    EXPECT_LE(cyclesIn(prom), ro_frozen + 1);
    text = test::readFile(log);
    EXPECT_EQ(test::occurrences(text, "textfile not written:"), 2U) << text;
    EXPECT_NE(text.find("Read-only file system"), std::string::npos) << text;
    ASSERT_EQ(::mount(nullptr, (root_ / "faults").c_str(), nullptr, MS_REMOUNT, nullptr), 0);
    EXPECT_TRUE(test::waitFor([&] { return cyclesIn(prom) > ro_frozen + 2; }, 5s));
    EXPECT_TRUE(d.running()) << "nicd carried on through all of it";
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(5s), 0);
}

// Devices vanish and come back under nicd's reads, many times a second: no crash, every device
// back when it returns.
TEST_F(FaultInjection, DevicesRemovedInTheMiddleOfReadsDoNotStopTheDaemon)
{
    const fs::path log = dir_ / "nicd.log";
    test::Process d(nicd(), {}, log);
    ASSERT_TRUE(test::waitFor([&] { return cyclesIn(textfile()) >= 1; }, 10s))
        << test::readFile(log);
    for (int i = 0; i < 300; ++i) { // about 3 s: some 30 cycles
        sim::remove(root_, "mlx5_1");
        std::this_thread::sleep_for(std::chrono::milliseconds(3 + i % 7));
        sim::restore(root_, "mlx5_1");
        std::this_thread::sleep_for(std::chrono::milliseconds(3 + i % 5));
    }
    ASSERT_TRUE(d.running()) << test::readFile(log);
    long now = cyclesIn(textfile());
    EXPECT_TRUE(test::waitFor(
        [&] {
            std::string t = test::readFile(textfile());
            return cyclesIn(textfile()) > now + 3 &&
                   t.find("nicd_device_health{device=\"mlx5_1\"} 0") != std::string::npos;
        },
        10s))
        << test::linesWith(test::readFile(textfile()), "mlx5_1")
        << test::linesWith(test::readFile(log), "mlx5_1");
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(5s), 0) << test::readFile(log);
}

// A plugin stuck inside a poll (a firmware command that never completes): the deadline leaves it
// behind once, the device shows driver_unresponsive, the cycle goes on for everything else, and
// the plugin is polled again once its call returns.
TEST_F(FaultInjection, APluginHungInsideACallIsLeftBehindAndTheCycleGoesOn)
{
    const fs::path hang = dir_ / "hang";
    fs::create_directories(hang);
    std::ofstream(conf_) << "[daemon]\nPollIntervalMs=100\nPmaIntervalMs=1000\n"
                         << "[health]\nDriverTimeoutMs=200\n[plugin:flaky]\nHangDir="
                         << hang.string() << "\n";
    const fs::path log = dir_ / "nicd.log";
    test::Process d(nicd({}, NICD_TEST_PLUGIN_DIR "/poll_fails"), {}, log);
    ASSERT_TRUE(test::waitFor([&] { return cyclesIn(textfile()) >= 2; }, 10s))
        << test::readFile(log);

    std::ofstream(hang / "mlx5_1") << "";
    const std::string cond =
        "nicd_condition_active{device=\"mlx5_1\",port=\"0\",code=\"driver_unresponsive\"";
    ASSERT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile()).find(cond) != std::string::npos; }, 10s))
        << test::readFile(log);
    const long hung_at = cyclesIn(textfile());
    sim::linkDown(root_, "mlx5_2"); // the rest of the node is still watched
    EXPECT_TRUE(test::waitFor(
        [&] {
            return cyclesIn(textfile()) >= hung_at + 10 &&
                   test::readFile(textfile())
                           .find("nicd_port_state{device=\"mlx5_2\",port=\"1\"} 1") !=
                       std::string::npos;
        },
        10s))
        << "cycles went on while the plugin hung";
    // Said once as an error (and once as the condition it raised), not at every cycle.
    EXPECT_EQ(test::occurrences(test::readFile(log),
                                "E plugin flaky reading mlx5_1 did not return within 200 ms"),
              1U)
        << test::readFile(log);

    fs::remove(hang / "mlx5_1"); // the call returns
    EXPECT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile()).find(cond) == std::string::npos; }, 10s))
        << test::readFile(log);
    EXPECT_NE(test::readFile(log).find("the plugin's read returned; polling again"),
              std::string::npos);
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(5s), 0) << test::readFile(log);
}
