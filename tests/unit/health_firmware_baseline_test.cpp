// The firmware baseline ([health] FirmwareMin=, FirmwareAllowed=; health/firmware_baseline.hpp)
// over hand-built snapshots: a card below its board's lowest version, or off its allowed list,
// raises firmware_below_baseline (degraded, update_firmware) naming device, board, version and
// baseline; a node whose every card missed a rollout raises it without firmware_drift, a card
// left behind among updated peers both; an update or a reload that drops the baseline recovers
// it; boards without a baseline, VFs and devices without fw_ver are not judged.
#include "config/firmware_values.hpp"
#include "health/firmware_baseline.hpp"
#include "support/health_fixture.hpp"

#include <algorithm>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

constexpr const char* kBoard = "MT_0000000838";

Device card(const std::string& name, const std::string& fw, const std::string& board = kBoard)
{
    auto d = device(name, 4);
    d.board_id = board;
    d.fw_ver = fw;
    return d;
}

class FirmwareBaselineTest : public HealthTest {
protected:
    void baseline(const std::string& min, const std::string& allowed = "")
    {
        config_.health.firmware_min = *config::parseFirmwareMin(min);
        config_.health.firmware_allowed = *config::parseFirmwareAllowed(allowed);
        engine_.configure(config_);
    }
    // "code@device" of the firmware conditions, sorted.
    static std::vector<std::string> firmware(const Snapshot& s) { return codesAt(s, "firmware_"); }
    using Codes = std::vector<std::string>;
};

} // namespace

TEST_F(FirmwareBaselineTest, ANodeWithoutTheKeysJudgesNothing)
{
    auto s = at(0, snap({card("mlx5_0", "28.37.1014"), card("mlx5_1", "28.37.1014")}));
    EXPECT_EQ(firmware(s), Codes{});
}

TEST_F(FirmwareBaselineTest, ANodeThatMissedARolloutIsBelowTheBaselineWithoutDrift)
{
    baseline("MT_0000000838:28.40.1000");
    auto s = at(0, snap({card("mlx5_0", "28.37.1014"), card("mlx5_1", "28.37.1014")}));
    EXPECT_EQ(firmware(s),
              (Codes{"firmware_below_baseline@mlx5_0", "firmware_below_baseline@mlx5_1"}));
    const auto* c = find(s, "firmware_below_baseline");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->severity, ConditionSeverity::Degraded);
    EXPECT_EQ(c->action, Action::UpdateFirmware);
    EXPECT_EQ(c->port, 0U);
    EXPECT_EQ(c->message, "firmware 28.37.1014 on board MT_0000000838, below the baseline "
                          "28.40.1000 ([health] FirmwareMin=)");
    EXPECT_EQ(portHealth(s), Health::Healthy) << "a device condition, not the port's";
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Degraded);
}

TEST_F(FirmwareBaselineTest, ACardLeftBehindAmongUpdatedPeersRaisesBothFindings)
{
    baseline("MT_0000000838:28.40.1000");
    auto s = at(0, snap({card("mlx5_0", "28.39.1002"), card("mlx5_1", "28.41.1000"),
                         card("mlx5_2", "28.41.1000")}));
    EXPECT_EQ(firmware(s), (Codes{"firmware_below_baseline@mlx5_0", "firmware_drift@mlx5_0"}));
}

TEST_F(FirmwareBaselineTest, VersionsCompareNumberByNumber)
{
    baseline("MT_0000000838:28.40.1000");
    // 28.40.1000 itself and later, however many digits, meet it; 28.9.x does not.
    for (const char* fw : {"28.40.1000", "28.40.01000", "28.41.0", "28.100.1", "29.0.0"})
        EXPECT_EQ(missesBaseline(kBoard, fw, config_.health), std::nullopt) << fw;
    for (const char* fw : {"28.9.9999", "28.39.1002", "27.99.9999"})
        EXPECT_NE(missesBaseline(kBoard, fw, config_.health), std::nullopt) << fw;
    EXPECT_EQ(missesBaseline("MT_0000000970", "1.0.0", config_.health), std::nullopt)
        << "a board without a baseline";
}

