// Netdev state comes from rtnetlink events, not polling: with a one-minute poll interval, a veth
// taken down in nicd's network namespace shows in the textfile (and as a fatal condition) at once.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

class LinkEvents : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "links"; }
    // A poll a minute: what shows sooner came from an event.
    std::string baseConfig() const override
    {
        return "[daemon]\nPollIntervalMs=60000\nPmaIntervalMs=60000\n";
    }
    void TearDown() override
    {
        if (!ns_.empty())
            (void)std::system(("ip netns del " + ns_ + " 2>/dev/null").c_str());
        DaemonTest::TearDown();
    }

    std::string ns_; // the network namespace nicd runs in
};

} // namespace

TEST_F(LinkEvents, VethDownInTheNamespaceShowsWithoutPolling)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root for ip netns";
    std::string ns = "nicdl" + std::to_string(getpid());
    if (std::system(("ip netns add " + ns + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "ip netns is not available here";
    ns_ = ns;

    // The veth carries the name of mlx5_0's netdev in the simulated tree.
    ASSERT_EQ(
        std::system(("ip -n " + ns + " link add ens1f0np0 type veth peer name peer0 && ip -n " +
                     ns + " link set peer0 up && ip -n " + ns + " link set ens1f0np0 up")
                        .c_str()),
        0);
    auto argv = nicd();
    argv.insert(argv.begin(), {"ip", "netns", "exec", ns});
    test::Process daemon(argv, {}, dir_ / "nicd.log");
    const auto textfile = this->textfile();
    const std::string up_line =
        "nicd_netdev_up{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 1";
    const std::string down_line =
        "nicd_netdev_up{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 0";
    ASSERT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile).find(up_line) != std::string::npos; }, 10s))
        << log();

    ASSERT_EQ(std::system(("ip -n " + ns + " link set ens1f0np0 down").c_str()), 0);
    EXPECT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile).find(down_line) != std::string::npos; }, 3s))
        << log();
    auto text = test::readFile(textfile);
    EXPECT_NE(
        text.find(
            "nicd_condition_active{device=\"mlx5_0\",port=\"1\",code=\"netdev_down.ens1f0np0\","
            "severity=\"fatal\",action=\"check_cable\"} 1"),
        std::string::npos);
    EXPECT_NE(text.find("nicd_port_health{device=\"mlx5_0\",port=\"1\"} 2"), std::string::npos);
    EXPECT_NE(text.find("nicd_cycles_total 1\n"), std::string::npos)
        << "seen without a second poll";

    ASSERT_EQ(std::system(("ip -n " + ns + " link set ens1f0np0 up").c_str()), 0);
    EXPECT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile).find(up_line) != std::string::npos; }, 3s));
    EXPECT_TRUE(test::waitFor(
        [&] {
            return test::readFile(textfile).find(
                       "nicd_port_health{device=\"mlx5_0\",port=\"1\"} 0") != std::string::npos;
        },
        3s));
    daemon.signal(SIGTERM);
    EXPECT_EQ(daemon.wait(5s), 0);
}
