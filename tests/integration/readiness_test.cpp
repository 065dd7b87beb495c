// Readiness of compute ports end to end on nicd-sim's default node (four compute RoCE NICs, each
// beside a GPU below its root port) and on an HGX H100 node (--profile hgx-h100): the healthy node
// is all ready; each readiness fault of nicd-sim raises exactly its ready.* condition on exactly
// the affected port(s) and recovers when cleared; nicctl-facing values (nicd_port_ready) follow; a
// node without GPUs stays quiet. nicd runs --once against the tree (state kept between runs).
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <fstream>
#include <regex>
#include <set>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

using Strings = std::set<std::string>;
const Strings kCompute = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"};

class ReadinessTest : public test::DaemonTest {
public:
    void SetUp() override
    {
        DaemonTest::SetUp();
        config("");
    }
    void config(const std::string& extra)
    {
        writeConfig("[provision]\nMode=off\n[signals]\nIntervalSec=1\n" + extra);
    }
    // The textfile after `nicd --once`; what it printed is kept for failure messages.
    std::string once()
    {
        last_out_ = DaemonTest::once();
        return textfileText();
    }
    // "code@device:port severity action" of every active ready.* condition.
    static Strings ready(const std::string& text)
    {
        Strings out;
        std::regex re("nicd_condition_active\\{device=\"([^\"]*)\",port=\"([0-9]+)\",code=\""
                      "(ready\\.[a-z_]+)\",severity=\"([a-z]+)\",action=\"([a-z_]+)\"\\} 1");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            out.insert((*it)[3].str() + "@" + (*it)[1].str() + ":" + (*it)[2].str() + " " +
                       (*it)[4].str() + " " + (*it)[5].str());
        return out;
    }
    // device -> nicd_port_ready of port 1.
    static std::map<std::string, int> readyGauge(const std::string& text)
    {
        std::map<std::string, int> out;
        std::regex re("nicd_port_ready\\{device=\"([^\"]*)\",port=\"1\"\\} ([01])");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            out[(*it)[1].str()] = std::stoi((*it)[2].str());
        return out;
    }
    void inject(const std::vector<std::string>& args)
    {
        std::vector<std::string> argv{NICD_SIM_BIN, "inject", root_.string()};
        argv.insert(argv.end(), args.begin(), args.end());
        std::string out;
        ASSERT_EQ(test::run(argv, out), 0) << out;
    }

    std::string last_out_;
};

} // namespace

TEST_F(ReadinessTest, TheHealthyNodeIsAllReady)
{
    auto text = once();
    EXPECT_EQ(ready(text), Strings{}) << last_out_;
    // The four compute PFs are judged and ready; the IB and LAG storage NICs, the VF and the
    // uncabled port are not judged.
    EXPECT_EQ(readyGauge(text), (std::map<std::string, int>{
                                    {"mlx5_0", 1}, {"mlx5_1", 1}, {"mlx5_2", 1}, {"mlx5_3", 1}}));
}

// Each nicd-sim readiness fault raises exactly its condition on exactly the affected port (the
// GPUDirect one on every compute port of the node), nicd_port_ready follows, and the clear
// recovers it.
void eachFaultRaisesExactlyItsConditionAndRecovers(ReadinessTest& t, const Strings& compute)
{
    struct Case {
        std::vector<std::string> fault; // inject arguments; the clear is fault[0] + "-clear"
        Strings raised;
    };
    Strings gpudirect;
    for (const auto& dev : compute)
        gpudirect.insert("ready.no_gpudirect@" + dev + ":1 degraded check_host_config");
    const std::vector<Case> cases = {
        {{"gid-missing", "mlx5_1"}, {"ready.no_roce_gid@mlx5_1:1 fatal check_network_config"}},
        {{"mtu", "mlx5_2"}, {"ready.mtu_mismatch@mlx5_2:1 degraded check_network_config"}},
        {{"uverbs-missing", "mlx5_3"}, {"ready.no_uverbs@mlx5_3:1 fatal check_host_config"}},
        {{"acs-on", "mlx5_0"}, {"ready.acs_redirect@mlx5_0:1 degraded check_host_config"}},
        {{"peermem-unload"}, gpudirect},
    };
    EXPECT_EQ(ReadinessTest::ready(t.once()), Strings{});
    for (const auto& c : cases) {
        t.inject(c.fault);
        auto text = t.once();
        EXPECT_EQ(ReadinessTest::ready(text), c.raised) << c.fault[0] << "\n" << t.last_out_;
        for (const auto& dev : compute) {
            bool hit = false;
            for (const auto& r : c.raised)
                hit = hit || r.find("@" + dev + ":") != std::string::npos;
            EXPECT_EQ(ReadinessTest::readyGauge(text)[dev], hit ? 0 : 1)
                << c.fault[0] << " " << dev;
        }
        auto clear = c.fault;
        clear[0] += "-clear";
        t.inject(clear);
        EXPECT_EQ(ReadinessTest::ready(t.once()), Strings{}) << clear[0] << "\n" << t.last_out_;
    }
}

TEST_F(ReadinessTest, EachFaultRaisesExactlyItsConditionOnTheAffectedPortAndRecovers)
{
    eachFaultRaisesExactlyItsConditionAndRecovers(*this, kCompute);
}

