// Link events from the kernel: veth0 taken down takes rxe0's port down with it, and the running
// nicd says so from rtnetlink, long before its next poll (an hour away here); brought up, the
// port recovers the same way.
#include "support/rxe_node.hpp"

#include <signal.h>

#include <chrono>

using namespace nicd;
using namespace nicd::test;
using namespace std::chrono_literals;

namespace {

class RxeLink : public RxeNodeTest {
protected:
    void TearDown() override
    {
        shell("ip link set veth0 up");
        RxeNodeTest::TearDown();
    }
};

TEST_F(RxeLink, DownAndUpAreSeenFromRtnetlinkBeforeAnyPoll)
{
    writeConfig("", "PollIntervalMs=3600000\n");
    const auto log = dir_ / "nicd.log";
    Process d({NICD_BIN, "--no-dbus", "--config", conf_.string()}, {}, log);
    const std::string healthy = "nicd_port_health{device=\"rxe0\",port=\"1\"} 0";
    const std::string fatal = "nicd_port_health{device=\"rxe0\",port=\"1\"} 2";
    ASSERT_TRUE(
        waitFor([&] { return readFile(textfile()).find(healthy) != std::string::npos; }, 30s))
        << readFile(log);

    const auto down_at = std::chrono::steady_clock::now();
    ASSERT_EQ(shell("ip link set veth0 down"), 0);
    ASSERT_TRUE(waitFor([&] { return readFile(textfile()).find(fatal) != std::string::npos; }, 20s))
        << readFile(textfile()) << readFile(log);
    const auto took = std::chrono::steady_clock::now() - down_at;
    std::cout << "veth0 down to rxe0's fatal verdict in the textfile: "
              << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms\n";
    const auto prom = readFile(textfile());
    EXPECT_NE(prom.find("nicd_netdev_up{device=\"rxe0\",port=\"1\",netdev=\"veth0\"} 0"),
              std::string::npos)
        << prom;
    EXPECT_NE(readFile(log).find("veth0: link down"), std::string::npos) << readFile(log);

    ASSERT_EQ(shell("ip link set veth0 up"), 0);
    EXPECT_TRUE(
        waitFor([&] { return readFile(textfile()).find(healthy) != std::string::npos; }, 20s))
        << readFile(textfile()) << readFile(log);
    d.signal(SIGTERM);
    EXPECT_EQ(d.wait(10s), 0) << readFile(log);
}

} // namespace
