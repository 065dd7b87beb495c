// ECN for RoCE (DCQCN) through the mlx5 plugin on a simulated node, whose ecn/ trees start with
// every priority off: apply enables the notification and reaction points on exactly the PFC
// priorities and leaves the others as they are; verify and dry runs write nothing; a second apply
// writes nothing; CNP marking only when configured; a kernel without the tree is "unsupported"
// (compliant, no error); an empty read (the driver's firmware error) is an error naming the file.
#include "ecn_state.hpp"
#include "qos/ecn_settings.hpp"
#include "qos/qos.hpp"
#include "sim.hpp"
#include "support/sim_host.hpp"
#include "support/sim_tree.hpp"

#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;
namespace pv1 = nicd::plugin::v1;

namespace {

class Mlx5Ecn : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::create(dir_, {});
        host_ = std::make_unique<test::SimHost>(dir_);
        pf_.ibdev = "mlx5_0";
        pf_.driver = "mlx5_core";
        pf_.ports.push_back({1, "Ethernet", {"ens1f0np0"}});
    }

    pv1::QosReport run(bool apply, pv1::QosDesired want = {})
    {
        if (want.pfc_priorities.empty())
            want.pfc_priorities = {3};
        pv1::QosReport r;
        auto s = plugin::sdk::runQos(*host_, pf_, pf_.ports[0], want, r, apply, mlx5::qosSteps());
        last_status_ = s.message;
        return r;
    }
    static pv1::QosSettingReport setting(const pv1::QosReport& r, const std::string& name)
    {
        for (const auto& s : r.settings)
            if (s.setting == name)
                return s;
        return {};
    }
    fs::path ecn(const char* point) const { return dir_ / "sys/class/net/ens1f0np0/ecn" / point; }
    // "01010000": the enable bits of priorities 0..7.
    std::string bits(const char* point) const
    {
        std::string out;
        for (int p = 0; p < 8; ++p)
            out += test::readFile(ecn(point) / "enable" / std::to_string(p)).substr(0, 1);
        return out;
    }
    void set(const char* point, int prio, const char* text)
    {
        std::ofstream(ecn(point) / "enable" / std::to_string(prio)) << text;
    }

    std::unique_ptr<test::SimHost> host_;
    pv1::DeviceRef pf_;
    std::string last_status_;
};

} // namespace

TEST_F(Mlx5Ecn, ParsesTheEnableFile)
{
    EXPECT_EQ(mlx5::parseEcnEnable("1\n"), true);
    EXPECT_EQ(mlx5::parseEcnEnable("0\n"), false);
    EXPECT_EQ(mlx5::parseEcnEnable("3\n"), true) << "only bit 0 counts, as in the driver";
    EXPECT_EQ(mlx5::parseEcnEnable(""), std::nullopt) << "a firmware error reads empty";
    EXPECT_EQ(mlx5::parseEcnEnable("on\n"), std::nullopt);
}

TEST_F(Mlx5Ecn, ApplyEnablesBothPointsOnTheLosslessPriorityOnly)
{
    set("roce_np", 6, "1\n"); // someone's CNP priority: left alone
    auto before = run(false);
    EXPECT_EQ(setting(before, "ecn_np").observed, "none") << "of the wanted priority 3";
    EXPECT_FALSE(setting(before, "ecn_np").compliant);
    EXPECT_EQ(bits("roce_np"), "00000010") << "verify writes nothing";

    auto r = run(true);
    EXPECT_EQ(last_status_, "");
    for (const char* name : {"ecn_np", "ecn_rp"}) {
        EXPECT_TRUE(setting(r, name).compliant) << name;
        EXPECT_TRUE(setting(r, name).changed) << name;
        EXPECT_EQ(setting(r, name).desired, "3") << name;
    }
    EXPECT_EQ(setting(r, "ecn_np").observed, "3");
    EXPECT_EQ(bits("roce_np"), "00010010");
    EXPECT_EQ(bits("roce_rp"), "00010000");
    EXPECT_NE(std::find(host_->lines.begin(), host_->lines.end(),
                        "changed mlx5_0 port 1 (ens1f0np0) ecn_rp none -> enable 3"),
              host_->lines.end());

    auto again = run(true);
    EXPECT_FALSE(setting(again, "ecn_np").changed) << "compliant: nothing written";
    EXPECT_FALSE(setting(again, "ecn_rp").changed);
    EXPECT_EQ(setting(again, "cnp_dscp").setting, "") << "CNP marking left alone when unset";
}

TEST_F(Mlx5Ecn, DryRunAndEcnNoWriteNothing)
{
    auto r = run(true, {.pfc_priorities = {3, 4}, .dry_run = true});
    EXPECT_TRUE(setting(r, "ecn_np").changed) << "would change";
    EXPECT_EQ(setting(r, "ecn_np").desired, "3,4");
    EXPECT_EQ(bits("roce_np"), "00000000");
    auto off = run(true, {.pfc_priorities = {3}, .ecn = false});
    EXPECT_EQ(setting(off, "ecn_np").setting, "") << "Ecn=no: not managed, not reported";
    EXPECT_EQ(bits("roce_rp"), "00000000");
}

