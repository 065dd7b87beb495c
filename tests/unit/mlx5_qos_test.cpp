// verifyQos/applyQos of the mlx5 plugin on a simulated node: a fresh NIC (trust PCP, PFC off,
// ToS 0) is brought to DSCP trust, PFC on priority 3 and ToS 106; a second apply writes nothing;
// a dry run writes nothing; drift injected by nicd-sim is seen; a netdev without DCB is a clean
// per-port error. The simulator writes the DCB files with its own code, so these tests also
// check that it and the plugin agree on the format.
#include "dcb_state.hpp"
#include "qos/qos.hpp"
#include "sim.hpp"
#include "support/qos_settings.hpp"
#include "support/sim_host.hpp"
#include "support/sim_tree.hpp"

#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;
namespace pv1 = nicd::plugin::v1;

namespace {

// A daemon of ABI 1.0/1.1: the ECN settings (1.2) are left out here; mlx5_ecn_test has them.
using SimHost = test::SimHost;

class Mlx5Qos : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::create(dir_, {});
        host_ = std::make_unique<SimHost>(dir_, 1);
    }

    static pv1::DeviceRef device(const std::string& ibdev, std::vector<std::string> netdevs,
                                 const std::string& link_layer = "Ethernet")
    {
        pv1::DeviceRef d;
        d.ibdev = ibdev;
        d.driver = "mlx5_core";
        d.ports.push_back({1, link_layer, std::move(netdevs)});
        return d;
    }

    pv1::Status verify(const pv1::DeviceRef& d, pv1::QosReport& r, pv1::QosDesired want = {})
    {
        if (want.pfc_priorities.empty())
            want.pfc_priorities = {3};
        return plugin::sdk::runQos(*host_, d, d.ports[0], want, r, false, mlx5::qosSteps());
    }

    pv1::Status apply(const pv1::DeviceRef& d, pv1::QosReport& r, pv1::QosDesired want = {})
    {
        if (want.pfc_priorities.empty())
            want.pfc_priorities = {3};
        return plugin::sdk::runQos(*host_, d, d.ports[0], want, r, true, mlx5::qosSteps());
    }

    static std::vector<std::string> names(const pv1::QosReport& r)
    {
        std::vector<std::string> out;
        for (const auto& s : r.settings)
            out.push_back(s.setting);
        return out;
    }

    // Everything QoS writes: the DCB files and configfs (the rest is the simulator's).
    test::TreeSnapshot qosFiles()
    {
        auto snap = test::snapshotTree(dir_);
        std::erase_if(snap, [](const auto& kv) {
            return !kv.first.starts_with("run/nicd-sim/dcb/") &&
                   !kv.first.starts_with("sys/kernel/config/");
        });
        return snap;
    }

    fs::path trafficClass(const std::string& ibdev)
    {
        return dir_ / "sys/class/infiniband" / ibdev / "tc/1/traffic_class";
    }

    std::unique_ptr<SimHost> host_;
    pv1::DeviceRef pf_ = device("mlx5_0", {"ens1f0np0"});
};

} // namespace

TEST_F(Mlx5Qos, FreshNodeIsNotCompliant)
{
    pv1::QosReport r;
    ASSERT_TRUE(verify(pf_, r));
    EXPECT_EQ(names(r), (std::vector<std::string>{"trust", "pfc", "roce_tos"}));
    const auto& trust = test::settingOf(r, "trust");
    EXPECT_EQ(trust.desired, "dscp");
    EXPECT_EQ(trust.observed, "pcp");
    EXPECT_FALSE(trust.compliant);
    EXPECT_EQ(test::settingOf(r, "pfc").desired, "3");
    EXPECT_EQ(test::settingOf(r, "pfc").observed, "none");
    EXPECT_EQ(test::settingOf(r, "roce_tos").desired, "106");
    EXPECT_EQ(test::settingOf(r, "roce_tos").observed, "0");
    for (const auto& s : r.settings) {
        EXPECT_FALSE(s.compliant) << s.setting;
        EXPECT_FALSE(s.changed) << s.setting;
        EXPECT_EQ(s.error, "") << s.setting;
    }
    EXPECT_TRUE(host_->lines.empty());
}

