// Congestion scenarios: the counters a RoCE port's congestion moves (reference congestion.md §6.2),
// set as rates the ticks advance, consistently: pause durations in microseconds per second with
// their pause frames and transitions, ECN marks with the CNPs that answer them. Each statistic is
// named as the device's vendor names it (vendor_catalog.hpp, FaultCounters).
#include "counter_access.hpp"
#include "sim.hpp"
#include "vendor_catalog.hpp"

#include <utility>
#include <vector>

namespace nicd::sim {

namespace {

// A scenario: the rate of each statistic it moves, the statistic named by its role.
using Rates = std::vector<std::pair<const char * FaultCounters::*, double>>;

// Every statistic a scenario may move, so that one scenario replaces another and clear restores
// the catalog's healthy rates.
constexpr const char* FaultCounters::*kMoved[] = {
    &FaultCounters::ecn_marked,        &FaultCounters::cnp_sent,
    &FaultCounters::cnp_handled,       &FaultCounters::rx_pause,
    &FaultCounters::rx_pause_duration, &FaultCounters::rx_pause_transition,
    &FaultCounters::tx_pause,          &FaultCounters::tx_pause_duration,
    &FaultCounters::storm_warning,     &FaultCounters::out_of_sequence,
};

void applyScenario(const fs::path& root, const std::string& dev, const Rates& rates)
{
    LockedNode st(root);
    const auto& names = vendorCatalog(st->device(dev).vendor).counters;
    for (auto role : kMoved) {
        auto c = locateCounter(root, *st, dev, names.*role, 1);
        st->rates.erase(c.key());
        st->carry.erase(c.key());
    }
    for (const auto& [role, per_second] : rates) {
        auto c = locateCounter(root, *st, dev, names.*role, 1);
        st->rates[c.key()] = per_second;
    }
    st.save();
}

using C = FaultCounters;

} // namespace

void congestEcn(const fs::path& root, const std::string& dev, bool on)
{
    // Incast the switch marks: many marks, a CNP for every few, senders cutting their rate; the
    // queue still fills now and then (0.2% paused).
    applyScenario(root, dev,
                  on ? Rates{{&C::ecn_marked, 50000},
                             {&C::cnp_sent, 20000},
                             {&C::cnp_handled, 20000},
                             {&C::rx_pause, 20},
                             {&C::rx_pause_duration, 2000},
                             {&C::rx_pause_transition, 20}}
                     : Rates{});
}

void congestPfcOnly(const fs::path& root, const std::string& dev, bool on)
{
    // The switch does not mark: no ECN, no CNP; the peer pauses us 15% of the time in 250 µs
    // pauses.
    applyScenario(root, dev,
                  on ? Rates{{&C::ecn_marked, 0},
                             {&C::cnp_sent, 0},
                             {&C::cnp_handled, 0},
                             {&C::rx_pause, 600},
                             {&C::rx_pause_duration, 150000},
                             {&C::rx_pause_transition, 600}}
                     : Rates{});
}

void pauseStorm(const fs::path& root, const std::string& dev, bool on)
{
    // The port is held off 90% of the time and the driver's stall detection warns.
    applyScenario(root, dev,
                  on ? Rates{{&C::ecn_marked, 0},
                             {&C::cnp_sent, 0},
                             {&C::cnp_handled, 0},
                             {&C::rx_pause, 4000},
                             {&C::rx_pause_duration, 900000},
                             {&C::rx_pause_transition, 40},
                             {&C::storm_warning, 0.5}}
                     : Rates{});
}

void lossy(const fs::path& root, const std::string& dev, bool on)
{
    // PFC does not protect the priority: packets are lost and arrive out of sequence.
    applyScenario(root, dev, on ? Rates{{&C::out_of_sequence, 50}} : Rates{});
}

} // namespace nicd::sim
