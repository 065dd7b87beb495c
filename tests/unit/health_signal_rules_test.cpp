// Pre-failure rules over hand-made snapshots: what the issue asks of them beyond raising (which
// conditions_doc_test shows for every code): the configured limits win over the module's,
// recovery has hysteresis where a sensor hovers, errors recovered between two reads still leave
// events, uncorrectable FEC blocks hold and then recover.
#include "health/fec_rules.hpp"
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

Snapshot node()
{
    Snapshot s;
    auto d = test::device("mlx5_0", 4);
    d.pci_address = "0000:1a:00.0";
    d.ports[0].rate = "400 Gb/sec (4X NDR)";
    d.ports[0].rate_gbps = 400;
    d.ports[0].netdevs = {"eth0"};
    s.inventory.devices.push_back(d);
    s.uplinks.push_back({"mlx5_0", 1, "eth0", "Ethernet", 400.0, 4, true});
    return s;
}

bool isActive(const Snapshot& s, const std::string& code, ConditionSeverity* severity = nullptr)
{
    for (const auto& c : s.health.conditions)
        if (c.code == code) {
            if (severity)
                *severity = c.severity;
            return true;
        }
    return false;
}

} // namespace

TEST(SignalRules, ConfiguredOpticsLimitWinsOverTheModules)
{
    Config config;
    HealthEngine engine{config};
    auto s = node();
    ModuleDom m;
    m.has_dom = true;
    m.rx_power = {3e-3, 1e-4, 2.5e-3, 1.26e-4};                   // low warning -9 dBm
    m.lanes = {{std::nullopt, std::nullopt, 2e-4, false, false}}; // -7 dBm: inside
    s.modules["eth0"] = m;
    engine.evaluate(s, 1, 1);
    EXPECT_FALSE(isActive(s, "optics_rx_power_low"));
    config.signals.optics_limits["rx_power"].low_warning = 2.5e-4; // OpticsRxPowerLowWarning=-6
    engine.configure(config);
    engine.evaluate(s, 2, 2);
    ConditionSeverity sev{};
    EXPECT_TRUE(isActive(s, "optics_rx_power_low", &sev));
    EXPECT_EQ(sev, ConditionSeverity::Degraded) << "a warning, not the alarm";
}

TEST(SignalRules, AsicTemperatureRecoversTwoDegreesBelowTheLimit)
{
    HealthEngine engine{Config{}};
    auto at = [&](double celsius, double t) {
        auto s = node();
        s.temperatures["mlx5_0"] = {{"asic", celsius, 105.0, std::nullopt}};
        engine.evaluate(s, t, t);
        return isActive(s, "asic_temperature_high");
    };
    EXPECT_FALSE(at(104, 1));
    EXPECT_TRUE(at(105, 2));
    EXPECT_TRUE(at(104, 3)) << "within the hysteresis: still raised";
    EXPECT_FALSE(at(102.5, 4));
}

TEST(SignalRules, ReporterErrorRecoveredBetweenReadsLeavesBothEvents)
{
    HealthEngine engine{Config{}};
    auto s = node();
    s.reporters = {{"pci/0000:1a:00.0/65535", "tx", true, "healthy", 3, 3}};
    engine.evaluate(s, 1, 1);
    s.reporters[0].errors = 4;
    s.reporters[0].recovers = 4;
    auto events = engine.evaluate(s, 2, 2);
    ASSERT_EQ(events.size(), 2U);
    EXPECT_EQ(events[0].kind, EventKind::Raised);
    EXPECT_EQ(events[0].code, "devlink_reporter.tx");
    EXPECT_NE(events[0].message.find("4 errors, 4 recovered"), std::string::npos)
        << events[0].message;
    EXPECT_EQ(events[1].kind, EventKind::Recovered);
    EXPECT_FALSE(isActive(s, "devlink_reporter.tx")) << "the health does not flicker";
}

