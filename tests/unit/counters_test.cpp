// The plugin SDK's counter readers (mlx5 and bnxt read through them): `ethtool -S` text (real
// dumps), hw_counters (a real H100 node), and the kernel's ethtool ioctl on a real veth inside a
// network namespace.
#include "support/ethtool_text_stats.hpp"
#include "support/hw_counter_samples.hpp"
#include "support/sim_tree.hpp"
#include "support/temp_dir.hpp"

#include <nicd/plugin/sdk/ethtool_ioctl.h>
#include <nicd/plugin/sdk/ethtool_text.h>
#include <nicd/plugin/sdk/hw_counters.h>
#include <nicd/plugin/sdk/netdev_stats.h>

#include <fcntl.h>
#include <linux/ethtool.h>
#include <net/if.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
namespace pv1 = nicd::plugin::v1;
namespace sdk = nicd::plugin::sdk;
using namespace nicd;

namespace {

std::map<std::string, uint64_t> asMap(const sdk::Stats& s)
{
    return {s.begin(), s.end()};
}

} // namespace

TEST(EthtoolText, ParsesARealMlx5Dump)
{
    auto text =
        test::readFile(fs::path(NICD_SHARED_DIR) / "fixtures/ethtool/ethq-tests-mlx5_core.txt");
    auto stats = test::parseEthtoolText(text);
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
                test::readFile(fs::path(NICD_SHARED_DIR) /
                               "fixtures/ethtool/ethq-tests-mlx5_core.2018-10-08-old-naming.txt");
    auto m = asMap(test::parseEthtoolText(text));
    EXPECT_EQ(m.at("rx_packets"), 5487361U);
    EXPECT_EQ(m.at("tx_bytes"), 5813725708U);
    EXPECT_FALSE(m.contains("NIC statistics"));
}

TEST(EthtoolText, SkipsMalformedLines)
{
    auto m = asMap(
        test::parseEthtoolText("a: 1\nb: -2\nc: x\nno colon\n: 5\nd:7\ne: 18446744073709551615\n"));
    EXPECT_EQ(m.size(), 3U);
    EXPECT_EQ(m.at("a"), 1U);
    EXPECT_EQ(m.at("d"), 7U);
    EXPECT_EQ(m.at("e"), UINT64_MAX);
}

// A poll of a netdev's text into a batch, as the plugin makes it: the batch's layout is the last
// poll's (the reference the builder checks each line's name against).
sdk::Stats pollText(pv1::SampleBatch& batch, std::string_view text)
{
    plugin::sdk::SampleBatchBuilder out(batch);
    plugin::sdk::SampleBatchBuilder::Run run(out, "ethtool", 1, "eth0", pv1::SampleKind::Counter);
    sdk::addEthtoolText(text, run);
    out.finish();
    sdk::Stats stats;
    for (const auto& s : plugin::sdk::toSamples(batch))
        stats.emplace_back(s.name, s.value);
    return stats;
}

TEST(EthtoolText, APollAgainstTheLastLayoutReadsWhatAWholeParseReads)
{
    const std::string first =
        "NIC statistics:\n" +
        test::readFile(fs::path(NICD_SHARED_DIR) / "fixtures/ethtool/ethq-tests-mlx5_core.txt");
    pv1::SampleBatch batch;
    ASSERT_EQ(pollText(batch, first), test::parseEthtoolText(first));
    const auto* layout = batch.layout.get();
    // The next poll: new values of other widths, then lines that are not what the layout says.
    std::string next = first;
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"rx_packets: 845320277", "rx_packets: 7"},
          {"tx_bytes: 2655285206479", "tx_bytes:18446744073709551615 "}})
        next.replace(next.find(from), from.size(), to);
    EXPECT_EQ(pollText(batch, next), test::parseEthtoolText(next));
    EXPECT_EQ(batch.layout.get(), layout) << "the same statistics keep their layout";
    EXPECT_EQ(asMap(pollText(batch, next)).at("tx_bytes"), UINT64_MAX);
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"rx_bytes:", "rx_bytes_renamed:"},
          {"tx_packets: ", "tx_packets: x"},
          {"rx_csum_none: ", "rx_csum_none: 18446744073709551616"}}) {
        std::string changed = first;
        changed.replace(changed.find(from), from.size(), to);
        pv1::SampleBatch b;
        pollText(b, first);
        EXPECT_EQ(pollText(b, changed), test::parseEthtoolText(changed)) << to;
    }
}

