// What a plugin says of itself and of its devices (plugin ABI 1.6) reaches the daemon: its
// driver's ready file (DriverReadyFile=auto holds back that plugin's ports only), what its devlink
// health reporters mean (bnxt_en's `fw` is fatal only once it stays in error past a reset; mlx5's
// `fw` is a degraded syndrome), which of its devices is a RoCE LAG. A plugin of 1.5 is never asked
// (its vtable would end before describePlugin); what a plugin says is checked before it is used.
#include "bnxt/bnxt_traits.hpp"
#include "health/health_engine.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "plugins/plugin_manager.hpp"
#include "provision/driver_ready.hpp"
#include "sim.hpp"
#include "support/health_fixture.hpp"
#include "support/temp_dir.hpp"
#include "traits.hpp"
#include "vendor_catalog.hpp"

#include <fstream>
#include <set>

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
        manager_ = std::make_unique<plugins::PluginManager>(HostPaths(dir_ / "root"), config);
        manager_->loadDirectory(fs::path(NICD_TEST_PLUGIN_DIR) / test_case);
        inventory_ = inventory::discoverInventory(HostPaths(dir_ / "root"));
        manager_->assign(inventory_);
    }
    const Device& dev(const std::string& ibdev) const
    {
        const auto* d = inventory_.find(ibdev);
        EXPECT_NE(d, nullptr) << ibdev;
        return *d;
    }

    std::unique_ptr<plugins::PluginManager> manager_;
    Inventory inventory_;
};

} // namespace