TEST(SignalRules, UncorrectableBlocksHoldThenRecover)
{
    HealthEngine engine{Config{}};
    auto read = [&](double t, uint64_t uncorrectable) {
        auto s = node();
        FecStats f;
        f.netdev = "eth0";
        f.active = "RS";
        f.uncorrectable_blocks = FecCounter{uncorrectable, {}};
        f.read_at = t;
        s.fec["eth0"] = f;
        engine.evaluate(s, t, t);
        ConditionSeverity sev{};
        bool on = isActive(s, "fec_uncorrectable", &sev);
        return on ? std::optional(sev) : std::nullopt;
    };
    EXPECT_EQ(read(100, 10), std::nullopt) << "the first read is a baseline";
    EXPECT_EQ(read(160, 12), ConditionSeverity::Degraded);
    EXPECT_EQ(read(220, 12), ConditionSeverity::Degraded) << "held after the last growth";
    EXPECT_EQ(read(230, 500), ConditionSeverity::Fatal) << "more than 100 within a minute";
    EXPECT_EQ(read(230 + FecRules::kHoldSec + 1, 500), std::nullopt);
}

TEST(SignalRules, FecMarginStandsWhileTheLinkIsDownAndIsJudgedAgainWhenUp)
{
    HealthEngine engine{Config{}};
    auto read = [&](double t, uint64_t corrected_bits, bool up) {
        auto s = node();
        s.uplinks[0].active = up;
        FecStats f;
        f.netdev = "eth0";
        f.active = "RS";
        f.corrected_bits = FecCounter{corrected_bits, {}};
        f.read_at = t;
        s.fec["eth0"] = f;
        engine.evaluate(s, t, t);
        return isActive(s, "fec_margin");
    };
    const uint64_t per_minute = 400e9 * 60 * 1e-4; // a BER of 1e-4: 42% of RS(544,514)'s limit
    EXPECT_FALSE(read(100, 0, true)) << "the first read is a baseline";
    EXPECT_TRUE(read(160, per_minute, true));
    EXPECT_TRUE(read(220, per_minute, false)) << "a link down is no all-clear for the cable";
    EXPECT_TRUE(read(280, per_minute, false));
    EXPECT_TRUE(read(340, per_minute, true)) << "the first read after the link returns: baseline";
    EXPECT_FALSE(read(400, per_minute + 1000, true)) << "a clean minute recovers";
}

TEST(SignalRules, TurningSignalsOffRecoversWhatTheySaid)
{
    Config config;
    HealthEngine engine{config};
    auto s = node();
    s.temperatures["mlx5_0"] = {{"asic", 110, 105.0, std::nullopt}};
    engine.evaluate(s, 1, 1);
    ASSERT_TRUE(isActive(s, "asic_temperature_high"));
    config.signals.enable = false; // [signals] Enable=no, then a reload
    engine.configure(config);
    auto events = engine.evaluate(s, 2, 2);
    EXPECT_FALSE(isActive(s, "asic_temperature_high"));
    ASSERT_EQ(events.size(), 1U);
    EXPECT_EQ(events[0].kind, EventKind::Recovered);
    EXPECT_NE(events[0].message.find("Enable=no"), std::string::npos) << events[0].message;
}

// Without FEC statistics from ethtool netlink, the BER comes from the PHY counters of the fast
// cycle: windows as long as the slow reads', and a netdev gone down is no all-clear either.
TEST(SignalRules, PhyCounterBerWindowsAndANetdevGoneDown)
{
    HealthEngine engine{Config{}}; // IntervalSec=60
    auto read = [&](double t, uint64_t corrected_bits, const char* operstate) {
        auto s = node();
        s.netdevs["eth0"] = {"eth0", operstate, std::string(operstate) == "up", 5};
        DeviceSamples ds;
        ds.ibdev = "mlx5_0";
        ds.monotonic_usec = static_cast<uint64_t>(t * 1e6);
        test::addMlx5Samples(ds, {{"ethtool", 1, "eth0", "rx_corrected_bits_phy", corrected_bits,
                                   SampleKind::Counter}});
        s.samples = {ds};
        FecStats mode_only; // a kernel whose FEC reply has the mode but no statistics
        mode_only.netdev = "eth0";
        mode_only.active = "RS";
        mode_only.read_at = 99;
        s.fec["eth0"] = mode_only;
        engine.evaluate(s, t, t);
        return std::pair{isActive(s, "fec_margin"), s.health.pre_fec_ber.contains("eth0")};
    };
    const uint64_t per_minute = 400e9 * 60 * 1e-4;
    EXPECT_EQ(read(100, 0, "up"), std::pair(false, false));
    EXPECT_EQ(read(101, per_minute / 60, "up"), std::pair(false, false))
        << "a fast cycle later: too short a window";
    EXPECT_EQ(read(160, per_minute, "up"), std::pair(true, true));
    EXPECT_TRUE(read(161, per_minute, "up").first) << "the BER stands until the next window";
    EXPECT_TRUE(read(221, per_minute, "down").first) << "counters stopped because the link did";
    EXPECT_TRUE(read(281, per_minute, "up").first) << "first window after: a baseline";
    EXPECT_FALSE(read(341, per_minute + 10, "up").first);
}

