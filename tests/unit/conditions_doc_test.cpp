// docs/conditions.md is the contract of condition codes and actions: this reads its tables and
// checks them against what the code emits (the action set, every default counter rule, every
// kernel line the mlx5 plugin recognises in the shared fixtures, the link, device and driver
// conditions of a simulated failure, the mlx5 plugin's soft-lockup report, and the rename event).
#include "bnxt/counter_meanings.hpp"
#include "config/value_parsers.hpp"
#include "health/counter_rules.hpp"
#include "health/health_engine.hpp"
#include "health/kernel_rules.hpp"
#include "kernel_patterns.hpp"
#include "model/action.hpp"
#include "support/conditions_doc.hpp"
#include "support/health_fixture.hpp"
#include "support/kernel_records.hpp"
#include "support/mlx5_reports.hpp"
#include "support/mlx5_samples.hpp"
#include "support/sim_tree.hpp"
#include "traits.hpp"

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

TEST_F(ConditionsDoc, ListsExactlyTheActionSet)
{
    auto start = doc_.find("## Actions");
    auto end = doc_.find("## Severities");
    ASSERT_NE(start, std::string::npos);
    ASSERT_NE(end, std::string::npos);
    std::string section = doc_.substr(start, end - start);
    std::set<std::string> listed;
    static const std::regex row(R"(\n\| `([a-z_]+)` \|)");
    for (std::sregex_iterator it(section.begin(), section.end(), row), e; it != e; ++it)
        listed.insert((*it)[1]);
    std::set<std::string> known;
    for (auto a : kAllActions) {
        known.insert(toString(a));
        EXPECT_EQ(parseAction(toString(a)), a);
    }
    EXPECT_EQ(listed, known);
    EXPECT_GT(rows_.size(), 40U);
    for (const auto& r : rows_)
        EXPECT_TRUE(parseAction(r.action)) << r.code_text << ": " << r.action;
}

TEST_F(ConditionsDoc, EveryDefaultCounterRule)
{
    for (const auto& rule : defaultCounterRules()) {
        if (rule.means == Meaning::None) { // an IB PMA counter's, by name
            EXPECT_TRUE(documented("counter." + rule.counter, toString(rule.severity),
                                   toString(rule.action)));
            continue;
        }
        ASSERT_TRUE(meaningNames().contains(rule.means));
        EXPECT_TRUE(documented("counter.some_counter.ens1f0np0", toString(rule.severity),
                               toString(rule.action), meaningNames().at(rule.means)) ||
                    documented("counter.some_counter", toString(rule.severity),
                               toString(rule.action), meaningNames().at(rule.means)))
            << meaningNames().at(rule.means);
    }
    EXPECT_TRUE(documented("counter_saturated.symbol_error", "info", "none"));
}

namespace {
// What bnxt's table says a counter means (hw_counters first, then ethtool), as mlx5Meaning does.
plugin::v1::SeriesMeaning bnxtMeaning(const std::string& name)
{
    auto m = bnxt::meaningOf({.source = "hw_counters", .name = name});
    return m.meaning != plugin::v1::Meaning::None
               ? m
               : bnxt::meaningOf({.source = "ethtool", .name = name});
}

// The counters a cell of the table names ("`a` (≥ 6.18: `b`)"; "—" names none), each checked
// against `meaningOf` for `meaning`; how many there were.
template <typename MeaningOf>
int checkCell(const std::string& cell, const std::string& meaning, const std::string& plugin,
              MeaningOf meaningOf)
{
    static const std::regex name("`([a-z0-9_<>]+)`");
    int count = 0;
    // Text after "(" that says what a counter is *not* ("— (its `x` counts ...)") is prose.
    const std::string named = cell.starts_with(" —") ? std::string() : cell;
    for (std::sregex_iterator n(named.begin(), named.end(), name), e; n != e; ++n, ++count) {
        std::string counter = (*n)[1];
        if (auto p = counter.find("<p>"); p != std::string::npos)
            counter.replace(p, 3, "3");
        const auto m = meaningOf(counter);
        EXPECT_TRUE(test::meaningNames().contains(m.meaning))
            << counter << " means nothing to " << plugin;
        if (!test::meaningNames().contains(m.meaning))
            continue;
        EXPECT_EQ(test::meaningNames().at(m.meaning), meaning) << plugin << ": " << counter;
        EXPECT_EQ(m.priority, (*n)[1].str() == counter ? plugin::v1::kNoPriority : 3)
            << plugin << ": " << counter;
    }
    return count;
}
} // namespace

