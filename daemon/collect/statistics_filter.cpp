#include "collect/statistics_filter.hpp"

#include <fnmatch.h>

#include <string_view>
#include <utility>

namespace nicd::collect {

namespace {
// Layouts a node has at once: one or two per device kind (a link change adds one). Past this the
// cache starts again rather than holding layouts no device has any more.
constexpr size_t kMaxLayouts = 256;
} // namespace

void StatisticsFilter::configure(const TextfileCounters& counters)
{
    std::lock_guard lock(mutex_);
    if (counters == counters_)
        return;
    counters_ = counters;
    kept_.clear();
}

bool StatisticsFilter::keeps(const SeriesKey& k, const SeriesMeaning& m) const
{
    if (k.source != std::string_view(kSourceEthtool) || m.meaning != Meaning::None)
        return true;
    for (const auto& glob : counters_.extra)
        if (fnmatch(glob.c_str(), k.name.c_str(), 0) == 0)
            return true;
    return false;
}

const StatisticsFilter::Kept& StatisticsFilter::keptOf(const DeviceSamples& ds)
{
    const auto key = std::make_pair(ds.plugin.layout.get(), ds.meanings.get());
    if (auto it = kept_.find(key); it != kept_.end())
        return it->second;
    if (kept_.size() >= kMaxLayouts)
        kept_.clear();
    Kept k{ds.plugin.layout, ds.meanings, nullptr, nullptr, {}};
    const auto& series = ds.plugin.layout->series;
    auto layout = std::make_shared<SampleLayout>();
    auto meanings = std::make_shared<LayoutMeanings>();
    for (size_t i = 0; i < series.size(); ++i) {
        const auto& m = meaningAt(ds.meanings.get(), i);
        if (!keeps(series[i], m))
            continue;
        k.index.push_back(static_cast<uint32_t>(i));
        layout->series.push_back(series[i]);
        meanings->push_back(m);
    }
    k.layout = std::move(layout);
    if (ds.meanings)
        k.meanings = std::move(meanings);
    return kept_.emplace(key, std::move(k)).first->second;
}

void StatisticsFilter::apply(DeviceSamples& ds, bool whole)
{
    ds.all_statistics = true;
    auto& batch = ds.plugin;
    if (whole || !batch.layout || batch.values.size() != batch.layout->series.size())
        return;
    std::lock_guard lock(mutex_);
    if (counters_.set == CounterSet::All)
        return;
    const Kept& k = keptOf(ds);
    if (k.index.size() == batch.values.size())
        return;
    std::vector<uint64_t> values;
    values.reserve(k.index.size());
    for (uint32_t i : k.index)
        values.push_back(batch.values[i]);
    batch.values = std::move(values);
    batch.layout = k.layout;
    ds.meanings = k.meanings;
    ds.all_statistics = false;
}

} // namespace nicd::collect
