// The health event log and the condition set: numbering that is never reused, a bounded ring,
// raise/escalate/recover/clear events, and both surviving a JSON round trip.
#include "health/condition_set.hpp"
#include "health/event_log.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {
Event event(const std::string& code)
{
    Event e;
    e.kind = EventKind::Raised;
    e.severity = ConditionSeverity::Fatal;
    e.device = "mlx5_0";
    e.port = 1;
    e.code = code;
    e.message = code + " happened";
    e.time = 1700000000;
    return e;
}

Condition condition(const std::string& code, ConditionSeverity sev, uint32_t port = 1)
{
    Condition c;
    c.code = code;
    c.severity = sev;
    c.source = ConditionSource::Link;
    c.device = "mlx5_0";
    c.port = port;
    c.message = code;
    c.advice = "fix it";
    c.action = Action::ReplaceCableOrTransceiver;
    return c;
}
} // namespace

TEST(EventLog, NumbersIncreaseAndTheRingKeepsTheNewest)
{
    EventLog log(3);
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(log.record(event("e" + std::to_string(i))).seq, static_cast<uint64_t>(i + 1));
    ASSERT_EQ(log.events().size(), 3U);
    EXPECT_EQ(log.events().front().seq, 3U);
    EXPECT_EQ(log.since(4).size(), 1U);
    EXPECT_EQ(log.since(0).size(), 3U) << "older events left the ring";
    EXPECT_EQ(log.totals().at("raised"), 5U) << "totals count every event, not only kept ones";
    log.setCapacity(1);
    EXPECT_EQ(log.events().size(), 1U);
    EXPECT_EQ(log.events().front().code, "e4");
}

TEST(EventLog, NumberingSurvivesARestartAndANewBoot)
{
    EventLog log(16);
    log.record(event("a"));
    log.record(event("b"));
    auto restored = EventLog::fromJson(log.toJson(), 16);
    EXPECT_EQ(restored.since(0).size(), 2U);
    EXPECT_EQ(restored.since(0).back().message, "b happened");
    EXPECT_EQ(restored.record(event("c")).seq, 3U);
    EventLog next_boot(16);
    next_boot.continueAfter(restored.lastSeq());
    EXPECT_EQ(next_boot.record(event("d")).seq, 4U);
    next_boot.continueAfter(1);
    EXPECT_EQ(next_boot.record(event("e")).seq, 5U) << "continueAfter never goes back";
}

TEST(EventLog, OnlyTheNewestEventsArePersisted)
{
    EventLog log(1000);
    for (size_t i = 0; i < EventLog::kPersistedEvents + 10; ++i)
        log.record(event("x"));
    auto restored = EventLog::fromJson(log.toJson(), 1000);
    EXPECT_EQ(restored.events().size(), EventLog::kPersistedEvents);
    EXPECT_EQ(restored.lastSeq(), EventLog::kPersistedEvents + 10);
}

TEST(ConditionSet, RaiseOnceEscalateRecoverAndClear)
{
    ConditionSet set;
    std::vector<Event> out;
    set.raise(condition("port_never_up", ConditionSeverity::Info), 100, out);
    set.raise(condition("port_never_up", ConditionSeverity::Info), 105, out);
    ASSERT_EQ(out.size(), 1U) << "a condition that holds is not raised again";
    EXPECT_EQ(set.find({"mlx5_0", 1, "port_never_up"})->first_seen, 100);
    EXPECT_EQ(set.find({"mlx5_0", 1, "port_never_up"})->last_seen, 105);
    set.raise(condition("port_never_up", ConditionSeverity::Fatal), 110, out);
    ASSERT_EQ(out.size(), 2U) << "a change of severity is an event";
    EXPECT_EQ(out.back().severity, ConditionSeverity::Fatal);
    EXPECT_EQ(set.find({"mlx5_0", 1, "port_never_up"})->first_seen, 100) << "same condition";

    EXPECT_TRUE(set.recover({"mlx5_0", 1, "port_never_up"}, "port came up", 120, out));
    EXPECT_FALSE(set.recover({"mlx5_0", 1, "port_never_up"}, "again", 121, out));
    ASSERT_EQ(out.size(), 3U);
    EXPECT_EQ(out.back().kind, EventKind::Recovered);
    EXPECT_EQ(out.back().message, "port came up");

    set.raise(condition("kernel.x", ConditionSeverity::Fatal, 0), 130, out);
    set.raise(condition("kernel.x", ConditionSeverity::Fatal, 2), 130, out);
    EXPECT_EQ(set.clear("mlx5_0", "kernel.x", 140, out), 2U);
    EXPECT_EQ(out.back().kind, EventKind::Cleared);
    EXPECT_TRUE(set.active().empty());
    EXPECT_EQ(set.log().lastSeq(), out.back().seq);
}

TEST(ConditionSet, ConditionsSurviveAJsonRoundTrip)
{
    ConditionSet set;
    std::vector<Event> out;
    auto c = condition("counter.symbol_error", ConditionSeverity::Degraded);
    c.source = ConditionSource::Counter;
    set.raise(c, 100, out);
    auto back = ConditionSet::conditionsFromJson(set.toJson());
    ASSERT_EQ(back.size(), 1U);
    const auto& r = back.begin()->second;
    EXPECT_EQ(r.code, "counter.symbol_error");
    EXPECT_EQ(r.severity, ConditionSeverity::Degraded);
    EXPECT_EQ(r.source, ConditionSource::Counter);
    EXPECT_EQ(r.first_seen, 100);
    EXPECT_EQ(r.advice, "fix it");
    EXPECT_EQ(r.action, Action::ReplaceCableOrTransceiver);
    EXPECT_EQ(out.back().action, Action::ReplaceCableOrTransceiver)
        << "the raised event carries it";
    // A condition saved by nicd 0.1 (its advice under "action") loads with its advice.
    auto old = set.toJson();
    old[0]["action"] = "fix it";
    old[0].erase("advice");
    auto legacy = ConditionSet::conditionsFromJson(old).begin()->second;
    EXPECT_EQ(legacy.advice, "fix it");
    EXPECT_EQ(legacy.action, Action::None);
}

TEST(HealthNames, NumbersAndNames)
{
    EXPECT_EQ(toNumber(Health::Healthy), 0);
    EXPECT_EQ(toNumber(Health::Degraded), 1);
    EXPECT_EQ(toNumber(Health::Fatal), 2);
    EXPECT_STREQ(toString(Health::Fatal), "fatal");
    EXPECT_STREQ(toString(ConditionSource::Kernel), "kernel");
    EXPECT_EQ(healthOf(ConditionSeverity::Info), Health::Healthy);
}