TEST(EthtoolText, ALineOfTheExpectedNameIsOnlyTheStatisticItself)
{
    // What ethtoolLine makes of each line, the check against an expected name must agree with.
    for (std::string_view line :
         {"     rx_packets: 12", "rx_packets:12", "\trx_packets \t: 12 \r", "rx_packets: 12 13",
          "rx_packets: -12", "rx_packets: 12x", "rx_packets:", "rx_packets: 18446744073709551616",
          "rx_packets_phy: 12", "x rx_packets: 12", "rx_packets: 1: 2", "rx_packets"}) {
        std::string_view name;
        uint64_t whole = 0;
        uint64_t named = 0;
        const bool stat = sdk::detail::ethtoolLine(line, name, whole) && name == "rx_packets";
        EXPECT_EQ(sdk::detail::ethtoolLineNamed(line, "rx_packets", named), stat) << line;
        if (stat) {
            EXPECT_EQ(named, whole) << line;
        }
    }
    uint64_t v = 0;
    EXPECT_TRUE(sdk::detail::ethtoolLineNamed("a:b: 5", "a:b", v));
    EXPECT_FALSE(sdk::detail::ethtoolLineNamed("a:b: 5", "a", v)) << "the last colon names it";
}

TEST(HwCounters, RealH100Node)
{
    pv1::DeviceRef dev;
    dev.ibdev = "mlx5_0";
    dev.sysfs_path =
        std::string(NICD_SHARED_DIR) + "/fixtures/gpud/sys-class-infiniband-h100.0/mlx5_0";
    dev.ports.push_back({1, "InfiniBand", {}});
    std::vector<pv1::Sample> out;
    nicd::plugin::sdk::Backoff backoff;
    sdk::HwCounterDirs dirs;
    auto s = test::readHwCounterSamples(dev, backoff, dirs, out);
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

TEST(HwCounters, UnreadableFileIsReportedBackedOffAndTheRestRead)
{
    auto dir = test::makeTempDir("hw");
    fs::create_directories(dir / "ports/1/hw_counters/broken"); // read() fails with EISDIR
    std::ofstream(dir / "ports/1/hw_counters/out_of_buffer") << "41\n";
    std::ofstream(dir / "ports/1/hw_counters/garbage") << "N/A (no PMA)\n";
    pv1::DeviceRef dev;
    dev.sysfs_path = dir.string();
    dev.ports.push_back({1, "Ethernet", {}});
    dev.ports.push_back({2, "Ethernet", {}}); // no hw_counters directory: nothing, no error
    nicd::plugin::sdk::Backoff backoff;
    sdk::HwCounterDirs dirs;
    std::vector<pv1::Sample> out;
    sdk::HwCounterChanges changes;
    auto s = test::readHwCounterSamples(dev, backoff, dirs, out, &changes);
    EXPECT_FALSE(s);
    EXPECT_NE(s.message.find("hw_counters/broken: Is a directory"), std::string::npos) << s.message;
    ASSERT_EQ(out.size(), 1U);
    EXPECT_EQ(out[0].name, "out_of_buffer");
    EXPECT_EQ(out[0].value, 41U);
    ASSERT_EQ(changes.failed.size(), 2U);
    EXPECT_NE(changes.failed[1].find("garbage: not a counter value: 'N/A (no PMA)'"),
              std::string::npos)
        << changes.failed[1];

    // The next read skips both failing files (backoff) and still reads the good one.
    out.clear();
    changes = {};
    s = test::readHwCounterSamples(dev, backoff, dirs, out, &changes);
    EXPECT_TRUE(s) << "failing files are not retried on the very next read: " << s.message;
    EXPECT_EQ(out.size(), 1U);
    EXPECT_TRUE(changes.failed.empty());

    // Fixed: read again once its backoff has passed, and reported as recovered.
    std::ofstream(dir / "ports/1/hw_counters/garbage") << "7\n";
    out.clear();
    s = test::readHwCounterSamples(dev, backoff, dirs, out, &changes);
    EXPECT_FALSE(s); // "broken" is still a directory
    ASSERT_EQ(changes.recovered.size(), 1U);
    EXPECT_NE(changes.recovered[0].find("hw_counters/garbage"), std::string::npos);
    EXPECT_EQ(out.size(), 2U);
    fs::remove_all(dir);
}

TEST(EthtoolIoctlBuffers, NamesAreFixedSlotsTrimmedAndPairedWithValues)
{
    // Three 32-byte slots: a full slot with no NUL, a name with a trailing space (one mlx5
    // release has "tx_pause_storm_warning_events "), and an empty slot.
    std::string slots(3 * ETH_GSTRING_LEN, '\0');
    const std::string full(ETH_GSTRING_LEN, 'a');
    std::memcpy(slots.data(), full.data(), full.size());
    const std::string spaced = "tx_pause_storm_warning_events ";
    std::memcpy(slots.data() + ETH_GSTRING_LEN, spaced.data(), spaced.size());
    const uint64_t values[] = {1, 2, 3};
    auto stats = sdk::pairEthtoolStats(slots.data(), values, 3);
    ASSERT_EQ(stats.size(), 2U);
    EXPECT_EQ(stats[0].first, full);
    EXPECT_EQ(stats[0].second, 1U);
    EXPECT_EQ(stats[1].first, "tx_pause_storm_warning_events");
    EXPECT_EQ(stats[1].second, 2U);
}

TEST(NetdevStats, SimulatedRootReadsTheSimulatorsFile)
{
    auto root = test::makeTempDir("simstats");
    fs::create_directories(root / "run/nicd-sim/ethtool");
    std::ofstream(root / "run/nicd-sim/ethtool/ens1f0np0")
        << "NIC statistics:\n     rx_prio3_pause: 12\n     rx_discards_phy: 5\n";
    sdk::SimStatsFile file((root / "run/nicd-sim/ethtool/ens1f0np0").string());
    std::string buf;
    std::string_view text;
    auto s = file.read(buf, text);
    ASSERT_TRUE(s) << s.message;
    EXPECT_EQ(asMap(test::parseEthtoolText(text)),
              (std::map<std::string, uint64_t>{{"rx_prio3_pause", 12}, {"rx_discards_phy", 5}}));
    // A netdev the simulator has no statistics for (a bond): NotSupported, naming the file.
    sdk::SimStatsFile bond((root / "run/nicd-sim/ethtool/bond0").string());
    s = bond.read(buf, text);
    EXPECT_EQ(s.code, pv1::Errc::NotSupported);
    EXPECT_NE(s.message.find("run/nicd-sim/ethtool/bond0"), std::string::npos) << s.message;
    fs::remove_all(root);
}

// The real kernel path: a veth in a network namespace of our own answers ETHTOOL_GSTATS. The
// namespace is entered in a forked child so the test process stays where it was.
namespace {

struct NetnsGuard {
    std::string name;
    ~NetnsGuard() { (void)std::system(("ip netns del " + name + " 2>/dev/null").c_str()); }
};

// Runs `fn` in a child inside /run/netns/<ns>; returns what it wrote, or "" with `ok` false.
template <typename Fn> std::string inNetns(const std::string& ns, Fn fn, bool& ok)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return {};
    pid_t child = fork();
    if (child == 0) {
        close(pipefd[0]);
        int fd = open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWNET) != 0)
            _exit(2);
        std::string report = fn();
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
    ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return out;
}

} // namespace

