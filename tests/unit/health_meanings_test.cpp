// The rules read what a series means, not its name (plugin ABI 1.5, IPlugin::describeLayout):
// another vendor's counter that means what mlx5's local_ack_timeout_err or
// rx_prio3_pause_duration means is judged the same, under its own name; the textfile's default
// series follow meanings too. A series whose plugin says nothing (ABI 1.4) is judged by name only
// ([counter:NAME]), whatever its name.
#include "health/congestion_rules.hpp"
#include "support/health_fixture.hpp"
#include "support/render_textfile.hpp"
#include "textfile/counter_budget.hpp"

#include <memory>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

using M = plugin::v1::Meaning;
constexpr uint8_t kNone = plugin::v1::kNoPriority;

// One series of a plugin that is not mlx5, and what the plugin says it means.
struct Series {
    std::string source;
    std::string netdev;
    std::string name;
    SeriesMeaning meaning;
    uint64_t value = 0;
};

// A device read at `t` whose plugin gave `series`, with their meanings (`described`, ABI 1.5) or
// none (ABI 1.4).
Snapshot node(double t, const std::vector<Series>& series, bool described = true)
{
    Snapshot s;
    auto d = test::device("bnxt_re0", 4);
    d.driver = "bnxt_en";
    d.ports[0].netdevs = {"eth0"};
    s.inventory.devices.push_back(d);
    DeviceSamples ds;
    ds.ibdev = "bnxt_re0";
    ds.monotonic_usec = static_cast<uint64_t>(t * 1e6);
    std::vector<Sample> samples;
    auto meanings = std::make_shared<LayoutMeanings>();
    for (const auto& x : series) {
        samples.push_back({x.source, 1, x.netdev, x.name, x.value, SampleKind::Counter});
        meanings->push_back(x.meaning);
    }
    addSamples(ds, samples);
    if (described)
        ds.meanings = std::move(meanings);
    s.samples = {ds};
    return s;
}

const Condition* active(const Snapshot& s, const std::string& code)
{
    for (const auto& c : s.health.conditions)
        if (c.code == code)
            return &c;
    return nullptr;
}

} // namespace

TEST(CounterMeanings, AnotherNameForALocalAckTimeoutRaisesItsOwnCondition)
{
    for (bool described : {true, false}) {
        SCOPED_TRACE(described ? "ABI 1.5" : "ABI 1.4");
        HealthEngine engine{Config{}};
        auto read = [&](double t, uint64_t retransmits) {
            auto s = node(t,
                          {{"hw_counters", "", "to_retransmits", {M::LocalAckTimeout}, retransmits},
                           {"hw_counters", "", "local_ack_timeout_err", {}, retransmits}},
                          described);
            engine.evaluate(s, t, 1700000000 + t);
            return s;
        };
        read(100, 0);
        auto s = read(101, 50);
        const Condition* c = active(s, "counter.to_retransmits");
        EXPECT_EQ(active(s, "counter.local_ack_timeout_err"), nullptr)
            << "mlx5's name means nothing without its plugin saying so";
        if (!described) {
            EXPECT_EQ(c, nullptr) << "a plugin that says nothing: no default rule";
            continue;
        }
        ASSERT_NE(c, nullptr);
        EXPECT_EQ(c->severity, ConditionSeverity::Degraded);
        EXPECT_EQ(c->action, Action::CheckQosConfig);
        EXPECT_NE(c->message.find("to_retransmits grew by 50"), std::string::npos) << c->message;
    }
}

TEST(CounterMeanings, NamedRulesStillJudgeASeriesThatMeansNothing)
{
    Config config;
    config.counter_rules["to_retransmits"].delta = 0;
    HealthEngine engine{config};
    auto read = [&](double t, uint64_t v) {
        auto s = node(t, {{"hw_counters", "", "to_retransmits", {}, v}}, false);
        engine.evaluate(s, t, 1700000000 + t);
        return s;
    };
    read(100, 0);
    EXPECT_NE(active(read(101, 1), "counter.to_retransmits"), nullptr);
}

