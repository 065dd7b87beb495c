// The last published snapshot changes in one place: a cycle replaces it and is published; an
// event between cycles amends it, judged as it asks (a full evaluation without the samples, the
// health as it stands, or not at all) and published now or with the next publish; before the
// first cycle nothing is amended or published.
#include "loop/published_snapshot.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

using Judge = loop::PublishedSnapshot::Judge;
using Publish = loop::PublishedSnapshot::Publish;

class PublishedSnapshotTest : public ::testing::Test {
protected:
    // Each stage records what it saw.
    loop::PublishedSnapshot published_{{
        .evaluate =
            [this](Snapshot& s) {
                evaluated_samples_.push_back(s.samples.size());
                s.health.node = Health::Fatal;
            },
        .report = [this](Snapshot& s) { s.health.node = reported_; },
        .publish = [this](const Snapshot& s) { published_modes_.push_back(s.qos.mode); },
    }};
    std::vector<size_t> evaluated_samples_; // the samples each evaluation was given
    Health reported_ = Health::Degraded;
    std::vector<std::string> published_modes_; // the QoS mode of each snapshot published

    static Snapshot cycle(size_t devices_read)
    {
        Snapshot s;
        s.samples.resize(devices_read);
        s.qos.mode = "enforce";
        return s;
    }
};

} // namespace

TEST_F(PublishedSnapshotTest, NothingIsAmendedOrPublishedBeforeTheFirstCycle)
{
    bool changed = false;
    EXPECT_FALSE(published_.amend([&](Snapshot&) { changed = true; }, Judge::Report, Publish::Now));
    EXPECT_FALSE(changed);
    EXPECT_FALSE(published_.get().has_value());
    EXPECT_TRUE(published_modes_.empty());
}

TEST_F(PublishedSnapshotTest, ACycleIsPublishedAndKept)
{
    published_.replace(cycle(3));
    ASSERT_TRUE(published_.get().has_value());
    EXPECT_EQ(published_.get()->samples.size(), 3u);
    EXPECT_EQ(published_modes_, std::vector<std::string>{"enforce"});
}

TEST_F(PublishedSnapshotTest, AnEventIsEvaluatedWithoutTheSamplesWhichStayForTheNextReaders)
{
    published_.replace(cycle(64));
    EXPECT_TRUE(published_.amend([](Snapshot& s) { s.netdevs["eth0"].operstate = "down"; },
                                 Judge::Evaluate, Publish::Now));
    EXPECT_EQ(evaluated_samples_, std::vector<size_t>{0}); // counters judge fresh reads only
    EXPECT_EQ(published_.get()->samples.size(), 64u);
    EXPECT_EQ(published_.get()->netdevs.at("eth0").operstate, "down");
    EXPECT_EQ(published_.get()->health.node, Health::Fatal);
    EXPECT_EQ(published_modes_.size(), 2u);
}

TEST_F(PublishedSnapshotTest, AReportShowsTheHealthAsItStandsWithoutEvaluating)
{
    published_.replace(cycle(1));
    reported_ = Health::Healthy;
    EXPECT_TRUE(published_.amend([](Snapshot&) {}, Judge::Report, Publish::Now));
    EXPECT_TRUE(evaluated_samples_.empty());
    EXPECT_EQ(published_.get()->health.node, Health::Healthy);
}

TEST_F(PublishedSnapshotTest, AChangeKeptForTheNextPublishGoesOutWithIt)
{
    published_.replace(cycle(1));
    EXPECT_TRUE(published_.amend([](Snapshot& s) { s.qos.mode = "verify"; }, Judge::None,
                                 Publish::WithNext));
    EXPECT_EQ(published_modes_, std::vector<std::string>{"enforce"});
    EXPECT_TRUE(evaluated_samples_.empty());
    // Without a loop to pace them, paced publishes go out at once.
    EXPECT_TRUE(published_.amend([](Snapshot&) {}, Judge::None, Publish::Paced));
    EXPECT_EQ(published_modes_, (std::vector<std::string>{"enforce", "verify"}));
}
