// What a plugin says of itself and of its devices (plugin ABI 1.6) reaches the daemon: its
// driver's ready file (DriverReadyFile=auto), what its devlink health reporters mean (the reporter
// rules judge bnxt_en's `fw` fatal and mlx5's `fw` degraded), which of its devices is a RoCE LAG.
// A plugin of 1.5 is never asked (its vtable would end before describePlugin); what a plugin says
// is checked before the daemon uses it.
#include "bnxt/bnxt_traits.hpp"
#include "health/health_engine.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "plugins/plugin_manager.hpp"
#include "provision/driver_ready.hpp"
#include "sim.hpp"
#include "support/health_fixture.hpp"
#include "support/temp_dir.hpp"
#include "traits.hpp"

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;
namespace pv1 = nicd::plugin::v1;

namespace {

class PluginTraits : public test::TempDirTest {
protected:
    // The test plugin of `test_case` on a simulated node, assigned its devices once.
    void load(const std::string& test_case, Config config = {})
    {
        if (!fs::exists(dir_ / "root"))
            sim::create(dir_ / "root", {});
        manager_ = std::make_unique<PluginManager>(HostPaths(dir_ / "root"), config);
        manager_->loadDirectory(fs::path(NICD_TEST_PLUGIN_DIR) / test_case);
        inventory_ = discoverInventory(HostPaths(dir_ / "root"));
        manager_->assign(inventory_);
    }
    const Device& dev(const std::string& ibdev) const
    {
        const auto* d = inventory_.find(ibdev);
        EXPECT_NE(d, nullptr) << ibdev;
        return *d;
    }

    std::unique_ptr<PluginManager> manager_;
    Inventory inventory_;
};

} // namespace

TEST_F(PluginTraits, APluginOfAbi16SaysItsReadyFileReportersAndLags)
{
    load("traits");
    EXPECT_EQ(manager_->driverReadyFiles(), std::vector<std::string>{"/run/test-driver/.ready"});
    auto meanings = manager_->reporterMeanings();
    ASSERT_TRUE(meanings);
    const std::map<std::string, ReporterMeaning> expected{
        {"fw", ReporterMeaning::FirmwareFatal},
        {"health", ReporterMeaning::FirmwareError},
        {"tx", ReporterMeaning::Recoverable},
        {"future", ReporterMeaning::Unknown}}; // a meaning from a newer SDK
    ASSERT_TRUE(meanings->contains("traits"));
    const auto& said = meanings->at("traits");
    EXPECT_EQ(said, expected) << "a reporter named \"fw reset\\n\" is no devlink name: left out";
    EXPECT_EQ(dev("mlx5_1").plugin, "traits");
    EXPECT_EQ(dev("mlx5_1").function, DeviceFunction::Lag) << "the plugin said so";
    EXPECT_EQ(dev("mlx5_0").function, DeviceFunction::Physical);
    EXPECT_EQ(manager_->reporterMeanings(), meanings) << "made once, as the plugins load";
}

TEST_F(PluginTraits, APluginOfAbi15IsNotAsked)
{
    load("traits_v15");
    EXPECT_TRUE(manager_->driverReadyFiles().empty());
    auto meanings = manager_->reporterMeanings();
    EXPECT_TRUE(!meanings || !meanings->contains("oldtraits"));
    EXPECT_EQ(dev("mlx5_1").plugin, "oldtraits");
    EXPECT_EQ(dev("mlx5_1").function, DeviceFunction::Physical);
}

TEST_F(PluginTraits, AReadyFileThatIsNotAPlainAbsolutePathIsIgnored)
{
    for (const char* bad : {"run/relative/.ready", "/run/../etc/shadow", "/run/./x", "/run/x/"}) {
        Config c;
        c.plugins["traits"]["ReadyFile"] = bad;
        load("traits", c);
        EXPECT_TRUE(manager_->driverReadyFiles().empty()) << bad;
    }
}