namespace {

struct BnxtJudge {
    CongestionRules rules;
    ConditionSet conditions;
    Config config; // PfcPriorities=3
    std::string at(const Snapshot& s, double t, const std::string& dev = "bnxt_re0")
    {
        std::vector<Event> out;
        rules.configure(config);
        rules.evaluate(s, t, t, conditions, out);
        HealthReport r;
        rules.annotate(r);
        auto it = r.congestion.find({dev, 1});
        return it == r.congestion.end() ? "none" : it->second.state;
    }
};

// 15 % of each second paused on priority `prio`, no ECN mark.
Snapshot pausedAt(double t, uint8_t prio, bool described = true)
{
    return node(t,
                {{"ethtool",
                  "eth0",
                  "rx_pfc_pause_us",
                  {M::RxPauseDuration, prio, true},
                  static_cast<uint64_t>(150000 * t)},
                 {"hw_counters", "", "ecn_marked", {M::EcnMarked, kNone, true}, 0}},
                described);
}

} // namespace

TEST(CounterMeanings, PauseDurationUnderAnotherNameGivesTheCongestionVerdict)
{
    BnxtJudge j;
    EXPECT_EQ(j.at(pausedAt(100, 3), 100), "unknown");
    EXPECT_EQ(j.at(pausedAt(103, 3), 103), "pfc_only");
    EXPECT_TRUE(j.conditions.contains({"bnxt_re0", 1, "congestion.pfc_only"}));

    BnxtJudge other_priority; // PFC is on priority 3 only: pauses of 4 are not the lossless class's
    other_priority.at(pausedAt(100, 4), 100);
    EXPECT_EQ(other_priority.at(pausedAt(103, 4), 103), "idle");

    BnxtJudge silent; // a plugin that says nothing gives the verdict nothing to read
    silent.at(pausedAt(100, 3, false), 100);
    EXPECT_EQ(silent.at(pausedAt(103, 3, false), 103), "none");
}

// The congestion window saved by a nicd from before meanings (keys "<kind>/<netdev>/<name>")
// goes on with the same counters: the state's format did not change.
TEST(CounterMeanings, ACongestionWindowSavedBeforeMeaningsGoesOn)
{
    BnxtJudge j;
    j.rules.restore(nlohmann::json::parse(R"([{"device":"mlx5_0","port":1,"readings":[
        {"at":100,"values":{"0/eth0/rx_prio3_pause_duration":15000000,
                            "6//np_ecn_marked_roce_packets":0,"9//out_of_sequence":0}}]}])"));
    Snapshot s;
    s.inventory.devices.push_back(test::device("mlx5_0", 4));
    DeviceSamples ds;
    ds.ibdev = "mlx5_0";
    ds.monotonic_usec = 103'000'000;
    test::addMlx5Samples(ds, {{"ethtool", 1, "eth0", "rx_prio3_pause_duration", 15450000},
                              {"hw_counters", 1, "", "np_ecn_marked_roce_packets", 0},
                              {"hw_counters", 1, "", "out_of_sequence", 0}});
    s.samples = {ds};
    EXPECT_EQ(j.at(s, 103, "mlx5_0"), "pfc_only") << "judged on the restored reading at 100";
}

TEST(CounterMeanings, TheTextfilesDefaultSeriesFollowMeanings)
{
    auto snap = [](bool described) {
        return node(1,
                    {{"hw_counters", "", "to_retransmits", {M::LocalAckTimeout}, 5},
                     {"hw_counters", "", "made_up", {}, 6},
                     {"ethtool", "eth0", "rx_pfc_frames_3", {M::RxPauseFrames, 3, true}, 7},
                     {"ethtool", "eth0", "rx_pfc_frames_4", {M::RxPauseFrames, 4, true}, 8}},
                    described);
    };
    const textfile::CounterBudget budget(defaultConfig()); // Counters=default, PfcPriorities=3
    auto text = test::renderTextfile(snap(true), budget);
    EXPECT_NE(text.find("counter=\"to_retransmits\"} 5"), std::string::npos) << text;
    EXPECT_NE(text.find("stat=\"rx_pfc_frames_3\"} 7"), std::string::npos) << text;
    EXPECT_EQ(text.find("rx_pfc_frames_4"), std::string::npos) << "not a lossless priority";
    EXPECT_EQ(text.find("made_up"), std::string::npos);
    auto silent = test::renderTextfile(snap(false), budget);
    EXPECT_EQ(silent.find("to_retransmits"), std::string::npos)
        << "a series that means nothing is not in the default set";
}
