// When the textfile is written ([textfile] IntervalMs=): after every cycle by default; with an
// interval, at most that often, except that what an operator alerts on is never held back: a
// change of the verdicts (a condition raised or recovered, health, the devices, QoS compliance,
// a plugin's state) is written at once. Pure (times and snapshots are given).
#pragma once

#include "model/snapshot.hpp"

#include <cstdint>

namespace nicd::textfile {

// A digest of what the textfile says that is not a counter or a gauge reading: equal digests,
// the same verdicts.
uint64_t verdictDigest(const Snapshot& snap);

class TextfilePace {
public:
    explicit TextfilePace(uint32_t interval_ms = 0) : interval_usec_(uint64_t{interval_ms} * 1000)
    {
    }
    void setInterval(uint32_t interval_ms) { interval_usec_ = uint64_t{interval_ms} * 1000; }

    // Whether `snap` is to be written now (CLOCK_MONOTONIC `now_usec`).
    bool due(const Snapshot& snap, uint64_t now_usec) const;
    // It was written (or the write was tried: a failed write is retried by the next due()).
    void written(const Snapshot& snap, uint64_t now_usec);
    // The next snapshot is written whatever the interval (a failed write, a reload).
    void forceNext() { written_ = false; }

private:
    uint64_t interval_usec_;
    bool written_ = false;
    uint64_t last_usec_ = 0;
    uint64_t last_digest_ = 0;
};

} // namespace nicd::textfile
