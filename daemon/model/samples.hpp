// Counter values of one collection, with the monotonic time they were read at.
//
// A device's values come as two batches (plugin ABI 1.3, nicd/plugin/plugin.h): the IB PMA
// counters the daemon reads itself (counters/), and what its plugin reads (hw_counters/, ethtool
// statistics). A batch is a shared, immutable layout naming the series, the same from one cycle
// to the next while the device reports the same ones, and this cycle's values: so a cycle
// allocates nothing per value, and names are resolved (rules, textfile lines) once per layout.
#pragma once

#include <nicd/plugin/plugin.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace nicd {

using Sample = plugin::v1::Sample; // ABI 1.0's one value with its names (older plugins, tests)
using SampleKind = plugin::v1::SampleKind;
using SeriesKey = plugin::v1::SeriesKey;
using SampleLayout = plugin::v1::SampleLayout;
using SampleBatch = plugin::v1::SampleBatch;
using Meaning = plugin::v1::Meaning;
using SeriesMeaning = plugin::v1::SeriesMeaning;
// What each series of a plugin's layout means (plugin ABI 1.5, IPlugin::describeLayout), in the
// layout's order: made once per layout and shared by every device and cycle that reads it.
using LayoutMeanings = std::vector<SeriesMeaning>;

// The meaning of series `i` of a layout whose meanings are `meanings` (None when it has none).
inline const SeriesMeaning& meaningAt(const LayoutMeanings* meanings, size_t i)
{
    static const SeriesMeaning none;
    return meanings != nullptr && i < meanings->size() ? (*meanings)[i] : none;
}

// Sources of samples. Plugins may add their own names.
inline constexpr const char* kSourceIbCounters = "counters";    // ports/N/counters (IB PMA)
inline constexpr const char* kSourceHwCounters = "hw_counters"; // ports/N/hw_counters (vendor)
inline constexpr const char* kSourceEthtool = "ethtool";        // netdev statistics
// What a plugin tells the daemon about its reads rather than the device (the number of counter
// files it dropped: nicd/plugin/sdk/backoff.h): never published as a counter.
inline constexpr const char* kSourceNicd = "nicd";

// A read that failed, with enough to say which file and why.
struct ReadError {
    std::string device;
    uint32_t port = 0;
    std::string what; // file path or counter name
    std::string message;
};

// One value as the consumers of a snapshot read it: the names live in the layout, the meaning in
// the layout's meanings (None for the IB PMA counters, which the daemon knows by their IBTA names,
// and for every series of a plugin that says nothing).
struct SampleRef {
    const std::string& source;
    uint32_t port;
    const std::string& netdev;
    const std::string& name;
    SampleKind kind;
    uint64_t value;
    Meaning meaning = Meaning::None;
    uint8_t priority = plugin::v1::kNoPriority;
    bool wide = false;
};

struct DeviceSamples {
    std::string ibdev;
    uint64_t monotonic_usec = 0;     // CLOCK_MONOTONIC when the read finished
    uint64_t pma_monotonic_usec = 0; // when the "counters" samples were read (they are carried
                                     // between PMA reads, so rates must use this time)
    SampleBatch pma;                 // counters/ (source kSourceIbCounters)
    SampleBatch plugin;              // the plugin's (hw_counters/, ethtool, ...)
    // What the plugin says `plugin`'s series mean (its layout's, in its order; PluginManager);
    // null when it says nothing (ABI < 1.5, no layout). The daemon's rules read these, never a
    // vendor's counter names.
    std::shared_ptr<const LayoutMeanings> meanings;
    std::vector<ReadError> errors;
    std::string unresponsive; // set when a read through the driver did not return in time
    // Counter files not read any more (refused DropCounterAfter reads in a row): the daemon's
    // counters/ ones and those the plugin reported (kSourceNicd).
    uint32_t files_dropped = 0;
    // False when the cycle left out statistics the plugin read that nothing uses each cycle
    // (collect/statistics_filter.hpp): Port.GetCounters waits for a cycle that keeps them all.
    bool all_statistics = true;

    // Every value, the PMA counters first: for (const auto& s : ds.samples()) ... s.name, s.value
    class Range;
    Range samples() const;
    size_t size() const { return pma.size() + plugin.size(); }
    bool empty() const { return pma.empty() && plugin.empty(); }
    // The meaning of series `i` of the PMA batch (`pma`: always None) or the plugin's.
    const SeriesMeaning& meaningOf(bool pma, size_t i) const
    {
        return meaningAt(pma ? nullptr : meanings.get(), i);
    }
};

class DeviceSamples::Range {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = SampleRef;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = SampleRef;

        iterator(const DeviceSamples* ds, int batch, size_t i) : ds_(ds), batch_(batch), i_(i)
        {
            skipEmpty();
        }
        SampleRef operator*() const
        {
            const SampleBatch& b = current();
            const SeriesKey& k = b.layout->series[i_];
            const SeriesMeaning& m = ds_->meaningOf(batch_ == 0, i_);
            return {k.source,     k.port,    b.netdevOf(k), k.name, k.kind,
                    b.values[i_], m.meaning, m.priority,    m.wide};
        }
        iterator& operator++()
        {
            ++i_;
            skipEmpty();
            return *this;
        }
        iterator operator++(int)
        {
            iterator t = *this;
            ++*this;
            return t;
        }
        bool operator==(const iterator& o) const { return batch_ == o.batch_ && i_ == o.i_; }

    private:
        const SampleBatch& current() const { return batch_ == 0 ? ds_->pma : ds_->plugin; }
        static size_t sizeOf(const SampleBatch& b)
        {
            return b.layout ? std::min(b.values.size(), b.layout->series.size()) : 0;
        }
        void skipEmpty()
        {
            while (batch_ < 2 && i_ >= sizeOf(current())) {
                ++batch_;
                i_ = 0;
            }
        }
        const DeviceSamples* ds_;
        int batch_;
        size_t i_;
    };

    explicit Range(const DeviceSamples* ds) : ds_(ds) {}
    iterator begin() const { return {ds_, 0, 0}; }
    iterator end() const { return {ds_, 2, 0}; }

private:
    const DeviceSamples* ds_;
};

inline DeviceSamples::Range DeviceSamples::samples() const
{
    return Range(this);
}

// The samples of an ABI 1.0 poll, or a test's, appended to `batch` (its layout rebuilt).
void appendSamples(SampleBatch& batch, const std::vector<Sample>& samples);
// Appended as the collector would have read them: source kSourceIbCounters to the PMA batch,
// the rest to the plugin's. For tests and tools; a cycle builds its batches directly.
void addSamples(DeviceSamples& ds, const std::vector<Sample>& samples);
// Every value with its names copied, the PMA batch first.
std::vector<Sample> toSamples(const DeviceSamples& ds);

// Every series of a device's two layouts, the PMA counters first, without their values (what a
// per-layout index is built from): fn(pma, index in the layout, key, batch).
template <typename Fn> void forEachSeries(const DeviceSamples& ds, Fn&& fn)
{
    for (bool pma : {true, false}) {
        const SampleBatch& b = pma ? ds.pma : ds.plugin;
        if (!b.layout)
            continue;
        for (size_t i = 0; i < b.layout->series.size(); ++i)
            fn(pma, i, b.layout->series[i], b);
    }
}

} // namespace nicd
