// The shape every pre-failure source shares: on its own interval (never in the fast cycle), one
// read per key — a netdev, a device, or the one devlink dump — through the driver, under the
// driver deadline (guarded_reads.hpp), with missing interfaces and failures reported per key
// (source_notes.hpp). A key whose read is left behind keeps its last value. A concrete source
// says which keys to read, how to read one, and where the values go in the snapshot.
#pragma once

#include "collect/source.hpp"
#include "signals/guarded_reads.hpp"
#include "signals/read_outcome.hpp"
#include "signals/source_notes.hpp"

#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nicd::signals {

struct SourceTiming {
    std::chrono::milliseconds interval{60000}; // [signals] IntervalSec=
    std::chrono::milliseconds timeout{2000};   // [health] DriverTimeoutMs=
};

template <typename T> class KeyedSource : public Source {
public:
    using ReadOne = std::function<ReadOutcome<T>(const std::string& key)>;

    KeyedSource(std::string name, SourceTiming timing)
        : name_(std::move(name)), timing_(timing), guard_(timing.timeout), notes_(name_)
    {
    }

    std::string name() const override { return name_; }
    std::chrono::milliseconds interval() const override { return timing_.interval; }

    void read(const Inventory& inventory) override
    {
        auto keys = std::make_shared<const std::vector<std::string>>(keysOf(inventory));
        if (guard_.stuck())
            return; // an earlier read has not returned: keep everything as it was
        auto results = std::make_shared<std::vector<ReadOutcome<T>>>(keys->size());
        size_t done = guard_.run(keys->size(), [keys, results, fn = reader()](size_t i) {
            (*results)[i] = fn((*keys)[i]);
        });
        std::map<std::string, T> next;
        for (size_t i = 0; i < keys->size(); ++i) {
            const auto& key = (*keys)[i];
            if (i >= done) {
                if (auto it = last_.find(key); it != last_.end())
                    next.insert(*it);
                continue;
            }
            auto& r = (*results)[i];
            if (r.status == ReadStatus::Ok) {
                notes_.fine(key);
                next.emplace(key, std::move(r.value));
            } else if (r.status == ReadStatus::Missing) {
                notes_.missing(key, r.message);
            } else {
                notes_.failed(key, r.message);
            }
        }
        if (done < keys->size())
            notes_.failed((*keys)[done],
                          fmt::format("did not answer within {} ms; nothing more is read until it "
                                      "does",
                                      timing_.timeout.count()));
        last_ = std::move(next);
    }

    void fill(Snapshot& snap) override { place(last_, snap); }

protected:
    // The keys to read this time, in order.
    virtual std::vector<std::string> keysOf(const Inventory& inventory) = 0;
    // A function reading one key; it runs on the deadline lane and must own what it touches.
    virtual ReadOne reader() = 0;
    // Puts the values (by key) into the snapshot (every cycle).
    virtual void place(const std::map<std::string, T>& values, Snapshot& snap) = 0;

private:
    std::string name_;
    SourceTiming timing_;
    GuardedReads guard_;
    SourceNotes notes_;
    std::map<std::string, T> last_;
};

} // namespace nicd::signals