// The table of counter meanings names every meaning once, each with the counters each plugin
// says mean it (a plugin's counter per priority as <p>; "—": none of its counters does), and
// every meaning is some plugin's.
TEST_F(ConditionsDoc, CounterMeaningsAreThePluginsOwn)
{
    auto start = doc_.find("### Counter meanings");
    ASSERT_NE(start, std::string::npos);
    const std::string section = doc_.substr(start, doc_.find("\n##", start + 4) - start);
    static const std::regex row(R"(\n\| ([A-Za-z]+) \| [^|]+ \|([^|]+)\|([^|]+)\|)");
    std::set<std::string> listed;
    for (std::sregex_iterator it(section.begin(), section.end(), row), e; it != e; ++it) {
        const std::string meaning = (*it)[1];
        if (meaning == "meaning")
            continue; // the header
        EXPECT_TRUE(listed.insert(meaning).second) << meaning << " listed twice";
        int count = checkCell((*it)[2], meaning, "mlx5", test::mlx5Meaning);
        count += checkCell((*it)[3], meaning, "bnxt", bnxtMeaning);
        EXPECT_GE(count, 1) << meaning << ": no plugin's counter";
    }
    std::set<std::string> all;
    for (const auto& [m, name] : meaningNames())
        all.insert(name);
    EXPECT_EQ(listed, all);
}

// Every line of the shared fixtures that the mlx5 plugin recognises, at its own severity and,
// where it repeats, escalated.
TEST_F(ConditionsDoc, EveryKernelLineTheMlx5PluginRecognises)
{
    std::ifstream in(std::string(NICD_SHARED_DIR) + "/fixtures/kernel-log-lines.txt");
    ASSERT_TRUE(in) << "../shared/fixtures/kernel-log-lines.txt";
    std::set<std::string> codes;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        plugin::v1::KernelLineMatch m;
        if (!mlx5::classifyKernelRecord(test::logged(line).record(), m))
            continue;
        codes.insert(m.code);
        bool fatal = m.severity == plugin::v1::Severity::Fatal;
        EXPECT_TRUE(documented("kernel." + m.code, fatal ? "fatal" : "degraded",
                               toString(kernelAction(m, fatal))))
            << line;
        EXPECT_TRUE(parseAction(m.action_code)) << m.code << ": " << m.action_code;
        if (!fatal && kernelAction(m, false) == Action::None) {
            EXPECT_EQ(kernelAction(m, true), Action::ResetNic) << "repeats escalate to a reset";
        }
    }
    EXPECT_GE(codes.size(), 8U) << "the fixtures cover most patterns";
}

// A node that loses a link, a netdev, a driver and a device: each condition as documented.
TEST_F(ConditionsDoc, LinkDeviceAndDriverConditions)
{
    HealthEngine engine{Config{}};
    auto node = [](bool port_up, bool netdev_up, bool device_there, bool wedged) {
        Snapshot s;
        for (const char* name : {"mlx5_0", "mlx5_1"}) {
            if (std::string(name) == "mlx5_1" && !device_there)
                continue;
            auto d = test::device(name, port_up ? 4 : 1);
            d.plugin = "mlx5";
            const std::string netdev = std::string("eth_") + name;
            d.ports[0].netdevs = {netdev};
            s.inventory.devices.push_back(d);
            s.netdevs[netdev] = {netdev, netdev_up ? "up" : "down", netdev_up, 1};
            DeviceSamples ds;
            ds.ibdev = name;
            if (wedged)
                ds.unresponsive = "a read did not return";
            s.samples.push_back(ds);
        }
        return s;
    };
    std::vector<Condition> raised;
    auto run = [&](Snapshot s, double t) {
        engine.evaluate(s, t, t);
        for (const auto& c : s.health.conditions)
            raised.push_back(c);
    };
    run(node(true, true, true, false), 1);
    run(node(true, false, true, false), 2);
    run(node(false, false, true, false), 3);
    run(node(true, true, false, true), 4);
    engine.kernelReport(test::mlx5SoftLockup("BUG: soft lockup - CPU#3 stuck for 23s! [a:1]"),
                        node(true, true, true, false).inventory, 5, 5);
    Snapshot s = node(true, true, true, false);
    engine.report(s);
    raised.insert(raised.end(), s.health.conditions.begin(), s.health.conditions.end());
    std::set<std::string> codes;
    for (const auto& c : raised) {
        codes.insert(c.code);
        EXPECT_TRUE(documented(c.code, toString(c.severity), toString(c.action)));
    }
    for (const char* want : {"port_down", "netdev_down.eth_mlx5_0", "device_missing",
                             "driver_unresponsive", "kernel.driver_soft_lockup"})
        EXPECT_TRUE(codes.contains(want)) << want << " was not raised";
}

