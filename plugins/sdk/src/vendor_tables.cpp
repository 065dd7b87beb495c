// A vendor's tables turned into the ABI's answers (vendor_tables.h): its facts as PluginTraits,
// its counter meanings over a layout.
#include <nicd/plugin/sdk/vendor_tables.h>

namespace nicd::plugin::sdk {

void describeFacts(const PluginFacts& facts, v1::PluginTraits& out)
{
    out.driver_ready_file = facts.driver_ready_file != nullptr ? facts.driver_ready_file : "";
    out.reporters.clear();
    out.reporters.reserve(facts.reporters.size());
    for (const auto& r : facts.reporters)
        out.reporters.push_back({r.name, r.meaning});
}

void describeSeries(const v1::SampleLayout& layout, MeaningOf meaning,
                    std::vector<v1::SeriesMeaning>& out)
{
    out.clear();
    out.reserve(layout.series.size());
    for (const auto& key : layout.series)
        out.push_back(meaning(key));
}

} // namespace nicd::plugin::sdk