TEST_F(Mlx5Qos, ApplyMakesCompliantAndChangesOnlyThePfcEnableBits)
{
    pv1::QosReport r;
    ASSERT_TRUE(apply(pf_, r)) << r.settings.size();
    for (const auto& s : r.settings) {
        EXPECT_TRUE(s.compliant) << s.setting << ": " << s.observed << " " << s.error;
        EXPECT_TRUE(s.changed) << s.setting;
    }
    EXPECT_EQ(test::settingOf(r, "trust").observed, "dscp");
    EXPECT_EQ(test::settingOf(r, "pfc").observed, "3");
    EXPECT_EQ(test::settingOf(r, "roce_tos").observed, "106");
    EXPECT_EQ(host_->lines.size(), 3U);

    // Read with the simulator's own parser.
    auto dcb = sim::readDcb(dir_, "ens1f0np0");
    EXPECT_EQ(dcb.pfc_en, 0x08);
    EXPECT_EQ(dcb.pfc_cap, 8);
    EXPECT_EQ(dcb.delay, 7);
    ASSERT_EQ(dcb.apps.size(), 64U);
    EXPECT_NE(std::find(dcb.apps.begin(), dcb.apps.end(), sim::DcbApp{5, 3, 26}), dcb.apps.end());
    EXPECT_EQ(test::readFile(dir_ / "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"),
              "106\n");

    pv1::QosReport v;
    ASSERT_TRUE(verify(pf_, v));
    for (const auto& s : v.settings)
        EXPECT_TRUE(s.compliant) << s.setting;
}

TEST_F(Mlx5Qos, SecondApplyChangesNothing)
{
    pv1::QosReport first, second;
    ASSERT_TRUE(apply(pf_, first));
    auto before = qosFiles();
    host_->lines.clear();
    ASSERT_TRUE(apply(pf_, second));
    for (const auto& s : second.settings) {
        EXPECT_FALSE(s.changed) << s.setting;
        EXPECT_TRUE(s.compliant) << s.setting;
    }
    EXPECT_EQ(qosFiles(), before);
    EXPECT_TRUE(host_->lines.empty());
}

TEST_F(Mlx5Qos, DryRunReportsWhatWouldChangeAndWritesNothing)
{
    pv1::QosReport v;
    ASSERT_TRUE(verify(pf_, v)); // makes the rdma_cm group, as reading it on a real node does
    auto before = qosFiles();
    pv1::QosReport r;
    ASSERT_TRUE(apply(pf_, r, {.trust_dscp = true, .pfc_priorities = {3}, .dry_run = true}));
    for (const auto& s : r.settings) {
        EXPECT_TRUE(s.changed) << s.setting;
        EXPECT_FALSE(s.compliant) << s.setting;
    }
    EXPECT_EQ(qosFiles(), before);
    ASSERT_EQ(host_->lines.size(), 3U);
    for (const auto& line : host_->lines)
        EXPECT_TRUE(line.starts_with("dry run: would change")) << line;
}

TEST_F(Mlx5Qos, InjectedDriftIsSeenAndRepaired)
{
    pv1::QosReport r;
    ASSERT_TRUE(apply(pf_, r));
    sim::qosDrift(dir_, "mlx5_0");
    sim::tosReset(dir_, "mlx5_0");
    pv1::QosReport v;
    ASSERT_TRUE(verify(pf_, v));
    EXPECT_EQ(test::settingOf(v, "trust").observed, "pcp");
    EXPECT_EQ(test::settingOf(v, "pfc").observed, "4");
    EXPECT_EQ(test::settingOf(v, "roce_tos").observed, "0");
    for (const auto& s : v.settings)
        EXPECT_FALSE(s.compliant) << s.setting;

    pv1::QosReport again;
    ASSERT_TRUE(apply(pf_, again));
    for (const auto& s : again.settings) {
        EXPECT_TRUE(s.changed) << s.setting;
        EXPECT_TRUE(s.compliant) << s.setting;
    }
    EXPECT_EQ(sim::readDcb(dir_, "ens1f0np0").pfc_en, 0x08);
}

