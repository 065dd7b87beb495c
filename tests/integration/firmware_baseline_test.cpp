// The firmware baseline end to end on nicd-sim's default node ([health] FirmwareMin= and
// FirmwareAllowed=, nicd --once against the tree, state kept between runs): a node whose cards
// all missed a rollout (fw-old) raises exactly firmware_below_baseline on every PF of the board,
// and nothing else; a card left behind among its peers (fw-drift) raises it beside
// firmware_drift; the clear recovers; a node without the keys raises nothing for either.
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <regex>
#include <set>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

using Strings = std::set<std::string>;

// The default node's ConnectX PFs, all of board MT_0000000838 (its VF, mlx5_5, is not judged).
const std::vector<std::string> kPfs = {"mlx5_0", "mlx5_1", "mlx5_2",     "mlx5_3",
                                       "mlx5_4", "mlx5_6", "mlx5_bond_0"};

class FirmwareBaselineNode : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "fw-baseline"; }
    std::string baseConfig() const override
    {
        return "[provision]\nMode=off\n[signals]\nIntervalSec=1\n";
    }
    // "code@device:port severity action" of every active condition after `nicd --once`.
    Strings conditions()
    {
        last_out_ = once();
        const auto text = textfileText();
        Strings out;
        std::regex re("nicd_condition_active\\{device=\"([^\"]*)\",port=\"([0-9]+)\",code=\"([^\"]"
                      "*)\",severity=\"([a-z]+)\",action=\"([a-z_]+)\"\\} 1");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            out.insert((*it)[3].str() + "@" + (*it)[1].str() + ":" + (*it)[2].str() + " " +
                       (*it)[4].str() + " " + (*it)[5].str());
        return out;
    }
    // `base` (what the healthy node has: the uncabled port's port_never_up) and the firmware
    // condition of each of `devices`.
    static Strings belowBaseline(Strings base, const std::vector<std::string>& devices)
    {
        Strings out = std::move(base);
        for (const auto& d : devices)
            out.insert("firmware_below_baseline@" + d + ":0 degraded update_firmware");
        return out;
    }

    std::string last_out_;
};

} // namespace

TEST_F(FirmwareBaselineNode, ANodeThatMissedARolloutIsBelowTheBaselineAndNothingElse)
{
    writeConfig("[health]\nFirmwareMin=MT_0000000838:28.40.1000\n");
    const auto healthy = conditions();
    for (const auto& c : healthy)
        EXPECT_FALSE(c.starts_with("firmware_")) << "28.41.1000 meets it: " << c;
    inject("fw-old", "mlx5_0");
    EXPECT_EQ(conditions(), belowBaseline(healthy, kPfs)) << last_out_;
    // One line for the node's cards alike: the device is the condition's, not its message's.
    EXPECT_NE(
        last_out_.find(
            "degraded mlx5_0, mlx5_1, mlx5_2, mlx5_3, mlx5_4, mlx5_6, mlx5_bond_0 (7 places): "
            "firmware 28.37.1014 on board MT_0000000838, below the baseline "
            "28.40.1000 ([health] FirmwareMin=) [firmware_below_baseline]"),
        std::string::npos)
        << last_out_;
    inject("fw-old-clear", "mlx5_0");
    EXPECT_EQ(conditions(), healthy) << last_out_;
}

TEST_F(FirmwareBaselineNode, AnAllowlistRaisesAVersionNotOnIt)
{
    writeConfig("[health]\nFirmwareAllowed=MT_0000000838:28.41.1000,MT_0000000838:28.43.1014\n");
    const auto healthy = conditions();
    inject("fw-old", "mlx5_0");
    EXPECT_EQ(conditions(), belowBaseline(healthy, kPfs)) << last_out_;
    EXPECT_NE(last_out_.find("firmware 28.37.1014 on board MT_0000000838, not one the baseline "
                             "allows: 28.41.1000, 28.43.1014 ([health] FirmwareAllowed=)"),
              std::string::npos)
        << last_out_;
}

TEST_F(FirmwareBaselineNode, ACardLeftBehindRaisesBothFindings)
{
    writeConfig("[health]\nFirmwareMin=MT_0000000838:28.40.1000\n");
    auto want = conditions();
    want.insert("firmware_drift@mlx5_2:0 degraded update_firmware");
    inject("fw-drift", "mlx5_2");
    EXPECT_EQ(conditions(), belowBaseline(want, {"mlx5_2"})) << last_out_;
}

TEST_F(FirmwareBaselineNode, WithoutTheKeysANodeThatMissedARolloutRaisesNothing)
{
    writeConfig("");
    const auto healthy = conditions();
    inject("fw-old", "mlx5_0");
    EXPECT_EQ(conditions(), healthy) << "no card differs from its peers\n" << last_out_;
}
