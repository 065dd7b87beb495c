#include "model/samples.hpp"

#include <nicd/plugin/sdk/sample_batch.h>

namespace nicd {

void appendSamples(SampleBatch& batch, const std::vector<Sample>& samples)
{
    auto all = plugin::sdk::toSamples(batch);
    all.insert(all.end(), samples.begin(), samples.end());
    plugin::sdk::SampleBatchBuilder b(batch);
    b.reserve(all.size());
    for (const auto& s : all)
        b.add(s);
    b.finish();
}

void addSamples(DeviceSamples& ds, const std::vector<Sample>& samples)
{
    std::vector<Sample> pma, plugin;
    for (const auto& s : samples)
        (s.source == kSourceIbCounters ? pma : plugin).push_back(s);
    if (!pma.empty())
        appendSamples(ds.pma, pma);
    if (!plugin.empty())
        appendSamples(ds.plugin, plugin);
}

std::vector<Sample> toSamples(const DeviceSamples& ds)
{
    auto out = plugin::sdk::toSamples(ds.pma);
    auto more = plugin::sdk::toSamples(ds.plugin);
    out.insert(out.end(), more.begin(), more.end());
    return out;
}

} // namespace nicd
