// The health engine's memory across restarts: what it saves (the state file's text, part by part)
// carries every condition, counter window, port history and event number into the next start;
// a foreign or malformed document is refused and leaves the engine alone; a new boot is a baseline.
#include "health/health_engine.hpp"
#include "state/state_text.hpp"
#include "support/health_fixture.hpp"

#include <functional>
#include <string>
#include <string_view>
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
    const auto saved = savedState(engine_); // what the state file holds, written part by part
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

// A state file the nicd before this one wrote (its kernel hold, counter window, port history,
// known devices and events), as it was on disk: an upgrade's restart reads it all and writes it
// back byte for byte.
constexpr std::string_view kStateFileOfTheLastVersion =
    R"json({"boot_id":"6c0e0d4b-8f2a-4f47-9d1c-2a4c3b5e7f10","health":{)json"
    R"json("conditions":[{"action":"reset_nic","advice":"do something","code":"kernel.mlx5.cmd_timeout","device":"mlx5_0","first_seen":1700001811.0,"last_seen":1700001811.0,"message":"mlx5.cmd_timeout happened","port":0,"severity":2,"source":2},{"action":"check_cable","advice":"check the cable, transceiver and switch port; jobs using this port are stalled","code":"port_down","device":"mlx5_0","first_seen":1700001810.0,"last_seen":1700001810.0,"message":"port went down (state DOWN, physical state LinkUp)","port":1,"severity":2,"source":0}],)json"
    R"json("congestion":[],)json"
    R"json("counters":{"mlx5_0|1|hw_counters||symbol_error":{"buckets":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,100,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"newest":30,"since":0.0,"time":1810.0,"value":1100,"width":60.0}},)json"
    R"json("drivers":{"mlx5_0":0},)json"
    R"json("events":{"events":[{"action":"check_cable","code":"port_down","device":"mlx5_0","kind":0,"message":"port went down (state DOWN, physical state LinkUp)","port":1,"seq":1,"severity":2,"time":1700001810.0},{"action":"reset_nic","code":"kernel.mlx5.cmd_timeout","device":"mlx5_0","kind":0,"message":"mlx5.cmd_timeout happened","port":0,"seq":2,"severity":2,"time":1700001811.0}],"last_seq":2,"totals":{"raised":2}},)json"
    R"json("fec":{},)json"
    R"json("inventory":{},)json"
    R"json("kernel":{"counts":[["mlx5_0","mlx5.cmd_timeout",1]],"expiry":[{"at":2411.0,"key":["mlx5_0",0,"kernel.mlx5.cmd_timeout"]}],"hits":[{"key":["mlx5_0",0,"kernel.mlx5.cmd_timeout"],"times":[1811.0]}],"unmapped":1},)json"
    R"json("links":{"known_devices":[{"board_id":"","earlier_boot":false,"fw_ver":"","last_name":"mlx5_0","name":"mlx5_0","node_guid":"","pci_address":"0004:01:00.0","ports":[],"role":"storage","vf":false},{"earlier_boot":false,"name":"mlx5_1","pci_address":"0004:01:00.2","vf":true}],"netdev_up":{},"ports":[{"device":"mlx5_0","downs":[1810.0],"ever_up":true,"port":1,"was_up":false}]},)json"
    R"json("neighbors":{},)json"
    R"json("optics":{},)json"
    R"json("readiness":{},)json"
    R"json("reporters":{},)json"
    R"json("roles":{"mlx5_0":"storage","mlx5_1":"storage"},)json"
    R"json("temperatures":{},)json"
    R"json("training":{},)json"
    R"json("version":2)json"
    R"json(},"journal_cursor":"s=1;i=2a;b=6c0e","version":1})json"
    "\n";

TEST_F(HealthTest, AStateFileOfTheLastVersionLoadsAndSavesUnchanged)
{
    auto state = state::parseStateText(kStateFileOfTheLastVersion);
    ASSERT_TRUE(state) << state.error().message;
    engine_.restore(state->health);
    std::string health;
    engine_.appendJson(health);
    EXPECT_EQ(state::stateText(state->boot_id, state->journal_cursor, health),
              kStateFileOfTheLastVersion);
    Snapshot s;
    s.inventory = kernelInventory();
    engine_.report(s);
    EXPECT_TRUE(find(s, "kernel.mlx5.cmd_timeout"));
    EXPECT_EQ(s.health.kernel_errors_unmapped, 1U);
    EXPECT_EQ(engine_.lastEventSeq(), 2U);
}

TEST_F(HealthTest, RestoreRefusesAForeignVersionAndLeavesTheEngineAlone)
{
    at(0, snap({device("mlx5_0", 4)}));
    at(5, snap({device("mlx5_0", 1)}));
    auto j = savedState(engine_);
    j["version"] = 1;
    EXPECT_THROW(engine_.restore(j), std::exception);
    auto broken = savedState(engine_);
    broken["counters"] = 7;
    broken["links"].erase("ports");
    EXPECT_THROW(engine_.restore(broken), std::exception);
    auto s = at(10, snap({device("mlx5_0", 1)}));
    EXPECT_TRUE(find(s, "port_down"));
    EXPECT_TRUE(last_events_.empty());
}

// Every part is read before any is taken: a document one family refuses (here the last of those
// the engine reads) leaves the conditions, port histories and counters as they were.
TEST_F(HealthTest, ARestoreAnyFamilyRefusesLeavesTheEngineAlone)
{
    at(0, snap({device("mlx5_0", 4)}));
    at(5, snap({device("mlx5_0", 1)}));
    ASSERT_TRUE(find(at(6, snap({device("mlx5_0", 1)})), "port_down"));
    HealthEngine other{Config{}};
    auto s = snap({device("mlx5_9", 4)});
    other.evaluate(s, 0, 1700000000);
    auto doc = savedState(other);
    doc["drivers"]["mlx5_9"] = 1e300;
    EXPECT_THROW(engine_.restore(doc), std::exception);
    s = at(10, snap({device("mlx5_0", 1)}));
    EXPECT_TRUE(find(s, "port_down")) << "the conditions are still this engine's";
    EXPECT_TRUE(last_events_.empty()) << "and so is the port's history: nothing new to say";
}

// A float where nicd wrote an integer was cast to it: undefined behaviour when out of range
// (fuzz-state_file's UBSan: "1e+300 is outside the range of representable values of type 'int'").
// Refused now, like any other malformed document.
TEST_F(HealthTest, RestoreRefusesAFloatWhereAnIntegerWasWritten)
{
    at(0, snap({device("mlx5_0", 4)}, {{"mlx5_0", "symbol_error", 1000}}));
    at(5, snap({device("mlx5_0", 1)}, {{"mlx5_0", "symbol_error", 1100}}));
    const auto saved = savedState(engine_);
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
    EXPECT_EQ(savedState(next), saved);
}

TEST_F(HealthTest, ANewBootIsABaselineThatNeverReusesEventNumbers)
{
    at(0, snap({device("mlx5_0", 4)}));
    at(5, snap({device("mlx5_0", 1)}));
    auto saved = savedState(engine_);
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
