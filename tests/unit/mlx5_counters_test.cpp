// The mlx5 plugin's readers: `ethtool -S` text (real dumps), hw_counters (a real H100 node), and
// the kernel's ethtool ioctl on a real veth inside a network namespace.
#include "ethtool_stats.hpp"
#include "hw_counters.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
namespace pv1 = nicd::plugin::v1;
using namespace nicd;

namespace {

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::map<std::string, uint64_t> asMap(const mlx5::Stats& s)
{
    return {s.begin(), s.end()};
}

} // namespace

TEST(EthtoolText, ParsesARealMlx5Dump)
{
    auto text = slurp(fs::path(NICD_SHARED_DIR) / "fixtures/ethtool/ethq-tests-mlx5_core.txt");
    auto stats = mlx5::parseEthtoolText(text);
    EXPECT_EQ(stats.size(), 751U);
    auto m = asMap(stats);
    EXPECT_EQ(m.at("rx_packets"), 845320277U);
    EXPECT_EQ(m.at("tx_bytes"), 2655285206479U);
    EXPECT_EQ(m.at("rx_vport_unicast_packets"), 844884988U);
    EXPECT_EQ(m.at("rx_discards_phy"), 0U);
    EXPECT_EQ(stats.front().first, "rx_packets"); // order kept
}

TEST(EthtoolText, ParsesTheOldNamingWithIndentationAndHeader)
{
    auto text = "NIC statistics:\n" +
                slurp(fs::path(NICD_SHARED_DIR) /
                      "fixtures/ethtool/ethq-tests-mlx5_core.2018-10-08-old-naming.txt");
    auto m = asMap(mlx5::parseEthtoolText(text));
    EXPECT_EQ(m.at("rx_packets"), 5487361U);
    EXPECT_EQ(m.at("tx_bytes"), 5813725708U);
    EXPECT_FALSE(m.contains("NIC statistics"));
}

TEST(EthtoolText, SkipsMalformedLines)
{
    auto m = asMap(
        mlx5::parseEthtoolText("a: 1\nb: -2\nc: x\nno colon\n: 5\nd:7\ne: 18446744073709551615\n"));
    EXPECT_EQ(m.size(), 3U);
    EXPECT_EQ(m.at("a"), 1U);
    EXPECT_EQ(m.at("d"), 7U);
    EXPECT_EQ(m.at("e"), UINT64_MAX);
}

TEST(HwCounters, RealH100Node)
{
    pv1::DeviceRef dev;
    dev.ibdev = "mlx5_0";
    dev.sysfs_path =
        std::string(NICD_SHARED_DIR) + "/fixtures/gpud/sys-class-infiniband-h100.0/mlx5_0";
    dev.ports.push_back({1, "InfiniBand", {}});
    std::vector<pv1::Sample> out;
    auto s = mlx5::readHwCounters(dev, out);
    EXPECT_TRUE(s) << s.message;
    EXPECT_EQ(out.size(), 26U);
    std::map<std::string, pv1::Sample> by;
    for (const auto& x : out)
        by[x.name] = x;
    EXPECT_EQ(by.at("rx_write_requests").value, 3809045607U);
    EXPECT_EQ(by.at("rx_read_requests").value, 9187392U);
    EXPECT_EQ(by.at("rx_write_requests").kind, pv1::SampleKind::Counter);
    EXPECT_EQ(by.at("lifespan").value, 12U);
    EXPECT_EQ(by.at("lifespan").kind, pv1::SampleKind::Gauge);
    EXPECT_EQ(by.at("out_of_buffer").source, "hw_counters");
    EXPECT_EQ(by.at("out_of_buffer").port, 1U);
}

TEST(HwCounters, UnreadableFileIsReportedAndTheRestRead)
{
    auto dir = test::makeTempDir("hw");
    fs::create_directories(dir / "ports/1/hw_counters/broken");
    std::ofstream(dir / "ports/1/hw_counters/out_of_buffer") << "41\n";
    std::ofstream(dir / "ports/1/hw_counters/garbage") << "n/a\n";
    pv1::DeviceRef dev;
    dev.sysfs_path = dir.string();
    dev.ports.push_back({1, "Ethernet", {}});
    std::vector<pv1::Sample> out;
    auto s = mlx5::readHwCounters(dev, out);
    EXPECT_FALSE(s);
    EXPECT_NE(s.message.find("hw_counters/broken"), std::string::npos) << s.message;
    ASSERT_EQ(out.size(), 1U);
    EXPECT_EQ(out[0].value, 41U);
    fs::remove_all(dir);
}

// The real kernel path: a veth in a network namespace of our own answers ETHTOOL_GSTATS.
TEST(EthtoolIoctl, ReadsAVethInANetworkNamespace)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root for ip netns";
    std::string ns = "nicdt" + std::to_string(getpid());
    if (std::system(("ip netns add " + ns + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "ip netns is not available here";
    ASSERT_EQ(std::system(("ip -n " + ns + " link add nicdv0 type veth peer name nicdv1 && ip -n " +
                           ns + " link set nicdv0 up && ip -n " + ns + " link set nicdv1 up")
                              .c_str()),
              0);
    int pipefd[2];
    ASSERT_EQ(pipe(pipefd), 0);
    pid_t child = fork();
    if (child == 0) { // enter the namespace in a child so the test process stays where it was
        int fd = open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWNET) != 0)
            _exit(2);
        mlx5::Stats stats;
        auto s = mlx5::readEthtoolIoctl("nicdv0", stats);
        std::string report = s ? "ok\n" : "fail " + s.message + "\n";
        for (const auto& [n, v] : stats)
            report += n + "=" + std::to_string(v) + "\n";
        mlx5::Stats none;
        auto missing = mlx5::readEthtoolIoctl("nosuchdev0", none);
        report += missing ? "missing-ok\n" : "missing " + missing.message + "\n";
        (void)!write(pipefd[1], report.data(), report.size());
        _exit(0);
    }
    close(pipefd[1]);
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = read(pipefd[0], buf, sizeof buf)) > 0)
        out.append(buf, static_cast<size_t>(n));
    close(pipefd[0]);
    int status = 0;
    waitpid(child, &status, 0);
    (void)std::system(("ip netns del " + ns).c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
    EXPECT_EQ(out.substr(0, 3), "ok\n") << out;
    EXPECT_NE(out.find("\npeer_ifindex="), std::string::npos) << out;
    EXPECT_NE(out.find("missing nosuchdev0: ethtool GSSET_INFO: No such device"), std::string::npos)
        << out;
}