TEST(SignalRules, ALagPortRecoversOnlyWhenEveryMemberIsMeasured)
{
    HealthEngine engine{Config{}};
    auto read = [&](double t, uint64_t bits0, uint64_t bits1, const char* member1) {
        auto s = node();
        s.uplinks.push_back({"mlx5_0", 1, "eth1", "Ethernet", 400.0, 4, true});
        s.netdevs["eth0"] = {"eth0", "up", true, 5};
        s.netdevs["eth1"] = {"eth1", member1, std::string(member1) == "up", 6};
        for (auto [netdev, bits] : {std::pair{"eth0", bits0}, {"eth1", bits1}}) {
            FecStats f;
            f.netdev = netdev;
            f.active = "RS";
            f.corrected_bits = FecCounter{bits, {}};
            f.read_at = t;
            s.fec[netdev] = f;
        }
        engine.evaluate(s, t, t);
        return isActive(s, "fec_margin");
    };
    const uint64_t per_minute = 400e9 * 60 * 1e-4;
    EXPECT_FALSE(read(100, 0, 0, "up"));
    EXPECT_TRUE(read(160, 0, per_minute, "up")) << "eth1's margin runs out";
    EXPECT_TRUE(read(220, 0, per_minute, "down")) << "eth0 is clean, eth1 is not measured";
    EXPECT_TRUE(read(280, 0, per_minute, "up")) << "eth1's first window after: a baseline";
    EXPECT_FALSE(read(340, 0, per_minute, "up")) << "both measured and clean";
}

// The PHY's corrected bits are found by what the plugin says they mean (FecCorrectedBits), under
// any name; a series of that name that means nothing gives no BER.
TEST(SignalRules, PhyCorrectedBitsByMeaningUnderAnyName)
{
    for (bool described : {true, false}) {
        SCOPED_TRACE(described ? "described" : "says nothing");
        HealthEngine engine{Config{}};
        auto read = [&](double t, uint64_t corrected_bits) {
            auto s = node();
            s.netdevs["eth0"] = {"eth0", "up", true, 5};
            DeviceSamples ds;
            ds.ibdev = "mlx5_0";
            ds.monotonic_usec = static_cast<uint64_t>(t * 1e6);
            addSamples(ds, {{"ethtool", 1, "eth0", "fec_corrected_bits", corrected_bits,
                             SampleKind::Counter}});
            if (described)
                ds.meanings = std::make_shared<LayoutMeanings>(
                    LayoutMeanings{{Meaning::FecCorrectedBits, plugin::v1::kNoPriority, true}});
            s.samples = {ds};
            FecStats mode_only; // the FEC reply has the mode but no statistics
            mode_only.netdev = "eth0";
            mode_only.active = "RS";
            mode_only.read_at = 99;
            s.fec["eth0"] = mode_only;
            engine.evaluate(s, t, t);
            return s;
        };
        const uint64_t per_minute = 400e9 * 60 * 1e-4;
        read(100, 0);
        auto s = read(160, per_minute);
        EXPECT_EQ(isActive(s, "fec_margin"), described);
        EXPECT_EQ(s.health.pre_fec_ber.contains("eth0"), described);
    }
}