TEST_F(FirmwareBaselineTest, AnAllowlistRaisesAnyVersionNotOnIt)
{
    baseline("", "MT_0000000838:28.39.1002, MT_0000000838:28.43.1014");
    auto s = at(0, snap({card("mlx5_0", "28.43.1014"), card("mlx5_1", "28.41.1000"),
                         card("mlx5_2", "28.43.1014")}));
    // mlx5_1 is newer than the lowest allowed, and still not allowed (and the odd one: drift).
    EXPECT_EQ(firmware(s), (Codes{"firmware_below_baseline@mlx5_1", "firmware_drift@mlx5_1"}));
    EXPECT_EQ(find(s, "firmware_below_baseline", "mlx5_1")->message,
              "firmware 28.41.1000 on board MT_0000000838, not one the baseline allows: "
              "28.39.1002, 28.43.1014 ([health] FirmwareAllowed=)");
}

TEST_F(FirmwareBaselineTest, BothKeysMustHoldAndTheMessageSaysWhichFailed)
{
    baseline("MT_0000000838:28.40.1000", "MT_0000000838:28.39.1002 MT_0000000838:28.41.1000");
    EXPECT_EQ(missesBaseline(kBoard, "28.41.1000", config_.health), std::nullopt);
    EXPECT_EQ(*missesBaseline(kBoard, "28.39.1002", config_.health),
              "below the baseline 28.40.1000 ([health] FirmwareMin=)");
    EXPECT_EQ(*missesBaseline(kBoard, "28.40.1000", config_.health),
              "not one the baseline allows: 28.39.1002, 28.41.1000 ([health] FirmwareAllowed=)");
    EXPECT_EQ(*missesBaseline(kBoard, "28.37.1014", config_.health),
              "below the baseline 28.40.1000 ([health] FirmwareMin=), and not one the baseline "
              "allows: 28.39.1002, 28.41.1000 ([health] FirmwareAllowed=)");
}

TEST_F(FirmwareBaselineTest, OnlyTheBoardsNamedAreJudged)
{
    baseline("BCM957608-P2200GQF00:230.0.157.0");
    auto vf = card("mlx5_9", "1.0.0", "BCM957608-P2200GQF00");
    vf.function = DeviceFunction::VirtualFunction;
    auto s = at(0, snap({card("mlx5_0", "28.37.1014"),
                         card("bnxt_re0", "229.1.123.0", "BCM957608-P2200GQF00"),
                         card("bnxt_re1", "", "BCM957608-P2200GQF00"), vf}));
    // The ConnectX has no baseline; the VF's fw_ver is its PF's; bnxt_re1 printed none.
    EXPECT_EQ(firmware(s), Codes{"firmware_below_baseline@bnxt_re0"});
}

TEST_F(FirmwareBaselineTest, AnUpdateOrAReloadWithoutTheBaselineRecovers)
{
    baseline("MT_0000000838:28.40.1000");
    auto old = snap({card("mlx5_0", "28.37.1014"), card("mlx5_1", "28.37.1014")});
    EXPECT_EQ(firmware(at(0, old)).size(), 2U);
    // mlx5_0 flashed and reset; mlx5_1 not read this time (no fw_ver): it keeps its condition.
    auto updated = snap({card("mlx5_0", "28.41.1000"), card("mlx5_1", "")});
    EXPECT_EQ(firmware(at(1, updated)), Codes{"firmware_below_baseline@mlx5_1"});
    auto recovered = std::find_if(last_events_.begin(), last_events_.end(), [](const Event& e) {
        return e.kind == EventKind::Recovered && e.device == "mlx5_0";
    });
    ASSERT_NE(recovered, last_events_.end());
    EXPECT_EQ(recovered->message, "the firmware meets the baseline");
    // The baseline is taken out of the configuration (a reload): nothing is left.
    baseline("");
    EXPECT_EQ(firmware(at(2, old)), Codes{});
}
