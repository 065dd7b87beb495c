// Netdev state comes from rtnetlink events, not polling: with a one-minute poll interval, a veth
// taken down in nicd's network namespace shows in the textfile (and as a fatal condition) at once.
#include "sim.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

TEST(LinkEvents, VethDownInTheNamespaceShowsWithoutPolling)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root for ip netns";
    std::string ns = "nicdl" + std::to_string(getpid());
    if (std::system(("ip netns add " + ns + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "ip netns is not available here";
    auto dir = test::makeTempDir("links");
    struct Cleanup {
        std::string ns;
        fs::path dir;
        ~Cleanup()
        {
            (void)std::system(("ip netns del " + ns + " 2>/dev/null").c_str());
            fs::remove_all(dir);
        }
    } cleanup{ns, dir};

    // The veth carries the name of mlx5_0's netdev in the simulated tree.
    ASSERT_EQ(
        std::system(("ip -n " + ns + " link add ens1f0np0 type veth peer name peer0 && ip -n " +
                     ns + " link set peer0 up && ip -n " + ns + " link set ens1f0np0 up")
                        .c_str()),
        0);
    auto root = dir / "node";
    sim::create(root, {});
    std::ofstream(dir / "nicd.conf") << "[daemon]\nPollIntervalMs=60000\nPmaIntervalMs=60000\n";
    auto textfile = root / "var/lib/prometheus/node-exporter/nicd.prom";
    test::Process nicd({"ip", "netns", "exec", ns, NICD_BIN, "--root", root.string(), "--config",
                        (dir / "nicd.conf").string(), "--plugin-directory", NICD_BUILD_PLUGIN_DIR,
                        "--no-dbus"},
                       {}, dir / "nicd.log");
    const std::string up_line =
        "nicd_netdev_up{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 1";
    const std::string down_line =
        "nicd_netdev_up{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 0";
    ASSERT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile).find(up_line) != std::string::npos; }, 10s))
        << test::readFile(dir / "nicd.log");

    ASSERT_EQ(std::system(("ip -n " + ns + " link set ens1f0np0 down").c_str()), 0);
    EXPECT_TRUE(test::waitFor(
        [&] { return test::readFile(textfile).find(down_line) != std::string::npos; }, 3s))
        << test::readFile(dir / "nicd.log");
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
    nicd.signal(SIGTERM);
    EXPECT_EQ(nicd.wait(5s), 0);
}
