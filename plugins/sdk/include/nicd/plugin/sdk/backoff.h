// Per-key exponential backoff counted in attempts (calls to shouldTry), not in wall time: after the
// n-th consecutive failure a key is skipped for 2^(n-1) attempts (1, 2, 4 … capped). A success
// resets it. Counting attempts keeps the schedule independent of the interval the caller runs at
// and makes it deterministic to test; with PmaIntervalMs=10 s the default cap of 64 means a broken
// file is retried about every 11 minutes. Used by the daemon and by plugins alike.
//
// Why: a counter the firmware refuses (restricted PFs, node_exporter issue 3434) logs a firmware
// error in dmesg on every read, so a failing file or netdev must not be retried every cycle. And
// one refused `drop_after` reads in a row (EINVAL, EOPNOTSUPP or EACCES: not a passing fault) is
// dropped: never tried again until retryDropped() (the daemon's reload) or a new process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace nicd::plugin::sdk {

class Backoff {
public:
    // [daemon] DropCounterAfter='s default.
    static constexpr uint32_t kDropAfter = 3;

    // `drop_after`: refused reads in a row that drop a key; 0: never dropped.
    explicit Backoff(uint32_t max_skip = 64, uint32_t drop_after = kDropAfter)
        : max_skip_(max_skip), drop_after_(drop_after)
    {
    }

    // True when `key` should be tried this time (counts a skipped attempt otherwise). Never true
    // for a dropped key.
    bool shouldTry(const std::string& key);
    // Record the outcome; each returns true when it changes the key's state (first failure
    // after success, first success after failure): the moments worth a log line.
    bool failed(const std::string& key);
    bool succeeded(const std::string& key);
    // A failure with the errno it failed with (0: not an errno, e.g. garbage content).
    // Refusals (isRefusal) `drop_after` times in a row drop the key.
    enum class Change : uint8_t { None, StartedFailing, Dropped };
    Change failed(const std::string& key, int err);
    // A failure that will not go away by itself ("N/A (no PMA)"): skipped for `max_skip` attempts
    // at once. True only the first time, so it is reported once.
    bool unsupported(const std::string& key);

    // Consecutive failures of `key` (0 when it is fine).
    uint32_t failures(const std::string& key) const;
    bool dropped(const std::string& key) const;
    // How many keys are dropped.
    size_t droppedCount() const { return dropped_; }
    // False while every key is fine: callers can skip building keys for shouldTry/succeeded.
    bool anyFailing() const { return !entries_.empty(); }
    // Forgets every key that starts with `prefix` (a device that went away).
    void forget(const std::string& prefix);
    // Every dropped key is tried again, as if it had never failed (a reload).
    void retryDropped();
    void setDropAfter(uint32_t drop_after) { drop_after_ = drop_after; }
    uint32_t dropAfter() const { return drop_after_; }

    // EINVAL, EOPNOTSUPP, EACCES: the driver or firmware refusing the read (a restricted or
    // Fabric-Manager function, a counter the device does not have), not a passing fault.
    static bool isRefusal(int err);

private:
    struct Entry {
        uint32_t failures = 0;
        uint32_t skip_left = 0;
        uint32_t refusals = 0; // consecutive failures that were refusals
        bool dropped = false;
    };
    std::map<std::string, Entry> entries_;
    uint32_t max_skip_;
    uint32_t drop_after_;
    size_t dropped_ = 0;
};

// IHost::config() key under which the daemon hands plugins its [daemon] DropCounterAfter=, and
// what a plugin makes of the answer: the number, or kDropAfter when it is missing or not one.
inline constexpr const char* kDropAfterKey = "DropCounterAfter";
uint32_t dropAfterSetting(const std::optional<std::string>& value);

// How a plugin tells the daemon how many of a device's counter files it dropped: a device-wide
// gauge sample (port 0, no netdev) of this source and name in its poll, when there are any. The
// daemon counts it in nicd_dropped_files{device} and publishes it nowhere else.
inline constexpr const char* kDaemonSource = "nicd";
inline constexpr const char* kFilesDroppedName = "dropped_files";

} // namespace nicd::plugin::sdk