TEST_F(PluginTraits, AutoWaitsForAPluginsReadyFileOnlyWhereItsDeploymentIsPresent)
{
    const HostPaths paths(dir_);
    const std::vector<std::string> plugin_files{"/run/a/.ready", "/run/b/.ready"};
    ProvisionConfig auto_config; // DriverReadyFile= unset: auto
    EXPECT_TRUE(provision::driverReadyFiles(auto_config, paths, plugin_files).empty())
        << "no deployment's directory: no wait";
    fs::create_directories(dir_ / "run/b");
    EXPECT_EQ(provision::driverReadyFiles(auto_config, paths, plugin_files),
              std::vector<fs::path>{dir_ / "run/b/.ready"});
    ProvisionConfig named;
    named.driver_ready_file = "/run/mine";
    EXPECT_EQ(provision::driverReadyFiles(named, paths, plugin_files),
              std::vector<fs::path>{dir_ / "run/mine"})
        << "a path named in the configuration replaces the plugins'";
    named.driver_ready_file = "";
    EXPECT_TRUE(provision::driverReadyFiles(named, paths, plugin_files).empty()) << "never wait";
}

TEST(VendorTraits, Mlx5NamesItsLagAndReportersAndBnxtItsFirmwareReporterFatal)
{
    pv1::DeviceRef lag;
    lag.ibdev = "mlx5_bond_0";
    pv1::DeviceRef pf;
    pf.ibdev = "mlx5_0";
    EXPECT_TRUE(mlx5::isLag(lag));
    EXPECT_FALSE(mlx5::isLag(pf));

    auto meaningOf = [](const pv1::PluginTraits& t, const std::string& name) {
        for (const auto& r : t.reporters)
            if (r.name == name)
                return r.meaning;
        return pv1::ReporterMeaning::Unknown;
    };
    pv1::PluginTraits m;
    mlx5::describePlugin(m);
    EXPECT_EQ(m.driver_ready_file, "/run/mellanox/drivers/.driver-ready");
    EXPECT_EQ(meaningOf(m, "fw_fatal"), pv1::ReporterMeaning::FirmwareFatal);
    EXPECT_EQ(meaningOf(m, "fw"), pv1::ReporterMeaning::FirmwareError);
    pv1::PluginTraits b;
    bnxt::describePlugin(b);
    EXPECT_TRUE(b.driver_ready_file.empty());
    EXPECT_EQ(meaningOf(b, "fw"), pv1::ReporterMeaning::FirmwareFatal);
}

namespace {

// Two NICs, one of each plugin, each with its firmware reporter `fw` in error.
Snapshot twoVendorsWithFwInError(std::shared_ptr<const ReporterMeanings> meanings)
{
    Snapshot s;
    auto a = test::device("mlx5_0", 4);
    a.pci_address = "0000:1a:00.0";
    a.plugin = "mlx5";
    auto b = test::device("bnxt_re0", 4);
    b.pci_address = "0000:5d:00.0";
    b.plugin = "bnxt";
    s.inventory.devices = {a, b};
    s.reporters = {{"pci/0000:1a:00.0", "fw", false, "error", 1, 0},
                   {"pci/0000:5d:00.0", "fw", false, "error", 1, 0}};
    s.reporter_meanings = std::move(meanings);
    return s;
}

std::string verdictOn(const Snapshot& s, const std::string& ibdev)
{
    for (const auto& c : s.health.conditions)
        if (c.device == ibdev)
            return c.code + "|" + std::string(toString(c.severity));
    return "";
}

} // namespace

TEST(ReporterMeanings, OneReporterNameIsJudgedAsEachPluginSaysItMeans)
{
    auto meanings = std::make_shared<ReporterMeanings>();
    for (auto [plugin, describe] :
         {std::pair{"mlx5", &mlx5::describePlugin}, std::pair{"bnxt", &bnxt::describePlugin}}) {
        pv1::PluginTraits t;
        describe(t);
        for (const auto& r : t.reporters)
            (*meanings)[plugin][r.name] = r.meaning;
    }
    Config config;
    health::HealthEngine engine{config};
    auto s = twoVendorsWithFwInError(meanings);
    engine.evaluate(s, 1, 1);
    EXPECT_EQ(verdictOn(s, "mlx5_0"), "firmware_error|degraded");
    EXPECT_EQ(verdictOn(s, "bnxt_re0"), "firmware_fatal|fatal")
        << "bnxt_en's fw stays in error only while its reset has not brought the firmware back";

    // No plugin's word (an unmanaged NIC, or a plugin older than ABI 1.6): devlink's common
    // reading of the name.
    health::HealthEngine plain{config};
    auto u = twoVendorsWithFwInError(nullptr);
    plain.evaluate(u, 1, 1);
    EXPECT_EQ(verdictOn(u, "mlx5_0"), "firmware_error|degraded");
    EXPECT_EQ(verdictOn(u, "bnxt_re0"), "firmware_error|degraded");
}
