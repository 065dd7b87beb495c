// Counter arithmetic across reads: growth from monotonic timestamps, 32-bit wrap, saturation and
// resets, and the growth within a rule's window (counter_rules.hpp says what the rules mean).
// Pure; serialisable for restarts and successive --once runs within one boot.
//
// A Rate rule's window is kept as kBuckets buckets of window/kBuckets seconds each: the growth
// between two reads goes to the bucket of the later read, and the window's growth is the sum of
// the newest kBuckets buckets (the current one partly filled). So the sum never covers more than
// the window (no false alarm from growth older than the window), growth leaves it between
// window - window/kBuckets and window after it happened, and an hour at a 1 s poll costs a fixed
// 480 bytes per counter, allocated only while the window holds growth (a quiet counter costs
// nothing).
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
    Wraps32,    // hw_counters/ (mlx5's Q counters): 32-bit in hardware, wrap at 2^32
    Wide64,     // 64-bit (ethtool, congestion counters): a decrease is a reset
};

// A series of `source`, which its plugin says is 64 bits wide or not (SeriesMeaning::wide): a
// hw_counters/ series wraps at 2^32 unless its plugin says it is wide (one that says nothing:
// every one wraps), other plugin series are 64-bit.
CounterWidth counterWidth(std::string_view source, bool wide);
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
    uint64_t grew = 0;     // Rate: growth within the window; Delta: since the last read
    double span = 0;       // seconds the growth covers
    bool breach = false;   // over the rule's allowance (Delta: or still held)
    bool held = false;     // Delta: in breach only because an earlier read was (nothing new)
    uint64_t previous = 0; // the value before this read (Reset: what it went back from)
};

class CounterTracker {
public:
    // "mlx5_0|1|hw_counters||out_of_buffer": one history per device, port, source, netdev, name.
    static std::string key(std::string_view device, uint32_t port, std::string_view source,
                           std::string_view netdev, std::string_view counter);

    struct History;
    // A read of `value` at monotonic time `t` (seconds) against `rule`.
    CounterObservation observe(const std::string& key, uint64_t value, double t,
                               const CounterRule& rule, CounterWidth width);
    // The same for a history found once with history(key): no lookup by name at every read.
    CounterObservation observe(History& h, uint64_t value, double t, const CounterRule& rule,
                               CounterWidth width);
    // The history of `key`, made (empty, not saved until observed) if there is none. Valid until
    // forget(key), or this tracker is assigned over.
    History& history(const std::string& key) { return histories_[key]; }
    void forget(const std::string& key) { histories_.erase(key); }
    // The device's hardware is now called `to`: its histories move there (their addresses stay
    // valid), so its next read measures growth from the last one, no new baseline.
    void rename(std::string_view from, std::string_view to);
    size_t size() const { return histories_.size(); }

    nlohmann::json toJson() const;
    // Throws nlohmann::json::exception on a malformed document.
    static CounterTracker fromJson(const nlohmann::json& j);

    static constexpr size_t kBuckets = 60;

    struct History {
        bool seen = false; // observed at least once (or restored)
        uint64_t last_value = 0;
        double last_time = 0;
        double since = 0; // first read of this run of values (baseline or reset)
        // Rate: growth per bucket, a ring whose newest bucket has the absolute index `newest`
        // (floor(time / width)); empty while the window holds no growth.
        std::vector<uint64_t> buckets;
        int64_t newest = 0;
        double width = 0;
        double last_breach = -1; // Delta: the last read that grew by more than the threshold
    };

private:
    static void observeDelta(History& h, uint64_t increase, double prev_time, double t,
                             const CounterRule& rule, CounterObservation& o);
    static void observeRate(History& h, uint64_t increase, double prev_time, double t,
                            const CounterRule& rule, CounterObservation& o);
    std::map<std::string, History> histories_;
};

} // namespace nicd::health
