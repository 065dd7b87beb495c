// plugin::sdk::SampleBatchBuilder (ABI 1.3 batches): a device that reports the same series keeps
// its layout from one read to the next, any change makes a new one, devices that differ only in
// their netdevs share one.
#include <nicd/plugin/sdk/sample_batch.h>

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

TEST(SampleBatch, ARunOffersTheReferencesNamesWhileTheBatchFollowsIt)
{
    pv1::SampleBatch b;
    read(b, "eth0", 1);
    const auto* layout = b.layout.get();
    {
        SampleBatchBuilder out(b);
        out.add("hw_counters", 1, "", "out_of_buffer", pv1::SampleKind::Counter, 5);
        SampleBatchBuilder::Run other(out, "hw_counters", 2, "", pv1::SampleKind::Gauge);
        EXPECT_EQ(other.expected(), nullptr) << "the reference's next series is port 1's";
        out.add("hw_counters", 1, "", "lifespan", pv1::SampleKind::Gauge, 12);
        SampleBatchBuilder::Run run(out, "ethtool", 1, "eth0", pv1::SampleKind::Counter);
        ASSERT_NE(run.expected(), nullptr);
        EXPECT_EQ(*run.expected(), "stat0");
        run.addExpected(7);
        run.add("stat1", 8); // compared, and the same
        EXPECT_EQ(*run.expected(), "stat2");
        run.add("renamed", 9); // from here the batch has its own layout
        EXPECT_EQ(run.expected(), nullptr);
        out.finish();
    }
    EXPECT_NE(b.layout.get(), layout);
    auto samples = toSamples(b);
    ASSERT_EQ(samples.size(), 5U);
    EXPECT_EQ(samples[2].name, "stat0");
    EXPECT_EQ(samples[2].value, 7U);
    EXPECT_EQ(samples[3].netdev, "eth0");
    EXPECT_EQ(samples[4].name, "renamed");
    EXPECT_EQ(samples[4].value, 9U);
    // Another netdev of the same layout is not this run's.
    SampleBatchBuilder again(b);
    again.add("hw_counters", 1, "", "out_of_buffer", pv1::SampleKind::Counter, 5);
    again.add("hw_counters", 1, "", "lifespan", pv1::SampleKind::Gauge, 12);
    SampleBatchBuilder::Run eth0(again, "ethtool", 1, "eth0", pv1::SampleKind::Counter);
    EXPECT_NE(eth0.expected(), nullptr);
    SampleBatchBuilder::Run eth1(again, "ethtool", 1, "eth1", pv1::SampleKind::Counter);
    EXPECT_EQ(eth1.expected(), nullptr) << "eth1 is a netdev of its own";
    again.finish();
}

} // namespace
