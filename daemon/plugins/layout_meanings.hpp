// What a plugin's series mean (plugin ABI 1.5, IPlugin::describeLayout), asked once per layout:
// layouts are shared and immutable, so the meanings of one are worked out at its first poll and
// shared by every device and cycle that reads it. Held by layout (the cache keeps the layout
// alive, so its address is not reused while cached) and bounded: a plugin that makes a new layout
// at every poll costs a call per poll, never memory.
#pragma once

#include "model/samples.hpp"

#include <nicd/plugin/plugin.h>

#include <map>
#include <memory>

namespace nicd::plugins {

// `out` as the daemon reads it: as many entries as `series` (missing ones None), a meaning this
// daemon does not know None, a priority outside 0..7 none.
void sanitizeMeanings(size_t series, LayoutMeanings& out);

class LayoutMeaningCache {
public:
    static constexpr size_t kMaxLayouts = 64;

    // The meanings `plugin` gives `layout` (null when there is no layout). Worker thread.
    std::shared_ptr<const LayoutMeanings>
    meaningsOf(const plugin::v1::IPlugin& plugin,
               const std::shared_ptr<const SampleLayout>& layout);
    size_t size() const { return cache_.size(); }

private:
    struct Entry {
        std::shared_ptr<const SampleLayout> layout;
        std::shared_ptr<const LayoutMeanings> meanings;
    };
    std::map<const SampleLayout*, Entry> cache_;
};

} // namespace nicd::plugins