TEST_F(Mlx5Qos, ForeignDscpEntriesAreReplacedByTheDefaultMap)
{
    auto dcb = sim::readDcb(dir_, "ens1f0np0");
    dcb.apps = {{5, 5, 26}, {1, 4, 0x8906}};
    sim::writeDcb(dir_, "ens1f0np0", dcb);
    pv1::QosReport v;
    ASSERT_TRUE(verify(pf_, v));
    EXPECT_EQ(test::settingOf(v, "trust").observed, "dscp (0 of 64 default entries, 1 other)");
    pv1::QosReport r;
    ASSERT_TRUE(apply(pf_, r));
    EXPECT_TRUE(test::settingOf(r, "trust").compliant) << test::settingOf(r, "trust").error;
    auto after = sim::readDcb(dir_, "ens1f0np0");
    EXPECT_EQ(after.apps.size(), 65U); // 64 DSCP + the untouched ethertype entry
}

TEST_F(Mlx5Qos, PcpTrustRemovesEveryDscpEntry)
{
    pv1::QosReport r;
    ASSERT_TRUE(apply(pf_, r));
    pv1::QosReport back;
    ASSERT_TRUE(apply(pf_, back, {.trust_dscp = false, .pfc_priorities = {3, 4}}));
    EXPECT_EQ(test::settingOf(back, "trust").observed, "pcp");
    EXPECT_TRUE(test::settingOf(back, "trust").compliant);
    EXPECT_EQ(test::settingOf(back, "pfc").observed, "3,4");
    EXPECT_TRUE(sim::readDcb(dir_, "ens1f0np0").apps.empty());
}

TEST_F(Mlx5Qos, NetdevWithoutDcbIsACleanPerPortError)
{
    auto vf = device("mlx5_5", {"ens1f0v0"}); // VFs have no dcbnl ops: no DCB file
    for (bool applying : {false, true}) {
        pv1::QosReport r;
        auto s = applying ? apply(vf, r) : verify(vf, r);
        EXPECT_EQ(s.code, pv1::Errc::NotSupported);
        EXPECT_EQ(s.message, "netdev ens1f0v0: DCB not supported by driver (EOPNOTSUPP)");
        EXPECT_EQ(test::settingOf(r, "trust").error, s.message);
        EXPECT_EQ(test::settingOf(r, "pfc").error, s.message);
        EXPECT_FALSE(test::settingOf(r, "trust").compliant);
        EXPECT_EQ(test::settingOf(r, "roce_tos").error, ""); // the rest is still done
    }
}

TEST_F(Mlx5Qos, CorruptDcbFileNamesTheFile)
{
    std::ofstream(dir_ / "run/nicd-sim/dcb/ens1f0np0") << "pfc_en=banana\n";
    pv1::QosReport r;
    auto s = verify(pf_, r);
    EXPECT_EQ(s.code, pv1::Errc::Io);
    EXPECT_NE(s.message.find("run/nicd-sim/dcb/ens1f0np0"), std::string::npos) << s.message;
}