// The same on an HGX H100 node (nicd-sim create --profile hgx-h100: 8 GPUs, a compute NIC beside
// each, 2 storage ports that are not judged).
class HgxReadinessTest : public ReadinessTest {
protected:
    sim::CreateOptions nodeOptions() const override
    {
        sim::CreateOptions o;
        sim::applyProfile(o, "hgx-h100");
        return o;
    }
};

TEST_F(HgxReadinessTest, EachFaultRaisesExactlyItsConditionOnTheAffectedPortAndRecovers)
{
    Strings compute;
    for (int i = 0; i < 8; ++i)
        compute.insert("mlx5_" + std::to_string(i));
    eachFaultRaisesExactlyItsConditionAndRecovers(*this, compute);
}

// The GPUs and their driver go: no NIC is compute any more unless Role= says so.
static void removeGpus(const fs::path& root)
{
    for (const char* gpu : {"0000:1a:01.0", "0000:3b:01.0", "0000:4c:01.0", "0000:5d:01.0"}) {
        auto dir = fs::canonical(root / "sys/bus/pci/devices" / gpu);
        fs::remove(root / "sys/bus/pci/devices" / gpu);
        fs::remove(root / "sys/bus/pci/drivers/nvidia" / gpu);
        fs::remove_all(dir);
    }
    fs::remove_all(root / "proc/driver/nvidia");
    fs::remove_all(root / "sys/module/nvidia_peermem");
}

TEST_F(ReadinessTest, ANodeWithoutGpusStaysQuiet)
{
    // The GPUs and their driver go: no NIC is compute any more, and nothing is judged.
    removeGpus(root_);
    auto text = once();
    EXPECT_EQ(ready(text), Strings{}) << last_out_;
    EXPECT_EQ(readyGauge(text), (std::map<std::string, int>{}));
    // A NIC made compute by Role= is judged on its own checks; those about GPUs are skipped.
    config("[device:mlx5_0]\nRole=compute\n");
    text = once();
    EXPECT_EQ(ready(text), Strings{}) << last_out_;
    EXPECT_EQ(readyGauge(text), (std::map<std::string, int>{{"mlx5_0", 1}}));
}

// The InfiniBand port (mlx5_4, a storage NIC on the default node) made compute by Role= on a node
// without GPUs (so only its own checks count): umad-missing raises exactly ready.no_umad on it,
// degraded with check_host_config, and its clear recovers it.
TEST_F(ReadinessTest, AnInfiniBandPortWithoutItsUmadNodeRaisesExactlyReadyNoUmad)
{
    removeGpus(root_);
    config("[device:mlx5_4]\nRole=compute\n");
    auto text = once();
    EXPECT_EQ(ready(text), Strings{}) << last_out_;
    EXPECT_EQ(readyGauge(text), (std::map<std::string, int>{{"mlx5_4", 1}}));
    inject({"umad-missing", "mlx5_4"});
    text = once();
    EXPECT_EQ(ready(text), Strings{"ready.no_umad@mlx5_4:1 degraded check_host_config"})
        << last_out_;
    EXPECT_EQ(readyGauge(text)["mlx5_4"], 0);
    EXPECT_NE(last_out_.find("umad4 in sysfs, but no /dev/infiniband/umad4 (udev did not make it)"),
              std::string::npos)
        << last_out_;
    inject({"umad-missing-clear", "mlx5_4"});
    EXPECT_EQ(ready(once()), Strings{}) << last_out_;
}

// RoCE ports have no subnet manager: a compute RoCE port whose umad and issm nodes are gone
// raises nothing.
TEST_F(ReadinessTest, ARoCEPortWithoutItsUmadNodeRaisesNothing)
{
    inject({"umad-missing", "mlx5_0"});
    auto text = once();
    EXPECT_EQ(ready(text), Strings{}) << last_out_;
    EXPECT_EQ(readyGauge(text)["mlx5_0"], 1);
}

// A platform that makes no issm nodes at all (GB300, NVSentinel issue 1716): the InfiniBand port
// has its umad and no issm, in sysfs or /dev, and that is no fault.
TEST_F(ReadinessTest, AnInfiniBandNodeWithoutAnyIssmRaisesNothing)
{
    removeGpus(root_);
    config("[device:mlx5_4]\nRole=compute\n");
    const auto issm = fs::canonical(root_ / "sys/class/infiniband_mad/issm4");
    ASSERT_EQ(test::readFile(issm / "ibdev"), "mlx5_4\n");
    fs::remove_all(issm);
    fs::remove(root_ / "sys/class/infiniband_mad/issm4");
    fs::remove(root_ / "dev/infiniband/issm4");
    auto text = once();
    EXPECT_EQ(ready(text), Strings{}) << last_out_;
    EXPECT_EQ(readyGauge(text), (std::map<std::string, int>{{"mlx5_4", 1}}));
    inject({"umad-missing", "mlx5_4"}); // umad is still asked
    EXPECT_EQ(ready(once()), Strings{"ready.no_umad@mlx5_4:1 degraded check_host_config"})
        << last_out_;
}