TEST_F(PluginTraits, APluginOfAbi16SaysItsReadyFileReportersAndLags)
{
    load("traits");
    EXPECT_EQ(manager_->driverReadyFiles(),
              (std::map<std::string, std::string>{{"traits", "/run/test-driver/.ready"}}));
    auto meanings = manager_->reporterMeanings();
    ASSERT_TRUE(meanings);
    const std::map<std::string, ReporterMeaning> expected{
        {"fw", ReporterMeaning::FirmwareFatal},
        {"health", ReporterMeaning::FirmwareError},
        {"tx", ReporterMeaning::Recoverable},
        {"future", ReporterMeaning::Unknown}}; // a meaning from a newer SDK
    ASSERT_TRUE(meanings->contains("traits"));
    const auto& said = meanings->at("traits");
    EXPECT_EQ(said, expected) << "a reporter named \"fw reset\\n\" is no devlink name: left "
                                 "out; fw said twice counts once, as first said";
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

TEST_F(PluginTraits, AReadyFileMustBeAPlainAbsolutePathTwoDirectoriesDeep)
{
    for (const char* bad :
         {"run/relative/.ready", "/run/../etc/shadow", "/run/./x/y", "/run/x/", "/run/x.ready"}) {
        Config c;
        c.plugins["traits"]["ReadyFile"] = bad;
        load("traits", c);
        EXPECT_TRUE(manager_->driverReadyFiles().empty()) << bad;
    }
    Config c;
    c.plugins["traits"]["ReadyFile"] = "/run//vendor/drivers/.ready";
    load("traits", c);
    EXPECT_EQ(manager_->driverReadyFiles(),
              (std::map<std::string, std::string>{{"traits", "/run/vendor/drivers/.ready"}}));
}

TEST_F(PluginTraits, OnlyThePortsOfAPluginWhoseDriverIsNotReadyWait)
{
    const HostPaths paths(dir_);
    const std::map<std::string, std::string> files{{"a", "/run/a/drivers/.ready"},
                                                   {"b", "/run/b/drivers/.ready"}};
    ProvisionConfig config; // DriverReadyFile= unset: auto
    config.ready_timeout_ms = 1000;
    provision::PluginReadyWaits waits;
    EXPECT_FALSE(waits.refresh(config, paths, files, 0)) << "no deployment present: no wait";
    fs::create_directories(dir_ / "run/a/drivers");
    fs::create_directories(dir_ / "run/b/drivers");
    std::ofstream(dir_ / "run/b/drivers/.ready");
    EXPECT_TRUE(waits.refresh(config, paths, files, 1));
    EXPECT_EQ(waits.waiting(), (std::map<std::string, std::string>{
                                   {"a", (dir_ / "run/a/drivers/.ready").string()}}));

    Inventory inv;
    for (auto [ibdev, plugin] : {std::pair{"dev_a", "a"}, std::pair{"dev_b", "b"}}) {
        Device d;
        d.ibdev = ibdev;
        d.plugin = plugin;
        inv.devices.push_back(d);
    }
    std::vector<provision::PortPlan> plans(2);
    plans[0].device = "dev_a";
    plans[1].device = "dev_b";
    plans[0].managed = plans[1].managed = true;
    waits.hold(plans, inv);
    EXPECT_FALSE(plans[0].managed);
    EXPECT_TRUE(plans[0].reason.starts_with("waiting: " + (dir_ / "run/a/drivers").string()))
        << plans[0].reason;
    EXPECT_TRUE(plans[1].managed) << "plugin b's driver is ready: its ports go on";
    EXPECT_FALSE(waits.settled()) << "READY=1 waits for a's driver";
    EXPECT_FALSE(waits.refresh(config, paths, files, 1'000'002)) << "still a's";
    EXPECT_TRUE(waits.settled()) << "ReadyTimeoutSec= passed: READY=1 need not wait longer";

    std::ofstream(dir_ / "run/a/drivers/.ready");
    EXPECT_TRUE(waits.refresh(config, paths, files, 2)) << "a's file appeared";
    EXPECT_TRUE(waits.waiting().empty());
    ProvisionConfig named;
    named.driver_ready_file = "/run/mine";
    EXPECT_TRUE(provision::pluginReadyFiles(named, paths, files).empty())
        << "a file named in the configuration replaces the plugins'";
    EXPECT_EQ(provision::namedReadyFile(named, paths), dir_ / "run/mine");
    named.driver_ready_file = "";
    EXPECT_TRUE(provision::pluginReadyFiles(named, paths, files).empty()) << "never wait";
    EXPECT_FALSE(provision::namedReadyFile(named, paths));
}

TEST(VendorTraits, TheSimulatorsReadyFileIsTheOneMlx5Names)
{
    EXPECT_EQ(std::string(sim::vendorCatalog(sim::kMlx5).driver_ready_file),
              mlx5::kDriverReadyFile);
    EXPECT_EQ(std::string(sim::vendorCatalog(sim::kBnxt).driver_ready_file), "");
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
    plugin::sdk::describeFacts(mlx5::kFacts, m);
    EXPECT_EQ(m.driver_ready_file, "/run/mellanox/drivers/.driver-ready");
    EXPECT_EQ(meaningOf(m, "fw_fatal"), pv1::ReporterMeaning::FirmwareFatal);
    EXPECT_EQ(meaningOf(m, "fw"), pv1::ReporterMeaning::FirmwareError);
    pv1::PluginTraits b;
    plugin::sdk::describeFacts(bnxt::kFacts, b);
    EXPECT_TRUE(b.driver_ready_file.empty());
    EXPECT_EQ(meaningOf(b, "fw"), pv1::ReporterMeaning::FirmwareReset);
}

namespace {

// Two NICs, one of each plugin, each with its firmware reporter `fw` in error.
Snapshot twoVendorsWithFwInError(std::shared_ptr<const ReporterMeanings> meanings)
{
    Snapshot s;
    auto a = test::device("mlx5_0", 4);
    a.pci_address = "0000:1a:00.0";
    a.plugin = a.claimed_by = "mlx5";
    auto b = test::device("bnxt_re0", 4);
    b.pci_address = "0000:5d:00.0";
    b.plugin = b.claimed_by = "bnxt";
    s.inventory.devices = {a, b};
    s.reporters = {{"pci/0000:1a:00.0", "fw", false, "error", 1, 0},
                   {"pci/0000:5d:00.0", "fw", false, "error", 1, 0}};
    s.reporter_meanings = std::move(meanings);
    return s;
}

// What mlx5's and bnxt's plugins say their reporters mean.
std::shared_ptr<const ReporterMeanings> bothPlugins()
{
    auto meanings = std::make_shared<ReporterMeanings>();
    for (auto [plugin, describe] :
         {std::pair{"mlx5", &mlx5::kFacts}, std::pair{"bnxt", &bnxt::kFacts}}) {
        pv1::PluginTraits t;
        ::nicd::plugin::sdk::describeFacts(*describe, t);
        for (const auto& r : t.reporters)
            (*meanings)[plugin][r.name] = r.meaning;
    }
    return meanings;
}

bool reporterCode(const std::string& code)
{
    return code.starts_with("firmware_") || code.starts_with("devlink_reporter.");
}

// "code|severity" of each active reporter condition on `ibdev`.
std::set<std::string> verdictsOn(const Snapshot& s, const std::string& ibdev)
{
    std::set<std::string> out;
    for (const auto& c : s.health.conditions)
        if (c.device == ibdev && reporterCode(c.code))
            out.insert(c.code + "|" + std::string(toString(c.severity)));
    return out;
}

} // namespace

TEST(ReporterMeanings, OneReporterNameIsJudgedAsEachPluginSaysItMeans)
{
    Config config; // FirmwareResetSec=60
    health::HealthEngine engine{config};
    auto s = twoVendorsWithFwInError(bothPlugins());
    engine.evaluate(s, 100, 100);
    EXPECT_EQ(verdictsOn(s, "mlx5_0"), std::set<std::string>{"firmware_error|degraded"});
    EXPECT_EQ(verdictsOn(s, "bnxt_re0"), std::set<std::string>{"firmware_resetting|degraded"})
        << "bnxt_en is resetting its firmware: said, not fatal yet";
    for (const auto& c : s.health.conditions) {
        if (c.code != "firmware_resetting")
            continue;
        EXPECT_NE(c.message.find("since 00:01:40 UTC: its driver resets the firmware; "
                                 "firmware_fatal at 00:02:40 UTC if it is still in error"),
                  std::string::npos)
            << c.message;
    }
    s = twoVendorsWithFwInError(bothPlugins());
    engine.evaluate(s, 159, 159);
    EXPECT_EQ(verdictsOn(s, "bnxt_re0"), std::set<std::string>{"firmware_resetting|degraded"})
        << "59 s: a reset may still bring it back";
    s = twoVendorsWithFwInError(bothPlugins());
    auto events = engine.evaluate(s, 161, 161);
    EXPECT_EQ(verdictsOn(s, "bnxt_re0"), std::set<std::string>{"firmware_fatal|fatal"})
        << "61 s in error: the reset did not bring the firmware back";
    bool said = false;
    for (const auto& e : events)
        said = said || (e.kind == EventKind::Recovered && e.code == "firmware_resetting" &&
                        e.message.find("did not bring the firmware back") != std::string::npos);
    EXPECT_TRUE(said) << "firmware_resetting ends as what it became, not as healthy";
}

// One cycle judges a reporter as the daemon would: how long it has been in error is kept in the
// state file, so a restart (or nicd --once after nicd) does not start the reset time again.
TEST(ReporterMeanings, TheTimeInErrorOutlivesARestart)
{
    Config config;
    auto s = twoVendorsWithFwInError(bothPlugins());
    nlohmann::json saved;
    {
        health::HealthEngine first{config};
        first.evaluate(s, 100, 100);
        saved = test::savedState(first);
    }
    health::HealthEngine second{config};
    second.restore(saved);
    s = twoVendorsWithFwInError(bothPlugins());
    second.evaluate(s, 5, 170); // a new process: its monotonic clock means nothing here
    EXPECT_EQ(verdictsOn(s, "bnxt_re0"), std::set<std::string>{"firmware_fatal|fatal"});
}

TEST(ReporterMeanings, AFirmwareResetThatRecoveredBetweenReadsIsADegradedEvent)
{
    Config config;
    health::HealthEngine engine{config};
    auto s = twoVendorsWithFwInError(bothPlugins());
    s.reporters = {{"pci/0000:5d:00.0", "fw", true, "healthy", 2, 2}};
    engine.evaluate(s, 100, 100);
    s.reporters = {{"pci/0000:5d:00.0", "fw", true, "healthy", 3, 3}}; // a reset, recovered
    auto all = engine.evaluate(s, 130, 130);
    std::vector<Event> events;
    std::copy_if(all.begin(), all.end(), std::back_inserter(events),
                 [](const Event& e) { return reporterCode(e.code); });
    ASSERT_EQ(events.size(), 2U);
    EXPECT_EQ(events[0].code, "devlink_reporter.fw");
    EXPECT_EQ(events[0].severity, ConditionSeverity::Degraded) << "not a fatal event";
    EXPECT_EQ(events[1].kind, EventKind::Recovered);
    EXPECT_TRUE(verdictsOn(s, "bnxt_re0").empty());

    // In error, then healthy again within the reset time: firmware_resetting only, and the next
    // error counts its time afresh.
    s.reporters = {{"pci/0000:5d:00.0", "fw", false, "error", 4, 3}};
    engine.evaluate(s, 140, 140);
    s.reporters = {{"pci/0000:5d:00.0", "fw", true, "healthy", 4, 4}};
    engine.evaluate(s, 150, 150);
    s.reporters = {{"pci/0000:5d:00.0", "fw", false, "error", 5, 4}};
    engine.evaluate(s, 205, 205);
    EXPECT_EQ(verdictsOn(s, "bnxt_re0"), std::set<std::string>{"firmware_resetting|degraded"})
        << "in error 0 s, not 65";
}

TEST(ReporterMeanings, WithoutAPluginsWordOnlyFwFatalIsFatal)
{
    // An unmanaged NIC, or a plugin older than ABI 1.6: fw_fatal says what it is; `fw` means
    // different things to different drivers, so it is a part the driver could not recover.
    Config config;
    health::HealthEngine engine{config};
    auto s = twoVendorsWithFwInError(nullptr);
    s.reporters.push_back({"pci/0000:1a:00.0", "fw_fatal", false, "error", 1, 0});
    engine.evaluate(s, 1, 1);
    EXPECT_EQ(verdictsOn(s, "mlx5_0"),
              (std::set<std::string>{"devlink_reporter.fw|degraded", "firmware_fatal|fatal"}));
    EXPECT_EQ(verdictsOn(s, "bnxt_re0"), std::set<std::string>{"devlink_reporter.fw|degraded"});
}

TEST(ReporterMeanings, ADeviceWhoseAttachFailedIsJudgedByThePluginThatClaimsIt)
{
    Config config;
    config.signals.firmware_reset_ms = 1000;
    health::HealthEngine engine{config};
    auto s = twoVendorsWithFwInError(bothPlugins());
    s.inventory.devices[1].plugin.clear(); // bnxt claims it; its attach failed
    engine.evaluate(s, 1, 1);
    s = twoVendorsWithFwInError(bothPlugins());
    s.inventory.devices[1].plugin.clear();
    engine.evaluate(s, 3, 3);
    EXPECT_EQ(verdictsOn(s, "bnxt_re0"), std::set<std::string>{"firmware_fatal|fatal"});
}
