// LinkRules' judgements of a port over time (link_history.hpp says what they count):
// link_flapping, held until the port is stable FlapClearSec or an operator clears it, and
// link_drop, raised beside port_down and held DropHoldSec after the port is back.
#include "health/link_rules.hpp"
#include "health/verdicts.hpp"
#include "text/clock_time.hpp"

#include <fmt/format.h>

namespace nicd::health {

void LinkRules::judgeFlapping(const PortJudgement& j, const HealthConfig& hc)
{
    const ConditionKey key{j.d.ibdev, j.p.num, "link_flapping"};
    // Raised, it holds however the flaps age out of the window, until the port has been stable
    // FlapClearSec (or an operator clears it); then its flaps are forgotten, and what follows is
    // judged afresh.
    if (j.conditions.contains(key) && j.mem.settled(j.now_mono, hc)) {
        j.mem.forgetFlaps();
        j.conditions.recover(key,
                             fmt::format("link stable for {} s (FlapClearSec={})",
                                         hc.flap_clear_sec, hc.flap_clear_sec),
                             j.now_real, j.out);
        return;
    }
    const size_t flaps = j.mem.flaps(hc);
    if (hc.flap_count == 0 || flaps < hc.flap_count) {
        if (j.conditions.contains(key))
            j.seen.insert(key);
        return;
    }
    j.seen.insert(key);
    std::string what =
        hc.flap_mode == FlapMode::DownAndBack
            ? fmt::format("link went down for {} s or more and came back {} times within {} s",
                          hc.flap_down_sec, flaps, hc.flap_window_sec)
            : fmt::format("link went down {} times within {} s", flaps, hc.flap_window_sec);
    std::string until =
        hc.flap_clear_sec == 0
            ? "holds until cleared (nicctl clear " + j.d.ibdev + " link_flapping; FlapClearSec=0)"
            : fmt::format("clears once the port stays up {} s (FlapClearSec)", hc.flap_clear_sec);
    j.conditions.raise(makeCondition(ConditionSource::Link, "link_flapping",
                                     ConditionSeverity::Degraded, j.d.ibdev, j.p.num,
                                     what + "; " + until,
                                     "replace the cable or transceiver; check the switch port's "
                                     "error counters",
                                     Action::ReplaceCableOrTransceiver),
                       j.now_real, j.out);
}

void LinkRules::judgeDrop(const PortJudgement& j, const HealthConfig& hc, bool candidate,
                          const LinkDownCounts& counts)
{
    const ConditionKey key{j.d.ibdev, j.p.num, "link_drop"};
    const double down_for = j.mem.observeDrop(candidate, counts, j.now_mono);
    if (candidate && hc.drop_sec > 0 && down_for >= hc.drop_sec) {
        j.mem.drop_back_at.reset();
        j.seen.insert(key);
        j.conditions.raise(
            makeCondition(
                ConditionSource::Link, "link_drop", ConditionSeverity::Fatal, j.d.ibdev, j.p.num,
                fmt::format("the link dropped and never trained again: down {} s or "
                            "more (DropSec) with its link-down counters unchanged ({}); "
                            "{}",
                            hc.drop_sec, describeCounts(j.mem.drop_counts), describeState(j.p)),
                "check the cable and transceiver at both ends and the switch port "
                "(shut, err-disabled, or no module); the port is polling for a partner "
                "that does not answer",
                Action::CheckCable),
            j.now_real, j.out);
        return;
    }
    const Condition* held = j.conditions.find(key);
    if (held == nullptr) {
        j.mem.drop_back_at.reset();
        return;
    }
    j.seen.insert(key);
    if (!j.up) { // not back (or down again before its hold ran out): it holds
        if (j.mem.drop_back_at) {
            j.mem.drop_back_at.reset();
            Condition c = *held;
            c.message =
                "the link dropped, came back and is down again (" + describeState(j.p) + ")";
            j.conditions.raise(std::move(c), j.now_real, j.out);
        }
        return;
    }
    if (!j.mem.drop_back_at)
        j.mem.drop_back_at = j.now_mono;
    const double back_for = j.now_mono - *j.mem.drop_back_at;
    if (back_for >= hc.drop_hold_sec) {
        j.mem.drop_back_at.reset();
        j.conditions.recover(key,
                             fmt::format("port active for {} s since the drop (DropHoldSec={})",
                                         hc.drop_hold_sec, hc.drop_hold_sec),
                             j.now_real, j.out);
        return;
    }
    Condition c = *held;
    c.message = fmt::format("the link dropped and came back: active again, held until {} "
                            "(DropHoldSec={}: a link that was dead for minutes proves itself "
                            "before jobs return)",
                            utcClock(j.now_real + hc.drop_hold_sec - back_for), hc.drop_hold_sec);
    j.conditions.raise(std::move(c), j.now_real, j.out);
}

} // namespace nicd::health
