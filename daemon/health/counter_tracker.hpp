// Counter arithmetic across reads: growth from monotonic timestamps, 32-bit wrap, saturation and
// resets, and the growth within a rule's window. Pure; serialisable for restarts and --once runs.
//
// Window semantics (the same for every rule): a rule "N per W seconds" breaches when the counter
// grew by more than N within the last W seconds. The growth is measured from a reference point at
// or just before the window's start; history is thinned to about 20 points per window (steps of
// W/20), so the window is exact to 5 %. When the time between two reads is longer than W (a 10 s
// poll against a per-second rule, or two --once runs an hour apart), the allowance grows with the
// span: 10/s over 5 s allows 50. Consequences: a per-hour rule never extrapolates (1 error in the
// first second is not "3600 per hour"), but fires as soon as more than its hourly allowance
// happened, however fast; it recovers once the last W seconds hold no more than N. An "any
// increase" rule is N = 0 over 10 minutes: it holds until the counter was quiet for 10 minutes.
#pragma once

#include "health/counter_rules.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::health {

// How a counter behaves at its limit (reference/counters.md §1).
enum class CounterWidth : uint8_t {
    Saturating, // IB PMA counters/: stop at all-ones; never wrap (a decrease is a reset)
    Wraps32,    // mlx5 Q counters in hw_counters/: 32-bit in hardware, wrap at 2^32
    Wide64,     // 64-bit (ethtool, congestion counters): a decrease is a reset
};

CounterWidth counterWidth(std::string_view source, std::string_view counter);
// The value an IB PMA counter sticks at (16-bit symbol_error: 65535), when its width is known.
std::optional<uint64_t> saturationValue(std::string_view source, std::string_view counter);

// The growth between two reads. A decrease is a 32-bit wrap only for a Wraps32 counter whose
// last value was in the top half of the 32-bit range and whose new value is in the bottom half;
// any other decrease is a reset (driver reload, firmware reset, admin clear). A counter stuck at
// its maximum grows by 0.
struct CounterStep {
    uint64_t increase = 0;
    bool reset = false;
};
CounterStep counterStep(uint64_t last, uint64_t now, CounterWidth width = CounterWidth::Wraps32);

struct CounterObservation {
    enum class Kind : uint8_t {
        Baseline, // first sight: nothing to compare with
        Stale,    // not read again since the last observation (same or older timestamp)
        Reset,    // went backwards: a new baseline
        Measured, // grew by `grew` within `span` seconds
    };
    Kind kind = Kind::Baseline;
    uint64_t grew = 0;     // growth within the rule's window (Measured)
    double span = 0;       // seconds the growth covers
    bool breach = false;   // grew > the rule's allowance for `span`
    uint64_t previous = 0; // the value before this read (Reset: what it went back from)
};

class CounterTracker {
public:
    // "mlx5_0|1|hw_counters||out_of_buffer": one history per device, port, source, netdev, name.
    static std::string key(std::string_view device, uint32_t port, std::string_view source,
                           std::string_view netdev, std::string_view counter);

    // A read of `value` at monotonic time `t` (seconds) against `rule`.
    CounterObservation observe(const std::string& key, uint64_t value, double t,
                               const CounterRule& rule, CounterWidth width);
    void forget(const std::string& key) { histories_.erase(key); }
    size_t size() const { return histories_.size(); }

    nlohmann::json toJson() const;
    // Throws nlohmann::json::exception on a malformed document.
    static CounterTracker fromJson(const nlohmann::json& j);

private:
    struct History {
        // (time, cumulative growth), ~20 at most: a vector (a deque takes ~600 bytes even empty,
        // for each of the ~1,000 counters a node's rules follow).
        std::vector<std::pair<double, uint64_t>> points;
        uint64_t last_value = 0;
        uint64_t cumulative = 0;
        double last_time = 0;
    };
    std::map<std::string, History> histories_;
};

} // namespace nicd::health
