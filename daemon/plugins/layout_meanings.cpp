#include "plugins/layout_meanings.hpp"

namespace nicd::plugins {

void sanitizeMeanings(size_t series, LayoutMeanings& out)
{
    out.resize(series);
    for (auto& m : out) {
        if (static_cast<uint16_t>(m.meaning) > static_cast<uint16_t>(plugin::v1::kLastMeaning))
            m.meaning = Meaning::None;
        if (m.priority > 7)
            m.priority = plugin::v1::kNoPriority;
    }
}

std::shared_ptr<const LayoutMeanings>
LayoutMeaningCache::meaningsOf(const plugin::v1::IPlugin& plugin,
                               const std::shared_ptr<const SampleLayout>& layout)
{
    if (!layout)
        return nullptr;
    if (auto it = cache_.find(layout.get()); it != cache_.end())
        return it->second.meanings;
    if (cache_.size() >= kMaxLayouts) {
        // Layouts no device reads any more (only the cache holds them) go first; a plugin that
        // keeps making new ones starts the cache over.
        std::erase_if(cache_, [](const auto& kv) { return kv.second.layout.use_count() == 1; });
        if (cache_.size() >= kMaxLayouts)
            cache_.clear();
    }
    auto meanings = std::make_shared<LayoutMeanings>();
    plugin.describeLayout(*layout, *meanings);
    sanitizeMeanings(layout->series.size(), *meanings);
    return cache_.emplace(layout.get(), Entry{layout, std::move(meanings)}).first->second.meanings;
}

} // namespace nicd::plugins
