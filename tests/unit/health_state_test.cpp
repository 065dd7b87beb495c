// The health engine's memory across restarts: what it saves (the state file's text, part by part)
// carries every condition, counter window, port history and event number into the next start;
// a foreign or malformed document is refused and leaves the engine alone; a new boot is a baseline.
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

TEST_F(HealthTest, StateRoundTripCarriesEverythingAcrossARestart)
{
    auto devs = [] { return std::vector<Device>{device("mlx5_0", 4), device("mlx5_1", 4)}; };
    at(0, snap(devs(), {{"mlx5_0", "symbol_error", 1000}}));
    at(1800, snap(devs(), {{"mlx5_0", "symbol_error", 1100}}));
    auto inv = kernelInventory();
    engine_.kernelLine(kernelMatch("mlx5.cmd_timeout", plugin::v1::Severity::Fatal, "0004:01:00.0"),
                       inv, 1801, 1700001801);
    std::string text; // what the state file holds, written part by part
    engine_.appendJson(text);
    EXPECT_EQ(text, engine_.toJson().dump()) << "the text of the whole tree, byte for byte";
    const auto saved = nlohmann::json::parse(text);
    const auto last_seq = engine_.lastEventSeq();
    EXPECT_EQ(saved.at("version"), HealthEngine::kStateVersion);

    HealthEngine next{Config{}};
    next.restore(saved);
    EXPECT_EQ(next.lastEventSeq(), last_seq);
    EXPECT_EQ(next.eventsSince(0).size(), engine_.eventsSince(0).size());
    // 1100 -> 1130 after the restart: 130 within the hour, across it.
    auto s = snap({device("mlx5_0", 1)}, {{"mlx5_0", "symbol_error", 1130}});
    auto ev = next.evaluate(s, 3000, 1700003000);
    EXPECT_TRUE(find(s, "counter.symbol_error")) << "the delta spans the restart";
    EXPECT_TRUE(find(s, "device_missing", "mlx5_1")) << "known devices were persisted";
    EXPECT_TRUE(find(s, "port_down")) << "the port was up before the restart: down, not never-up";
    EXPECT_TRUE(find(s, "kernel.mlx5.cmd_timeout")) << "kernel conditions survive restarts";
    ASSERT_FALSE(ev.empty());
    EXPECT_GT(ev.front().seq, last_seq) << "numbers continue";
}

TEST_F(HealthTest, RestoreRefusesAForeignVersionAndLeavesTheEngineAlone)
{
    at(0, snap({device("mlx5_0", 4)}));
    at(5, snap({device("mlx5_0", 1)}));
    auto j = engine_.toJson();
    j["version"] = 1;
    EXPECT_THROW(engine_.restore(j), std::exception);
    auto broken = engine_.toJson();
    broken["counters"] = 7;
    broken["links"].erase("ports");
    EXPECT_THROW(engine_.restore(broken), std::exception);
    auto s = at(10, snap({device("mlx5_0", 1)}));
    EXPECT_TRUE(find(s, "port_down"));
    EXPECT_TRUE(last_events_.empty());
}

// A float where nicd wrote an integer was cast to it: undefined behaviour when out of range
// (fuzz-state_file's UBSan: "1e+300 is outside the range of representable values of type 'int'").
// Refused now, like any other malformed document.
TEST_F(HealthTest, RestoreRefusesAFloatWhereAnIntegerWasWritten)
{
    at(0, snap({device("mlx5_0", 4)}, {{"mlx5_0", "symbol_error", 1000}}));
    at(5, snap({device("mlx5_0", 1)}, {{"mlx5_0", "symbol_error", 1100}}));
    const auto saved = engine_.toJson();
    ASSERT_FALSE(saved.at("events").at("events").empty());
    ASSERT_FALSE(saved.at("conditions").empty());
    for (auto edit : std::vector<std::function<void(nlohmann::json&)>>{
             [](nlohmann::json& j) { j["version"] = 1e300; },
             [](nlohmann::json& j) { j["events"]["last_seq"] = -1e300; },
             [](nlohmann::json& j) { j["events"]["events"][0]["port"] = 1e300; },
             [](nlohmann::json& j) { j["events"]["totals"]["x"] = 1.5; },
             [](nlohmann::json& j) { j["conditions"][0]["severity"] = 1e300; },
             [](nlohmann::json& j) { j["drivers"]["mlx5_0"] = 1e300; },
         }) {
        auto j = saved;
        edit(j);
        EXPECT_THROW(HealthEngine(Config{}).restore(j), std::exception) << j.dump();
    }
    HealthEngine next{Config{}};
    next.restore(saved);
    EXPECT_EQ(next.toJson(), saved);
}

TEST_F(HealthTest, ANewBootIsABaselineThatNeverReusesEventNumbers)
{
    at(0, snap({device("mlx5_0", 4)}));
    at(5, snap({device("mlx5_0", 1)}));
    auto saved = engine_.toJson();
    auto seq = engine_.lastEventSeq();
    HealthEngine next{Config{}};
    next.continueSequence(saved);
    next.continueSequence(nlohmann::json::object()); // ignored
    next.baseline("new boot", 1700009000);
    auto events = next.eventsSince(0);
    ASSERT_EQ(events.size(), 1U);
    EXPECT_EQ(events[0].kind, EventKind::Baseline);
    EXPECT_EQ(events[0].seq, seq + 1);
    Snapshot s;
    s.inventory.devices = {device("mlx5_0", 1)};
    next.evaluate(s, 1, 1700009001);
    EXPECT_FALSE(find(s, "port_down")) << "nothing of the old boot";
    EXPECT_EQ(find(s, "port_never_up")->severity, ConditionSeverity::Info);
    engine_.baseline("operator", 1700009000);
    s.health = {};
    engine_.report(s);
    EXPECT_TRUE(s.health.conditions.empty());
    EXPECT_EQ(engine_.lastEventSeq(), seq + 1);
}
