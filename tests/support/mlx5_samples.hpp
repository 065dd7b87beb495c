// Samples as the daemon gets them from the mlx5 plugin: the values of a hand-built poll with the
// meanings mlx5's describeLayout gives their layout (what PluginManager::poll attaches), so that
// the rules judge them as they judge a real mlx5 node's.
#pragma once

#include "counter_meanings.hpp"
#include "model/samples.hpp"

#include <nicd/plugin/sdk/vendor_tables.h>

#include <memory>
#include <string_view>
#include <vector>

namespace nicd::test {

// ds.meanings for ds.plugin's layout as it is now, as the mlx5 plugin says them.
inline void describeAsMlx5(DeviceSamples& ds)
{
    ds.meanings.reset();
    if (!ds.plugin.layout)
        return;
    auto meanings = std::make_shared<LayoutMeanings>();
    plugin::sdk::describeSeries(*ds.plugin.layout, mlx5::meaningOf, *meanings);
    ds.meanings = std::move(meanings);
}

// What the mlx5 plugin says a series named `name` means: as one of its hw_counters, else as an
// ethtool statistic.
inline plugin::v1::SeriesMeaning mlx5Meaning(std::string_view name)
{
    auto m = mlx5::counterMeaning("hw_counters", name);
    return m.meaning != Meaning::None ? m : mlx5::counterMeaning("ethtool", name);
}

// addSamples (model/samples.hpp), then the mlx5 plugin's meanings of the new layout.
inline void addMlx5Samples(DeviceSamples& ds, const std::vector<Sample>& samples)
{
    addSamples(ds, samples);
    describeAsMlx5(ds);
}

} // namespace nicd::test
