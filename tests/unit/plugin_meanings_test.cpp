// What a plugin says its series mean reaches the rules with its samples (plugin ABI 1.5): the
// PluginManager asks a plugin of 1.5 once per layout, not per poll; a meaning from a newer SDK
// reads as None and a priority out of range as none; a plugin of 1.4 is never asked (its vtable
// would end before describeLayout) and its series mean nothing.
#include "inventory/sysfs_inventory.hpp"
#include "plugins/layout_meanings.hpp"
#include "plugins/plugin_manager.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <nicd/plugin/sdk/sample_batch.h>

#include <map>

#include <gtest/gtest.h>

using namespace nicd;
namespace pv1 = nicd::plugin::v1;

namespace {

class PluginMeanings : public test::SimDirTest {
protected:
    // The test plugin of `test_case` on a simulated node: its third poll of mlx5_0.
    DeviceSamples thirdPoll(const std::string& test_case)
    {
        sim::create(dir_ / "root", {});
        plugins::PluginManager manager(HostPaths(dir_ / "root"), Config{});
        manager.loadDirectory(std::filesystem::path(NICD_TEST_PLUGIN_DIR) / test_case);
        auto inventory = inventory::discoverInventory(HostPaths(dir_ / "root"));
        manager.assign(inventory);
        DeviceSamples ds;
        for (int i = 0; i < 3; ++i) {
            ds = {};
            manager.poll(*inventory.find("mlx5_0"), ds);
        }
        EXPECT_TRUE(ds.errors.empty());
        return ds;
    }
};

// Each plugin series by name: its value and what it means.
std::map<std::string, std::pair<uint64_t, SeriesMeaning>> byName(const DeviceSamples& ds)
{
    std::map<std::string, std::pair<uint64_t, SeriesMeaning>> out;
    for (const auto& s : ds.samples())
        out[s.name] = {s.value, {s.meaning, s.priority, s.wide}};
    return out;
}

} // namespace

TEST_F(PluginMeanings, APluginOfAbi15IsAskedOncePerLayout)
{
    auto ds = thirdPoll("meanings");
    ASSERT_TRUE(ds.meanings);
    ASSERT_EQ(ds.meanings->size(), ds.plugin.layout->series.size());
    auto series = byName(ds);
    ASSERT_EQ(series.size(), 6U);
    EXPECT_EQ(series.at("describe_calls").first, 1U) << "three polls of one layout, one call";
    EXPECT_EQ(series.at("to_retransmits").second.meaning, Meaning::LocalAckTimeout);
    EXPECT_FALSE(series.at("to_retransmits").second.wide);
    EXPECT_EQ(series.at("rx_pfc_pause_us_3").second.meaning, Meaning::RxPauseDuration);
    EXPECT_EQ(series.at("rx_pfc_pause_us_3").second.priority, 3);
    EXPECT_TRUE(series.at("rx_pfc_pause_us_3").second.wide);
    EXPECT_EQ(series.at("from_the_future").second.meaning, Meaning::None)
        << "a meaning this daemon does not know";
    EXPECT_EQ(series.at("rx_pfc_frames_9").second.meaning, Meaning::RxPauseFrames);
    EXPECT_EQ(series.at("rx_pfc_frames_9").second.priority, pv1::kNoPriority)
        << "priority 9 does not exist";
    EXPECT_EQ(series.at("polls").second.meaning, Meaning::None) << "the plugin said nothing";
}

TEST_F(PluginMeanings, APluginOfAbi14IsNotAskedAndItsSeriesMeanNothing)
{
    auto ds = thirdPoll("meanings_v14");
    EXPECT_FALSE(ds.meanings);
    auto series = byName(ds);
    ASSERT_EQ(series.size(), 6U);
    EXPECT_EQ(series.at("describe_calls").first, 0U);
    for (const auto& [name, s] : series)
        EXPECT_EQ(s.second.meaning, Meaning::None) << name;
}

namespace {

// A plugin that says every series is an ECN mark, and counts how often it was asked.
class Describer final : public pv1::IPlugin {
public:
    pv1::Status init() noexcept override { return pv1::Status::ok(); }
    bool claims(const pv1::DeviceRef&) const noexcept override { return false; }
    pv1::Status attach(const pv1::DeviceRef&) noexcept override { return pv1::Status::ok(); }
    void detach(const pv1::DeviceRef&) noexcept override {}
    pv1::Status poll(const pv1::DeviceRef&, std::vector<pv1::Sample>&) noexcept override
    {
        return pv1::Status::ok();
    }
    pv1::Status verifyQos(const pv1::DeviceRef&, const pv1::PortRef&, const pv1::QosDesired&,
                          pv1::QosReport&) noexcept override
    {
        return pv1::Status::ok();
    }
    pv1::Status applyQos(const pv1::DeviceRef&, const pv1::PortRef&, const pv1::QosDesired&,
                         pv1::QosReport&) noexcept override
    {
        return pv1::Status::ok();
    }
    bool classifyKernelLine(std::string_view, pv1::KernelLineMatch&) const noexcept override
    {
        return false;
    }
    void shutdown() noexcept override {}
    void describeLayout(const pv1::SampleLayout& layout,
                        std::vector<pv1::SeriesMeaning>& out) const noexcept override
    {
        ++calls;
        out.assign(layout.series.size() + 2, {pv1::Meaning::EcnMarked, pv1::kNoPriority, true});
    }
    mutable int calls = 0;
};

std::shared_ptr<const SampleLayout> layoutOf(const std::string& name)
{
    SampleBatch b;
    plugin::sdk::SampleBatchBuilder builder(b);
    builder.add({"hw_counters", 1, "", name, 1, SampleKind::Counter});
    builder.finish();
    return b.layout;
}

} // namespace

// Layouts come and go (a counter dropped, a netdev added): the cache stays bounded, and a
// layout a device still reads keeps its meanings.
TEST(LayoutMeaningCache, IsBoundedAndKeepsTheLayoutsInUse)
{
    Describer plugin;
    plugins::LayoutMeaningCache cache;
    auto kept = layoutOf("kept");
    auto meanings = cache.meaningsOf(plugin, kept);
    ASSERT_TRUE(meanings);
    EXPECT_EQ(meanings->size(), 1U) << "as many meanings as series, whatever the plugin gave";
    EXPECT_EQ(cache.meaningsOf(plugin, kept), meanings);
    EXPECT_EQ(plugin.calls, 1);
    for (size_t i = 0; i < 3 * plugins::LayoutMeaningCache::kMaxLayouts; ++i)
        cache.meaningsOf(plugin, layoutOf("gone_" + std::to_string(i)));
    EXPECT_LE(cache.size(), plugins::LayoutMeaningCache::kMaxLayouts);
    const int calls = plugin.calls;
    EXPECT_EQ(cache.meaningsOf(plugin, kept), meanings) << "a layout in use stays";
    EXPECT_EQ(plugin.calls, calls);
    EXPECT_FALSE(cache.meaningsOf(plugin, nullptr));
}