// A port that flaps, then drops for good: link_flapping and link_drop as documented.
TEST_F(ConditionsDoc, LinksOverTime)
{
    HealthEngine engine{Config{}};
    auto node = [](bool up) {
        Snapshot s;
        auto d = test::device("mlx5_0", up ? 4 : 1);
        if (!up) {
            d.ports[0].phys_state = 2;
            d.ports[0].phys_state_name = "Polling";
        }
        s.inventory.devices.push_back(d);
        return s;
    };
    std::set<std::string> codes;
    double t = 0;
    for (bool up : {true, false, true, false, true, false, true, false, false, false, false}) {
        Snapshot s = node(up);
        t += 100;
        engine.evaluate(s, t, t);
        for (const auto& c : s.health.conditions) {
            codes.insert(c.code);
            EXPECT_TRUE(documented(c.code, toString(c.severity), toString(c.action)));
        }
    }
    EXPECT_TRUE(codes.contains("link_flapping"));
    EXPECT_TRUE(codes.contains("link_drop"));
}

// A rename is an event, never an active condition: its code is documented, info, action none.
TEST_F(ConditionsDoc, TheRenameEvent)
{
    HealthEngine engine{Config{}};
    auto node = [](const char* name) {
        Snapshot s;
        Device d;
        d.ibdev = name;
        d.pci_address = "0000:1a:00.0";
        s.inventory.devices.push_back(d);
        return s;
    };
    auto s = node("mlx5_0");
    engine.evaluate(s, 1, 1);
    s = node("rocep26s0f0");
    auto events = engine.evaluate(s, 2, 2);
    ASSERT_EQ(events.size(), 1U);
    EXPECT_EQ(events[0].kind, EventKind::Renamed);
    EXPECT_TRUE(
        documented(events[0].code, toString(events[0].severity), toString(events[0].action)));
    EXPECT_TRUE(s.health.conditions.empty());
}

