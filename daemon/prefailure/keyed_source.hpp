// The shape every pre-failure source shares: on its own interval (never in the fast cycle), one
// read per key — a netdev, a device, or the one devlink dump — through the driver, under the
// driver deadline (guarded_reads.hpp), with missing interfaces and failures reported per key
// (source_notes.hpp). A key whose read is left behind keeps its last value. A source is three
// functions: which keys to read (each with what its read needs: a netdev, a sysfs directory),
// how to read one, and where the values go in the snapshot.
#pragma once

#include "collect/source.hpp"
#include "prefailure/guarded_reads.hpp"
#include "prefailure/netlink_reply.hpp"
#include "prefailure/source_notes.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nicd::prefailure {

struct SourceTiming {
    std::chrono::milliseconds interval{60000}; // [signals] IntervalSec=
    std::chrono::milliseconds timeout{2000};   // [health] DriverTimeoutMs=
};

template <typename T> class KeyedSource : public collect::Source {
public:
    struct Key {
        std::string name; // how values are keyed and reported: "ens1f0np0", "mlx5_0"
        std::string what; // what the read needs: the netdev, a sysfs directory, ""
    };
    using KeysOf = std::function<std::vector<Key>(const Inventory&)>;
    // Runs on the deadline lane: must own what it touches. Unsupported: a missing interface.
    using ReadOne = std::function<Reply<T>(const std::string& what)>;
    using Place = std::function<void(const std::map<std::string, T>&, Snapshot&)>;

    // `by_device`: keys are RDMA device names (Source::keyedByDevice).
    KeyedSource(std::string name, SourceTiming timing, KeysOf keys, ReadOne read, Place place,
                bool by_device = false)
        : name_(std::move(name)), timing_(timing), keys_(std::move(keys)), read_(std::move(read)),
          place_(std::move(place)), guard_(timing.timeout), notes_(name_), by_device_(by_device)
    {
    }

    std::string name() const override { return name_; }
    bool keyedByDevice() const override { return by_device_; }
    // Zero (read in the next cycle) once readSoon() was set, until that read.
    std::chrono::milliseconds interval() const override
    {
        return soon_->load() ? std::chrono::milliseconds(0) : timing_.interval;
    }
    // Set from any thread: the next collection cycle reads this source whatever its interval.
    std::shared_ptr<std::atomic<bool>> readSoonFlag() const { return soon_; }

    void read(const Inventory& inventory) override
    {
        soon_->store(false);
        if (guard_.stuck())
            return; // an earlier read has not returned: keep everything as it was
        auto keys = std::make_shared<const std::vector<Key>>(keys_(inventory));
        auto results = std::make_shared<std::vector<Reply<T>>>(keys->size());
        size_t done = guard_.run(keys->size(), [keys, results, read = read_](size_t i) {
            (*results)[i] = read((*keys)[i].what);
        });
        std::map<std::string, T> next;
        for (size_t i = 0; i < keys->size(); ++i)
            take((*keys)[i].name, i < done ? &(*results)[i] : nullptr, next);
        if (done < keys->size())
            notes_.failed((*keys)[done].name,
                          fmt::format("did not answer within {} ms; nothing more is read until it "
                                      "does",
                                      timing_.timeout.count()));
        last_ = std::move(next);
    }

    void fill(Snapshot& snap) override { place_(last_, snap); }

private:
    // One key's result into `next`; without a result (its read was left behind) its last value.
    void take(const std::string& key, Reply<T>* r, std::map<std::string, T>& next)
    {
        if (!r) {
            if (auto it = last_.find(key); it != last_.end())
                next.insert(*it);
        } else if (r->status == Reply<T>::Status::Ok) {
            notes_.fine(key);
            next.emplace(key, std::move(r->value));
        } else if (r->status == Reply<T>::Status::Unsupported) {
            notes_.missing(key, r->message);
        } else {
            notes_.failed(key, r->message);
        }
    }

    std::string name_;
    SourceTiming timing_;
    KeysOf keys_;
    ReadOne read_;
    Place place_;
    GuardedReads guard_;
    SourceNotes notes_;
    bool by_device_;
    std::map<std::string, T> last_;
    std::shared_ptr<std::atomic<bool>> soon_ = std::make_shared<std::atomic<bool>>(false);
};

} // namespace nicd::prefailure