TEST(EthtoolIoctl, ReadsAVethInANetworkNamespace)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "needs root for ip netns";
    NetnsGuard ns{"nicdt" + std::to_string(getpid())};
    if (std::system(("ip netns add " + ns.name + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "ip netns is not available here";
    const std::string ip = "ip -n " + ns.name + " link ";
    ASSERT_EQ(std::system((ip + "add nicdv0 type veth peer name nicdv1 && " + ip +
                           "set nicdv0 up && " + ip + "set nicdv1 up")
                              .c_str()),
              0);
    bool ok = false;
    auto out = inNetns(
        ns.name,
        [] {
            std::string r;
            sdk::Stats stats;
            auto s = sdk::readEthtoolIoctl("nicdv0", stats);
            r += s ? "ok\n" : "fail " + s.message + "\n";
            for (const auto& [n, v] : stats)
                r += n + "=" + std::to_string(v) + "\n";
            r += "expected_peer=" + std::to_string(if_nametoindex("nicdv1")) + "\n";
            sdk::Stats none;
            auto missing = sdk::readEthtoolIoctl("nosuchdev0", none);
            r += "missing code=" + std::to_string(static_cast<int>(missing.code)) + " " +
                 missing.message + "\n";
            auto lo = sdk::readEthtoolIoctl("lo", none);
            r += "lo code=" + std::to_string(static_cast<int>(lo.code)) + " " + lo.message + "\n";
            return r;
        },
        ok);
    ASSERT_TRUE(ok) << out;
    EXPECT_EQ(out.substr(0, 3), "ok\n") << out;
    // veth reports its peer's ifindex as a statistic: the value must be nicdv1's.
    auto peer = out.find("\npeer_ifindex=");
    auto expected = out.find("\nexpected_peer=");
    ASSERT_NE(peer, std::string::npos) << out;
    ASSERT_NE(expected, std::string::npos) << out;
    auto value = [&](size_t at) {
        at = out.find('=', at) + 1;
        return out.substr(at, out.find('\n', at) - at);
    };
    EXPECT_EQ(value(peer), value(expected)) << out;
    EXPECT_NE(value(expected), "0");
    EXPECT_NE(out.find("missing code=" + std::to_string(static_cast<int>(pv1::Errc::NoDevice)) +
                       " nosuchdev0: ethtool GSSET_INFO: No such device"),
              std::string::npos)
        << out;
    // The loopback device has no driver statistics.
    EXPECT_NE(out.find("lo code=" + std::to_string(static_cast<int>(pv1::Errc::NotSupported))),
              std::string::npos)
        << out;
}