TEST_F(Mlx5Qos, TrafficClassOnlyWithTheMofedFile)
{
    fs::create_directories(trafficClass("mlx5_0").parent_path());
    std::ofstream(trafficClass("mlx5_0")) << "";
    pv1::QosReport v;
    ASSERT_TRUE(verify(pf_, v));
    EXPECT_EQ(names(v), (std::vector<std::string>{"trust", "pfc", "roce_tos", "traffic_class"}));
    EXPECT_EQ(test::settingOf(v, "traffic_class").observed, "unset");
    pv1::QosReport r;
    ASSERT_TRUE(apply(pf_, r));
    EXPECT_TRUE(test::settingOf(r, "traffic_class").changed);
    EXPECT_EQ(test::settingOf(r, "traffic_class").observed, "106");
    std::ofstream(trafficClass("mlx5_0")) << "Global tclass=106\n"; // the newer MOFED format
    pv1::QosReport again;
    ASSERT_TRUE(apply(pf_, again));
    EXPECT_FALSE(test::settingOf(again, "traffic_class").changed);
    EXPECT_TRUE(test::settingOf(again, "traffic_class").compliant);
    sim::tosReset(dir_, "mlx5_0");
    EXPECT_EQ(test::readFile(trafficClass("mlx5_0")), "");
}

TEST_F(Mlx5Qos, LagMembersAreOneSetting)
{
    auto lag = device("mlx5_bond_0", {"ens5f1np1", "ens5f0np0"});
    pv1::QosReport r;
    ASSERT_TRUE(apply(lag, r));
    EXPECT_EQ(test::settingOf(r, "pfc").observed, "3");
    EXPECT_TRUE(test::settingOf(r, "pfc").compliant);
    auto one = sim::readDcb(dir_, "ens5f1np1");
    one.pfc_en = 0;
    sim::writeDcb(dir_, "ens5f1np1", one);
    pv1::QosReport v;
    ASSERT_TRUE(verify(lag, v));
    EXPECT_EQ(test::settingOf(v, "pfc").observed, "ens5f0np0=3 ens5f1np1=none");
    EXPECT_FALSE(test::settingOf(v, "pfc").compliant);
    EXPECT_TRUE(test::settingOf(v, "trust").compliant);
}

TEST_F(Mlx5Qos, BadRequestsAreErrorsNotWrites)
{
    pv1::QosReport r;
    auto s = apply(pf_, r, {.trust_dscp = true, .pfc_priorities = {9}});
    EXPECT_EQ(s.code, pv1::Errc::InvalidArgument);
    EXPECT_NE(test::settingOf(r, "pfc").error.find("0 to 7"), std::string::npos);
    EXPECT_EQ(sim::readDcb(dir_, "ens1f0np0").pfc_en, 0);

    auto ib = device("mlx5_4", {"ib0"}, "InfiniBand");
    EXPECT_EQ(verify(ib, r).code, pv1::Errc::NotSupported);
    EXPECT_TRUE(r.settings.empty());
    auto none = device("mlx5_0", {});
    EXPECT_EQ(verify(none, r).code, pv1::Errc::NoDevice);
    EXPECT_NE(test::settingOf(r, "trust").error.find("no netdev"), std::string::npos);
    auto odd = device("mlx5_0", {"../../etc"});
    EXPECT_EQ(verify(odd, r).code, pv1::Errc::InvalidArgument);
}

TEST_F(Mlx5Qos, SimulatorCreatesAFreshNicForEveryRocePf)
{
    for (const char* nd : {"ens1f0np0", "ens2f0np0", "ens3f0np0", "ens4f0np0", "ens5f0np0",
                           "ens5f1np1", "ens6f0np0"}) {
        EXPECT_EQ(test::readFile(dir_ / "run/nicd-sim/dcb" / nd),
                  "pfc_cap=8\npfc_en=0\nmbc=0\ndelay=7\n")
            << nd;
    }
    for (const char* nd : {"ens1f0v0", "ib0", "bond0", "eno1"})
        EXPECT_FALSE(fs::exists(dir_ / "run/nicd-sim/dcb" / nd)) << nd;
    EXPECT_TRUE(fs::is_directory(dir_ / "sys/kernel/config/rdma_cm"));
    EXPECT_THROW(sim::qosDrift(dir_, "mlx5_5"), sim::SimError);
}
