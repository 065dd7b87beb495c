// Per-key exponential backoff counted in attempts: after the n-th consecutive failure a key is
// skipped for 2^(n-1) attempts (1, 2, 4 … capped). A success resets it.
//
// Why: reading an unsupported counter on a restricted PF logs a firmware error in dmesg on
// every read (node_exporter issue 3434), so a failing file must not be retried every cycle.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace nicd {

class Backoff {
public:
    explicit Backoff(uint32_t max_skip = 64) : max_skip_(max_skip) {}

    // True when `key` should be tried this time (counts a skipped attempt otherwise).
    bool shouldTry(const std::string& key);
    // Records the outcome; returns true when this changes the key's state (first failure after
    // success, or first success after failure) — the moments worth a log line.
    bool failed(const std::string& key);
    bool succeeded(const std::string& key);

    uint32_t failures(const std::string& key) const;

private:
    struct Entry {
        uint32_t failures = 0;
        uint32_t skip_left = 0;
    };
    std::map<std::string, Entry> entries_;
    uint32_t max_skip_;
};

} // namespace nicd