TEST_F(Mlx5Ecn, AnOlderDaemonGetsNoEcnSettings)
{
    host_ = std::make_unique<test::SimHost>(dir_, 1);
    auto r = run(true);
    EXPECT_EQ(setting(r, "ecn_np").setting, "");
    EXPECT_EQ(bits("roce_np"), "00000000");
}

TEST_F(Mlx5Ecn, CnpMarkingWhenConfigured)
{
    auto r = run(true, {.pfc_priorities = {3}, .cnp_dscp = 46, .cnp_priority = 6});
    EXPECT_TRUE(setting(r, "cnp_dscp").changed);
    EXPECT_EQ(setting(r, "cnp_dscp").observed, "46");
    EXPECT_FALSE(setting(r, "cnp_priority").changed) << "already 6";
    EXPECT_TRUE(setting(r, "cnp_priority").compliant);
    EXPECT_EQ(test::readFile(ecn("roce_np") / "cnp_dscp"), "46\n");
}

TEST_F(Mlx5Ecn, AKernelWithoutTheTreeIsUnsupportedNotAnError)
{
    fs::remove_all(dir_ / "sys/class/net/ens1f0np0/ecn");
    auto r = run(true, {.pfc_priorities = {3}, .cnp_dscp = 46});
    for (const char* name : {"ecn_np", "ecn_rp", "cnp_dscp"}) {
        EXPECT_EQ(setting(r, name).observed, "unsupported") << name;
        EXPECT_TRUE(setting(r, name).compliant) << name;
        EXPECT_EQ(setting(r, name).error, "") << name;
    }
    EXPECT_EQ(last_status_, "");
}

TEST_F(Mlx5Ecn, AnEmptyReadIsAnErrorNamingTheFile)
{
    set("roce_rp", 5, ""); // not a wanted priority: never read
    set("roce_rp", 3, "");
    auto r = run(true);
    auto rp = setting(r, "ecn_rp");
    EXPECT_FALSE(rp.compliant);
    EXPECT_NE(rp.error.find("ecn/roce_rp/enable/3: empty read (a firmware error)"),
              std::string::npos)
        << rp.error;
    EXPECT_TRUE(setting(r, "ecn_np").compliant) << "the other point is unaffected";
    EXPECT_NE(last_status_, "");
}

TEST_F(Mlx5Ecn, DriftFromTheSimulatorIsSeenAndRepaired)
{
    run(true);
    sim::ecnDrift(dir_, "mlx5_0");
    auto seen = run(false);
    EXPECT_FALSE(setting(seen, "ecn_np").compliant);
    EXPECT_EQ(setting(seen, "ecn_np").observed, "none");
    auto fixed = run(true);
    EXPECT_TRUE(setting(fixed, "ecn_np").compliant);
    EXPECT_EQ(bits("roce_np"), "00010000");
}

TEST_F(Mlx5Ecn, ALagsMembersAreEachWritten)
{
    pf_.ibdev = "mlx5_bond_0";
    pf_.ports[0].netdevs = {"ens5f1np1", "ens5f0np0"};
    auto r = run(true);
    EXPECT_TRUE(setting(r, "ecn_np").compliant);
    for (const char* nd : {"ens5f0np0", "ens5f1np1"})
        EXPECT_EQ(test::readFile(dir_ / "sys/class/net" / nd / "ecn/roce_np/enable/3"), "1\n")
            << nd;
}

// ABI 1.4: nicd's own process may not write under /sys or configfs, so every knob (the ecn/
// tree's, RoCE ToS's and its rdma_cm group) changes through the host; a daemon of 1.3 gets them
// written straight to the files, as before.
TEST_F(Mlx5Ecn, KnobsChangeThroughTheHostWhenItSpeaksAbi14)
{
    auto r = run(true);
    EXPECT_TRUE(setting(r, "ecn_np").compliant);
    EXPECT_TRUE(setting(r, "roce_tos").compliant) << setting(r, "roce_tos").error;
    const auto through = [&](const fs::path& p) {
        return std::find(host_->knobs.begin(), host_->knobs.end(), p.string()) !=
               host_->knobs.end();
    };
    EXPECT_TRUE(through(ecn("roce_np") / "enable/3"));
    EXPECT_TRUE(through(ecn("roce_rp") / "enable/3"));
    EXPECT_TRUE(through(dir_ / "sys/kernel/config/rdma_cm/mlx5_0"));
    EXPECT_TRUE(through(dir_ / "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"));
    EXPECT_EQ(bits("roce_rp"), "00010000");

    sim::ecnDrift(dir_, "mlx5_0");
    host_ = std::make_unique<test::SimHost>(dir_, 3);
    r = run(true);
    EXPECT_TRUE(setting(r, "ecn_np").compliant);
    EXPECT_EQ(host_->knobs, std::vector<std::string>{}) << "an older daemon: written directly";
    EXPECT_EQ(bits("roce_np"), "00010000");
}
