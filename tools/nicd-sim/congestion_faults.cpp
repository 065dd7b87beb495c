// Congestion scenarios: the counters a RoCE port's congestion moves (reference congestion.md §6.2),
// set as rates the ticks advance, consistently: pause durations in microseconds per second with
// their pause frames and transitions, ECN marks with the CNPs that answer them.
#include "counter_access.hpp"
#include "sim.hpp"

#include <utility>
#include <vector>

namespace nicd::sim {

namespace {

using Rates = std::vector<std::pair<const char*, double>>;

// Every counter a scenario may move, so that one scenario replaces another and clear restores
// the catalog's healthy rates.
const char* const kMoved[] = {
    "np_ecn_marked_roce_packets",
    "np_cnp_sent",
    "rp_cnp_handled",
    "rx_prio3_pause",
    "rx_prio3_pause_duration",
    "rx_prio3_pause_transition",
    "tx_prio3_pause",
    "tx_prio3_pause_duration",
    "tx_pause_storm_warning_events",
    "tx_pause_storm_error_events",
    "out_of_sequence",
};

void applyScenario(const fs::path& root, const std::string& dev, const Rates& rates)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    for (const char* name : kMoved) {
        auto c = locateCounter(root, st, dev, name, 1);
        st.rates.erase(c.key());
        st.carry.erase(c.key());
    }
    for (const auto& [name, per_second] : rates) {
        auto c = locateCounter(root, st, dev, name, 1);
        st.rates[c.key()] = per_second;
    }
    st.save(root);
}

} // namespace

void congestEcn(const fs::path& root, const std::string& dev, bool on)
{
    // Incast the switch marks: many marks, a CNP for every few, senders cutting their rate; the
    // queue still fills now and then (0.2% paused).
    applyScenario(root, dev,
                  on ? Rates{{"np_ecn_marked_roce_packets", 50000},
                             {"np_cnp_sent", 20000},
                             {"rp_cnp_handled", 20000},
                             {"rx_prio3_pause", 20},
                             {"rx_prio3_pause_duration", 2000},
                             {"rx_prio3_pause_transition", 20}}
                     : Rates{});
}

void congestPfcOnly(const fs::path& root, const std::string& dev, bool on)
{
    // The switch does not mark: no ECN, no CNP; the peer pauses us 15% of the time in 250 µs
    // pauses.
    applyScenario(root, dev,
                  on ? Rates{{"np_ecn_marked_roce_packets", 0},
                             {"np_cnp_sent", 0},
                             {"rp_cnp_handled", 0},
                             {"rx_prio3_pause", 600},
                             {"rx_prio3_pause_duration", 150000},
                             {"rx_prio3_pause_transition", 600}}
                     : Rates{});
}

void pauseStorm(const fs::path& root, const std::string& dev, bool on)
{
    // The port is held off 90% of the time and the driver's stall detection warns.
    applyScenario(root, dev,
                  on ? Rates{{"np_ecn_marked_roce_packets", 0},
                             {"np_cnp_sent", 0},
                             {"rp_cnp_handled", 0},
                             {"rx_prio3_pause", 4000},
                             {"rx_prio3_pause_duration", 900000},
                             {"rx_prio3_pause_transition", 40},
                             {"tx_pause_storm_warning_events", 0.5}}
                     : Rates{});
}

void lossy(const fs::path& root, const std::string& dev, bool on)
{
    // PFC does not protect the priority: packets are lost and arrive out of sequence.
    applyScenario(root, dev, on ? Rates{{"out_of_sequence", 50}} : Rates{});
}

} // namespace nicd::sim
