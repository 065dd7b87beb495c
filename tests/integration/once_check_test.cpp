// `nicd --once` as a health check (nicd(8), EXIT STATUS): its exit status is the node's verdict,
// 0 healthy, 1 degraded, 2 fatal, 3 when it could not judge or do what it was asked; beside a
// running nicd on the same root it refuses (the lock in <root>/run/nicd) unless --dry-run, and
// then writes nothing: the daemon's state, textfile and counters stay its own. A second daemon
// on a root refuses to start.
#include "support/daemon_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class OnceCheck : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "once-check"; }
    sim::CreateOptions nodeOptions() const override
    {
        sim::CreateOptions o;
        sim::applyProfile(o, "hgx-h100");
        o.channels = 1;
        return o;
    }
    void SetUp() override
    {
        DaemonTest::SetUp();
        writeConfig("[provision]\nMode=off\n");
    }
    int onceRc(const std::vector<std::string>& extra, std::string& out) const
    {
        std::vector<std::string> args{"--once"};
        args.insert(args.end(), extra.begin(), extra.end());
        return test::run(nicd(args), out);
    }
    fs::path state() const { return root_ / "var/lib/nicd/state.json"; }
};

} // namespace

TEST_F(OnceCheck, TheExitStatusIsTheNodesVerdict)
{
    std::string out;
    EXPECT_EQ(onceRc({}, out), 0) << out;
    EXPECT_NE(out.find("node health: healthy"), std::string::npos) << out;
    inject("asic-hot", "mlx5_2");
    EXPECT_EQ(onceRc({}, out), 1) << out;
    EXPECT_NE(out.find("node health: degraded"), std::string::npos) << out;
    inject("fw-fatal", "mlx5_3");
    EXPECT_EQ(onceRc({}, out), 2) << out;
    EXPECT_NE(out.find("node health: fatal"), std::string::npos) << out;
    EXPECT_EQ(onceRc({"--json"}, out), 2) << out;
    EXPECT_NE(out.find("\"exit_code\": 2"), std::string::npos) << out;

    // Asked what it cannot do: 3, whatever the verdict.
    EXPECT_EQ(onceRc({"--forget", "mlx5_77"}, out), 3) << out;
    writeConfig("[provision]\nRoceTos=300\n");
    EXPECT_EQ(onceRc({}, out), 3) << out;
}

TEST_F(OnceCheck, BesideARunningDaemonItRefusesOrWithDryRunWritesNothing)
{
    start();
    ASSERT_TRUE(textfileShows("nicd_cycles_total 3", std::chrono::seconds(30))) << log();
    ASSERT_TRUE(test::waitFor([&] { return fs::exists(state()); }, std::chrono::seconds(10)));
    const auto pid = std::to_string(nicd_->pid());
    const auto lock = test::readFile(root_ / "run/nicd/nicd.lock");
    EXPECT_EQ(lock, pid + "\n");

    std::string out;
    EXPECT_EQ(onceRc({}, out), 3) << out;
    EXPECT_NE(out.find("nicd (pid " + pid + ") runs on " + root_.string() +
                       ": --once would rewrite its state, textfile and QoS"),
              std::string::npos)
        << out;
    EXPECT_EQ(onceRc({"--forget", "mlx5_0"}, out), 3) << out;
    EXPECT_EQ(onceRc({"--dry-run", "--forget", "mlx5_0"}, out), 3) << out;

    // --dry-run judges and writes nothing: no state, no textfile (its cycle counter goes on).
    EXPECT_EQ(onceRc({"--dry-run"}, out), 0) << out;
    EXPECT_NE(out.find("node health: healthy"), std::string::npos) << out;
    EXPECT_NE(out.find("nothing written: nicd (pid " + pid + ") runs on this root"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("textfile: "), std::string::npos) << out;
    EXPECT_EQ(onceRc({"--dry-run", "--json"}, out), 0) << out;
    EXPECT_NE(out.find("\"textfile\": null"), std::string::npos) << out;
    EXPECT_EQ(textfileText().find("nicd_cycles_total 1\n"), std::string::npos)
        << "the daemon's counter, never reset by --once";

    // A second daemon on the root waits for the first, then refuses.
    std::string second;
    EXPECT_EQ(test::run(nicd({}), second, std::chrono::seconds(40)), 1) << second;
    EXPECT_NE(second.find("not starting: nicd (pid " + pid + ") runs on"), std::string::npos)
        << second;
    EXPECT_TRUE(nicd_->running());
}
