// What the link rules (link_rules.hpp) remember of one port over time, and the two judgements
// made from it:
//   flaps  FlapMode=transitions (the default): each time the port goes down. down-and-back
//          (gpud's): each time the port comes back up after being down FlapDownSec or longer,
//          counted from the first cycle that saw it down to the first that saw it up again; a
//          blip shorter than that is no flap. FlapCount flaps within FlapWindowSec is
//          link_flapping, which then holds until the port has stayed up FlapClearSec since it
//          last came back (0: until an operator clears it); either way the flaps are forgotten,
//          so that what is judged next starts from nothing.
//   drop   a port that was up this boot, down and not switched off, whose link-down counters
//          (linkDownCounts) have not moved for DropSec: the link went down once and never trained
//          again (a dead cable, transceiver or switch port), unlike a link that trains and fails
//          over and over (each failure moves the counters, and restarts the clock).
// Pure: times are the monotonic seconds the engine is given; kept across restarts within a boot
// (toJson/fromJson).
#pragma once

#include "config/config.hpp"
#include "model/snapshot.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

namespace nicd::health {

// A port's link-down counters by "source/name": the IB PMA's link_downed of the port
// ("counters/link_downed") and its plugin's statistics that mean LinkDownEvents
// ("ethtool:<netdev>/<name>"). Empty where none was read this cycle.
using LinkDownCounts = std::map<std::string, uint64_t>;
LinkDownCounts linkDownCounts(const Snapshot& snap, const std::string& ibdev, uint32_t port);

// "link_downed 3, link_down_events_phy 2" (names without their source); "none read" when empty.
std::string describeCounts(const LinkDownCounts& counts);
// "state DOWN, physical state Polling", as a link condition's message says it.
std::string describeState(const Port& p);

struct PortHistory {
    bool ever_up = false;
    bool was_up = false;
    std::deque<double> downs;           // when the port went down (transitions), within the window
    std::deque<double> backs;           // when it came back after FlapDownSec down (down-and-back)
    std::optional<double> down_at;      // since when it is down, after being up
    std::optional<double> back_at;      // when it last came up
    std::optional<double> drop_since;   // down, its counters unchanged, since
    LinkDownCounts drop_counts;         // the counters as they were then (and since first read)
    std::optional<double> drop_back_at; // up again while link_drop holds

    // The port seen `up` (or not) at `now`: a transition is counted and old flaps age out of
    // FlapWindowSec.
    void observe(bool up, double now, const HealthConfig& hc);
    // The flaps within the window, as FlapMode counts them.
    size_t flaps(const HealthConfig& hc) const;
    // Up, and FlapClearSec (> 0) since it last came up: link_flapping clears.
    bool settled(double now, const HealthConfig& hc) const;
    void forgetFlaps();

    // The port `down` (a drop candidate: was up, not trained, not switched off) at `now`, its
    // link-down counters `counts`: how long it has been down with them unchanged (0 when not down,
    // or when they just moved).
    double observeDrop(bool down, const LinkDownCounts& counts, double now);

    // What the state file keeps; fromJson reads a document of an older nicd (downs only) too, and
    // throws nlohmann::json::exception (or std::runtime_error) on a malformed one.
    nlohmann::json toJson() const;
    static PortHistory fromJson(const nlohmann::json& j);
};

} // namespace nicd::health
