// Which of a plugin's series a cycle keeps. A ConnectX-7 netdev prints some 6,900 statistics, 6,600
// of them per channel or per queue; the rules, the congestion verdict and the textfile read a
// statistic by what its plugin says it means, or by a [textfile] Counters= glob. So each cycle
// keeps, of the netdev statistics (source "ethtool"), those that mean something to nicd and those
// a glob names, and leaves the rest out right after the device's read: a snapshot holds ~50
// values a netdev, not 6,900. Every other source is kept whole. A device someone asked every
// statistic of (Port.GetCounters, nicctl counters), or Counters=all, is kept whole too.
//
// The filtered layout and meanings are made once per layout the plugin gives (and shared by every
// device and cycle that has it), so a cycle copies only the kept values. Thread-safe.
#pragma once

#include "config/config.hpp"
#include "model/samples.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace nicd::collect {

class StatisticsFilter {
public:
    // [textfile] Counters=: all keeps everything; the globs keep what they name.
    void configure(const TextfileCounters& counters);
    // Keeps in `ds.plugin` (and `ds.meanings`) only what a cycle uses, unless `whole`; sets
    // `ds.all_statistics` to whether every series the plugin read is still there.
    void apply(DeviceSamples& ds, bool whole);

private:
    struct Kept {
        std::shared_ptr<const SampleLayout> from; // held: the key's pointer stays this layout
        std::shared_ptr<const LayoutMeanings> from_meanings;
        std::shared_ptr<const SampleLayout> layout;
        std::shared_ptr<const LayoutMeanings> meanings;
        std::vector<uint32_t> index; // of each kept series in `from`
    };
    const Kept& keptOf(const DeviceSamples& ds);
    bool keeps(const SeriesKey& k, const SeriesMeaning& m) const;

    std::mutex mutex_;
    TextfileCounters counters_;
    std::map<std::pair<const SampleLayout*, const LayoutMeanings*>, Kept> kept_;
};

} // namespace nicd::collect