// Every pre-failure signal out of its limits at once, on two devices of one board, one of them
// below the board's firmware baseline: each condition as documented.
TEST_F(ConditionsDoc, PreFailureConditions)
{
    Config config;
    config.health.firmware_min = {{"MT_0000000838", "28.40.1000"}}; // [health] FirmwareMin=
    HealthEngine engine{config};
    auto node = [](double t, uint64_t corrected, uint64_t uncorrectable) {
        Snapshot s;
        for (const char* name : {"mlx5_0", "mlx5_1"}) {
            Device d;
            d.ibdev = name;
            d.pci_address = std::string(name) == "mlx5_0" ? "0000:1a:00.0" : "0000:3b:00.0";
            d.board_id = "MT_0000000838";
            d.fw_ver = std::string(name) == "mlx5_0" ? "28.39.1002" : "28.41.1000";
            d.plugin = d.claimed_by = "mlx5"; // its reporters read as the mlx5 plugin says
            Port p;
            p.num = 1;
            p.link_layer = "Ethernet";
            p.state = 4;
            p.rate = std::string(name) == "mlx5_0" ? "200 Gb/sec (2X NDR)" : "400 Gb/sec (4X NDR)";
            p.rate_gbps = std::string(name) == "mlx5_0" ? 200 : 400;
            p.netdevs = {std::string("eth_") + name};
            d.ports.push_back(p);
            if (std::string(name) == "mlx5_0") // its SMI device's plane 3 trained down
                for (uint32_t plane = 1; plane <= 4; ++plane) {
                    PlanePort pp;
                    pp.smi_device = "smi0";
                    pp.port.num = plane;
                    pp.port.rate = plane == 3 ? "50 Gb/sec (1X NDR)" : "100 Gb/sec (1X NDR)";
                    pp.port.rate_gbps = plane == 3 ? 50 : 100;
                    d.planes.push_back(pp);
                }
            s.inventory.devices.push_back(d);
            s.uplinks.push_back({name, 1, p.netdevs[0], "Ethernet", p.rate_gbps, 4, true});
        }
        FecStats f;
        f.netdev = "eth_mlx5_0";
        f.active = "RS";
        f.corrected_bits = FecCounter{corrected, {}};
        f.uncorrectable_blocks = FecCounter{uncorrectable, {}};
        f.read_at = t;
        s.fec[f.netdev] = f;
        ModuleDom m;
        m.identifier = 0x18;
        m.standard = ModuleStandard::Cmis;
        m.has_dom = true;
        m.temperature_celsius = 72;
        m.temperature = {75, -5, 70, 0};
        m.supply_volts = 3.0;
        m.supply = {3.6, 2.9, 3.5, 3.1};
        m.rx_power = {3e-3, 1e-4, 2.5e-3, 1.26e-4};
        m.tx_bias = {0.1, 0.01, 0.09, 0.015};
        m.tx_power = {4e-3, 1.6e-4, 3.2e-3, 2e-4};
        m.lanes = {{0.095, 1.4e-3, 5e-5, false, false}, {0.05, 5e-3, 1e-3, true, false}};
        s.modules["eth_mlx5_0"] = m;
        s.temperatures["mlx5_0"] = {{"asic", 108, 105, 109}};
        auto meanings = std::make_shared<ReporterMeanings>();
        plugin::v1::PluginTraits traits;
        plugin::sdk::describeFacts(mlx5::kFacts, traits);
        for (const auto& r : traits.reporters)
            (*meanings)["mlx5"][r.name] = r.meaning;
        s.reporter_meanings = meanings;
        s.reporters = {{"pci/0000:1a:00.0", "fw_fatal", false, "error", 1, 0},
                       {"pci/0000:1a:00.0", "fw", false, "error", 1, 0},
                       {"pci/0000:1a:00.0/65535", "tx", false, "error", 2, 1}};
        // The NIC's own link and its switch's link to the root port, both trained down.
        PcieLink trained_down{16.0, 8, 32.0, 16, 32.0, 16, {}};
        s.pcie["mlx5_0"] = trained_down;
        s.pcie["mlx5_0"].path = {{"0000:17:01.0", "0000:1a:00.0", trained_down}};
        return s;
    };
    std::vector<Condition> raised;
    for (auto [t, corrected, uncorrectable] :
         {std::tuple{100.0, uint64_t{0}, uint64_t{0}},
          std::tuple{160.0, uint64_t{2} << 40, uint64_t{1000}}}) {
        Snapshot s = node(t, corrected, uncorrectable);
        engine.evaluate(s, t, t);
        raised.insert(raised.end(), s.health.conditions.begin(), s.health.conditions.end());
    }
    std::set<std::string> codes;
    for (const auto& c : raised) {
        codes.insert(c.code);
        EXPECT_TRUE(documented(c.code, toString(c.severity), toString(c.action))) << c.message;
    }
    for (const char* want :
         {"fec_margin", "fec_uncorrectable", "optics_temperature_high", "optics_supply_low",
          "optics_rx_power_low", "optics_tx_bias_high", "optics_tx_power_high", "optics_tx_fault",
          "asic_temperature_high", "firmware_fatal", "firmware_error", "devlink_reporter.tx",
          "pcie_link_degraded", "pcie_path_degraded", "port_rate_degraded", "plane_rate_degraded",
          "firmware_drift", "firmware_below_baseline"})
        EXPECT_TRUE(codes.contains(want)) << want << " was not raised";
    for (const auto& c : raised)
        EXPECT_EQ(c.device, "mlx5_0") << c.code << " on the healthy peer: " << c.message;
}

