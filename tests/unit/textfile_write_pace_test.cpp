// [textfile] IntervalMs= (textfile/write_pace.hpp): every cycle by default; with an interval, at
// most that often, but a change of the verdicts at once.
#include "support/health_fixture.hpp"
#include "textfile/write_pace.hpp"

#include <gtest/gtest.h>

namespace nicd {
namespace {

constexpr uint64_t kMs = 1000;

Snapshot node()
{
    Snapshot s;
    s.inventory.devices.push_back(test::device("mlx5_0", 4));
    s.health.devices["mlx5_0"] = Health::Healthy;
    s.health.ports[{"mlx5_0", 1}] = Health::Healthy;
    return s;
}

TEST(TextfilePace, WithoutAnIntervalEveryCycleIsWritten)
{
    textfile::TextfilePace pace;
    auto s = node();
    for (uint64_t t = 0; t < 5; ++t) {
        EXPECT_TRUE(pace.due(s, t * 200 * kMs));
        pace.written(s, t * 200 * kMs);
    }
}

TEST(TextfilePace, WithAnIntervalCountersWaitButVerdictsDoNot)
{
    textfile::TextfilePace pace(15000);
    auto s = node();
    EXPECT_TRUE(pace.due(s, 0)) << "the first snapshot is written";
    pace.written(s, 0);
    s.cycle = 2; // new counter values, the same verdicts
    EXPECT_FALSE(pace.due(s, 1000 * kMs));
    EXPECT_FALSE(pace.due(s, 14999 * kMs));
    EXPECT_TRUE(pace.due(s, 15000 * kMs));
    pace.written(s, 15000 * kMs);

    auto down = s;
    down.inventory.devices[0].ports[0].state = 1; // the port went down
    EXPECT_TRUE(pace.due(down, 15200 * kMs));
    pace.written(down, 15200 * kMs);
    EXPECT_FALSE(pace.due(down, 15400 * kMs));

    auto raised = down;
    raised.health.last_event_seq = 7;
    raised.health.conditions.push_back({});
    EXPECT_TRUE(pace.due(raised, 15600 * kMs)) << "a condition raised is written at once";
    pace.written(raised, 15600 * kMs);

    auto qos = raised;
    qos.qos.ports[{"mlx5_0", 1}].settings.push_back({"pfc", "3", "none", false, "", false, ""});
    EXPECT_TRUE(pace.due(qos, 15800 * kMs)) << "QoS compliance changed";
}

TEST(TextfilePace, AFailedWriteIsTriedAgainAtTheNextCycle)
{
    textfile::TextfilePace pace(60000);
    auto s = node();
    pace.written(s, 0);
    EXPECT_FALSE(pace.due(s, 1000 * kMs));
    pace.forceNext();
    EXPECT_TRUE(pace.due(s, 1000 * kMs));
}

} // namespace
} // namespace nicd
