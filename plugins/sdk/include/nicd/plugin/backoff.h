// Per-key exponential backoff counted in attempts (calls to shouldTry), not in wall time: after the
// n-th consecutive failure a key is skipped for 2^(n-1) attempts (1, 2, 4 … capped). A success
// resets it. Counting attempts keeps the schedule independent of the interval the caller runs at
// and makes it deterministic to test; with PmaIntervalMs=10 s the default cap of 64 means a broken
// file is retried about every 11 minutes. Used by the daemon and by plugins alike.
//
// Why: a counter the firmware refuses (restricted PFs, node_exporter issue 3434) logs a firmware
// error in dmesg on every read, so a failing file or netdev must not be retried every cycle.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace nicd::plugin::sdk {

class Backoff {
public:
    explicit Backoff(uint32_t max_skip = 64) : max_skip_(max_skip) {}

    // True when `key` should be tried this time (counts a skipped attempt otherwise).
    bool shouldTry(const std::string& key);
    // Record the outcome; each returns true when it changes the key's state (first failure
    // after success, first success after failure): the moments worth a log line.
    bool failed(const std::string& key);
    bool succeeded(const std::string& key);
    // A failure that will not go away by itself ("N/A (no PMA)"): skipped for `max_skip` attempts
    // at once. True only the first time, so it is reported once.
    bool unsupported(const std::string& key);

    // Consecutive failures of `key` (0 when it is fine).
    uint32_t failures(const std::string& key) const;
    // False while every key is fine: callers can skip building keys for shouldTry/succeeded.
    bool anyFailing() const { return !entries_.empty(); }
    // Forgets every key that starts with `prefix` (a device that went away).
    void forget(const std::string& prefix);

private:
    struct Entry {
        uint32_t failures = 0;
        uint32_t skip_left = 0;
    };
    std::map<std::string, Entry> entries_;
    uint32_t max_skip_;
};

} // namespace nicd::plugin::sdk
