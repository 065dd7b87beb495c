// plugin::sdk::SampleBatchBuilder (ABI 1.3 batches): a device that reports the same series keeps
// its layout from one read to the next, any change makes a new one, devices that differ only in
// their netdevs share one.
#include <nicd/plugin/sample_batch.h>

#include <gtest/gtest.h>

namespace {

namespace pv1 = nicd::plugin::v1;
using nicd::plugin::sdk::SampleBatchBuilder;
using nicd::plugin::sdk::toSamples;

void read(pv1::SampleBatch& b, const std::string& netdev, uint64_t base, int stats = 3)
{
    SampleBatchBuilder out(b);
    out.add("hw_counters", 1, "", "out_of_buffer", pv1::SampleKind::Counter, base);
    out.add("hw_counters", 1, "", "lifespan", pv1::SampleKind::Gauge, 12);
    for (int i = 0; i < stats; ++i)
        out.add("ethtool", 1, netdev, "stat" + std::to_string(i), pv1::SampleKind::Counter,
                base + static_cast<uint64_t>(i));
    out.finish();
}

TEST(SampleBatch, TheSameSeriesKeepTheirLayoutAndOnlyValuesChange)
{
    pv1::SampleBatch b;
    read(b, "eth0", 100);
    ASSERT_TRUE(b.layout);
    const auto* first = b.layout.get();
    read(b, "eth0", 200);
    EXPECT_EQ(b.layout.get(), first) << "no new layout for the same series";
    ASSERT_EQ(b.values.size(), 5U);
    EXPECT_EQ(b.values[0], 200U);
    auto samples = toSamples(b);
    ASSERT_EQ(samples.size(), 5U);
    EXPECT_EQ(samples[1].name, "lifespan");
    EXPECT_EQ(samples[1].kind, pv1::SampleKind::Gauge);
    EXPECT_EQ(samples[2].source, "ethtool");
    EXPECT_EQ(samples[2].netdev, "eth0");
    EXPECT_EQ(samples[4].name, "stat2");
    EXPECT_EQ(samples[4].value, 202U);
    EXPECT_EQ(samples[0].netdev, "");
}

TEST(SampleBatch, ASeriesMoreLessOrDifferentMakesAnotherLayout)
{
    pv1::SampleBatch b;
    read(b, "eth0", 1);
    auto three = b.layout;
    read(b, "eth0", 1, 4);
    EXPECT_NE(b.layout, three);
    EXPECT_EQ(b.layout->series.size(), 6U);
    read(b, "eth0", 1, 2); // a statistic gone (or a file backed off)
    EXPECT_EQ(b.layout->series.size(), 4U);
    EXPECT_EQ(toSamples(b).back().name, "stat1");
    pv1::SampleBatch empty;
    SampleBatchBuilder none(empty);
    none.finish();
    EXPECT_FALSE(empty.layout);
    EXPECT_TRUE(empty.empty());
}

TEST(SampleBatch, DevicesThatDifferOnlyInTheirNetdevsShareALayout)
{
    pv1::SampleBatch a, b;
    read(a, "ens1f0np0", 1);
    read(b, "ens2f0np0", 2);
    EXPECT_EQ(a.layout, b.layout) << "one layout for every device of a kind";
    EXPECT_EQ(toSamples(a)[2].netdev, "ens1f0np0");
    EXPECT_EQ(toSamples(b)[2].netdev, "ens2f0np0");
    // A netdev renamed keeps the layout; the batch names the new one.
    const auto* before = a.layout.get();
    read(a, "eth7", 3);
    EXPECT_EQ(a.layout.get(), before);
    EXPECT_EQ(toSamples(a)[2].netdev, "eth7");
}

} // namespace