// The congestion verdicts that call for action, one port each over a window of three seconds:
// each condition as documented, and the busy healthy port (ECN at work) raises nothing.
TEST_F(ConditionsDoc, CongestionConditions)
{
    HealthEngine engine{Config{}};
    // (ibdev, counter, per second) moved over the window; every port has ECN at 20/s otherwise.
    const std::vector<std::tuple<std::string, std::string, double>> moved{
        {"mlx5_1", "rx_prio3_pause_duration", 150000},
        {"mlx5_1", "np_ecn_marked_roce_packets", 0},
        {"mlx5_1", "np_cnp_sent", 0},
        {"mlx5_1", "rp_cnp_handled", 0},
        {"mlx5_2", "rx_prio3_pause_duration", 900000},
        {"mlx5_3", "out_of_sequence", 5},
        {"mlx5_4", "tx_pause_storm_error_events", 1}};
    auto node = [&](double t) {
        Snapshot s;
        for (const char* name : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4"}) {
            s.inventory.devices.push_back(test::device(name, 4));
            DeviceSamples ds;
            ds.ibdev = name;
            ds.monotonic_usec = static_cast<uint64_t>(t * 1e6);
            auto rate = [&](const std::string& counter, double fallback) {
                for (const auto& [dev, c, r] : moved)
                    if (dev == name && c == counter)
                        return r;
                return fallback;
            };
            for (const char* c : {"rx_prio3_pause_duration", "tx_prio3_pause_duration",
                                  "tx_pause_storm_warning_events", "tx_pause_storm_error_events"})
                test::addMlx5Samples(
                    ds, {{"ethtool", 1, std::string("eth_") + name, c,
                          static_cast<uint64_t>(rate(c, 0) * t), plugin::v1::SampleKind::Counter}});
            for (const char* c :
                 {"np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "out_of_sequence"})
                test::addMlx5Samples(
                    ds, {{"hw_counters", 1, "", c,
                          static_cast<uint64_t>(
                              rate(c, std::string(c) == "out_of_sequence" ? 0 : 20) * t),
                          plugin::v1::SampleKind::Counter}});
            s.samples.push_back(ds);
        }
        return s;
    };
    std::vector<Condition> raised;
    Snapshot last;
    for (double t : {100.0, 103.0}) {
        last = node(t);
        engine.evaluate(last, t, t);
        raised.insert(raised.end(), last.health.conditions.begin(), last.health.conditions.end());
    }
    std::map<std::string, std::set<std::string>> by_device;
    for (const auto& c : raised) {
        EXPECT_TRUE(documented(c.code, toString(c.severity), toString(c.action))) << c.message;
        if (c.code.starts_with("congestion.")) // the per-counter rules may add their own
            by_device[c.device].insert(c.code + " " + toString(c.severity));
    }
    EXPECT_EQ(by_device, (std::map<std::string, std::set<std::string>>{
                             {"mlx5_1", {"congestion.pfc_only degraded"}},
                             {"mlx5_2", {"congestion.pause_storm degraded"}},
                             {"mlx5_3", {"congestion.lossy degraded"}},
                             {"mlx5_4", {"congestion.pause_storm fatal"}}}));
    EXPECT_EQ(last.health.congestion.at({"mlx5_0", 1}).state, "ecn_working");
}

// nicctl(8) names every kind of event nicd emits (it once lacked renamed and changed), and the
// bus interface's description lists them all.
TEST(EventKindsDoc, NicctlPageAndTheInterfaceNameEveryKind)
{
    const std::filesystem::path source(NICD_SOURCE_DIR);
    const auto page = test::readFile(source / "docs/man/nicctl.8");
    const auto xml = test::readFile(source / "dbus/io.nicd.Nicd1.Manager.xml");
    ASSERT_FALSE(page.empty());
    for (auto kind : {EventKind::Raised, EventKind::Recovered, EventKind::Cleared,
                      EventKind::Baseline, EventKind::Renamed, EventKind::Changed}) {
        const std::string name = toString(kind);
        // A roff line of its own: ".B renamed", ".BR recovered ,", ".RB ( raised ,".
        const std::regex line("\n\\.(B|BR|RB \\() " + name + "( ,)?\n");
        EXPECT_TRUE(std::regex_search(page, line))
            << "nicctl(8) does not name the event kind " << name;
        EXPECT_NE(xml.find(name), std::string::npos) << "the Manager interface lacks " << name;
    }
}
