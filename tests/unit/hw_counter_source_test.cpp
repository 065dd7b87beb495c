// sdk::HwCounterSource: a device's hw_counters over RDMA netlink on a real root (one STAT_GET a
// port, the lifespan file beside it) give the very series the hw_counters/ files give; a kernel
// that refuses sends the device back to its files from that poll on, said once, and is not asked
// again until the device is attached again; under --root only the files are read.
#include "support/fake_rdma_kernel.hpp"
#include "support/temp_dir.hpp"

#include <nicd/plugin/sdk/hw_counter_source.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <chrono>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd::test;
namespace fs = std::filesystem;
namespace pv1 = nicd::plugin::v1;
namespace sdk = nicd::plugin::sdk;
using namespace std::chrono_literals;

namespace {

// What both ports hold, in the files and (unless a test says otherwise) in the kernel's replies.
const HwCounterList kCounters = {
    {"rx_write_requests", 3809045607}, {"out_of_buffer", 41}, {"duplicate_request", 2}};

class HwCounterSourceTest : public TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        dev_.ibdev = "mlx5_0";
        dev_.sysfs_path = (dir_ / "mlx5_0").string();
        for (uint32_t port : {1U, 2U}) {
            dev_.ports.push_back({port, "Ethernet", {}});
            const fs::path hw = dir_ / "mlx5_0/ports" / std::to_string(port) / "hw_counters";
            fs::create_directories(hw);
            std::ofstream(hw / "lifespan") << "12\n";
            for (const auto& [name, value] : kCounters)
                std::ofstream(hw / name) << value << "\n";
        }
    }

    // One read through `source` as a batch (layout and values) and as samples.
    pv1::SampleBatch read(nicd::plugin::sdk::HwCounterSource& source, sdk::RdmaStatsClient* rdma,
                          nicd::plugin::sdk::HwCounterChanges* changes = nullptr)
    {
        pv1::SampleBatch batch;
        sdk::SampleBatchBuilder out(batch);
        nicd::plugin::sdk::HwCounterChanges local;
        status_ = source.read(dev_, rdma, backoff_, out, changes ? *changes : local);
        out.finish();
        return batch;
    }

    // The files' series, read as under --root.
    pv1::SampleBatch files()
    {
        nicd::plugin::sdk::HwCounterSource files_only;
        return read(files_only, nullptr);
    }

    static std::vector<std::string> describe(const pv1::SampleBatch& b)
    {
        std::vector<std::string> out;
        for (const auto& s : sdk::toSamples(b))
            out.push_back(s.source + "/" + std::to_string(s.port) + "/" + s.name + "=" +
                          std::to_string(s.value) +
                          (s.kind == pv1::SampleKind::Gauge ? " gauge" : ""));
        return out;
    }

    pv1::DeviceRef dev_;
    sdk::Backoff backoff_;
    pv1::Status status_;
};

// A kernel listing mlx5_0 as index 3 and answering STAT_GET of both its ports with `counters`.
FakeRdmaKernel::Answer answering(HwCounterList counters)
{
    return [counters](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{3, "mlx5_0"}})};
        return {statReply(r.seq, 3, "mlx5_0", r.port, counters)};
    };
}

} // namespace

TEST_F(HwCounterSourceTest, OverNetlinkTheSeriesAreThoseOfTheFiles)
{
    const pv1::SampleBatch from_files = files();
    ASSERT_EQ(from_files.size(), 8U);

    FakeRdmaKernel kernel(answering(kCounters));
    sdk::RdmaStatsClient rdma(kernel.takeClientFd(), 2000ms);
    nicd::plugin::sdk::HwCounterSource source;
    for (int poll = 1; poll <= 2; ++poll) {
        const pv1::SampleBatch over_netlink = read(source, &rdma);
        EXPECT_TRUE(status_) << status_.message;
        ASSERT_TRUE(over_netlink.layout);
        EXPECT_EQ(*over_netlink.layout, *from_files.layout) << "the same series, in the same order";
        EXPECT_EQ(describe(over_netlink), describe(from_files));
    }
    EXPECT_EQ(kernel.statGets(), 4U) << "one STAT_GET a port a poll";
    EXPECT_TRUE(source.netlinkUsable());
}

TEST_F(HwCounterSourceTest, TheValuesAreTheKernelsAndLifespanTheFiles)
{
    FakeRdmaKernel kernel(answering({{"out_of_buffer", 99}, {"rx_write_requests", 5}}));
    sdk::RdmaStatsClient rdma(kernel.takeClientFd(), 2000ms);
    nicd::plugin::sdk::HwCounterSource source;
    EXPECT_EQ(describe(read(source, &rdma)),
              (std::vector<std::string>{
                  "hw_counters/1/lifespan=12 gauge", "hw_counters/1/out_of_buffer=99",
                  "hw_counters/1/rx_write_requests=5", "hw_counters/2/lifespan=12 gauge",
                  "hw_counters/2/out_of_buffer=99", "hw_counters/2/rx_write_requests=5"}));
}

TEST_F(HwCounterSourceTest, AnUnreadableLifespanFileIsLeftOutAndBackedOffAsAFileRead)
{
    std::ofstream(dir_ / "mlx5_0/ports/1/hw_counters/lifespan") << "N/A\n";
    FakeRdmaKernel kernel(answering({{"out_of_buffer", 99}}));
    sdk::RdmaStatsClient rdma(kernel.takeClientFd(), 2000ms);
    nicd::plugin::sdk::HwCounterSource source;
    nicd::plugin::sdk::HwCounterChanges changes;
    EXPECT_EQ(describe(read(source, &rdma, &changes)),
              (std::vector<std::string>{"hw_counters/1/out_of_buffer=99",
                                        "hw_counters/2/lifespan=12 gauge",
                                        "hw_counters/2/out_of_buffer=99"}));
    EXPECT_FALSE(status_);
    ASSERT_EQ(changes.failed.size(), 1U);
    EXPECT_NE(changes.failed[0].find("ports/1/hw_counters/lifespan: not a counter value: 'N/A'"),
              std::string::npos)
        << changes.failed[0];
    EXPECT_TRUE(source.netlinkUsable()) << "a file's trouble is not netlink's";

    changes = {};
    read(source, &rdma, &changes);
    EXPECT_TRUE(status_) << "backed off, not read again at once: " << status_.message;
    EXPECT_TRUE(changes.failed.empty());
}

TEST_F(HwCounterSourceTest, AnOptionalCounterOnlyNetlinkHasIsPublishedToo)
{
    // `rdma statistic set link mlx5_0/1 optional-counters cc_rx_ce_pkts`: no file, in the reply.
    HwCounterList with_optional = kCounters;
    with_optional.emplace_back("cc_rx_ce_pkts", 17);
    FakeRdmaKernel kernel(answering(with_optional));
    sdk::RdmaStatsClient rdma(kernel.takeClientFd(), 2000ms);
    nicd::plugin::sdk::HwCounterSource source;
    auto series = describe(read(source, &rdma));
    ASSERT_EQ(series.size(), 10U);
    EXPECT_EQ(series[0], "hw_counters/1/cc_rx_ce_pkts=17");
}

TEST_F(HwCounterSourceTest, ARefusalSendsTheDeviceToItsFilesOnceUntilAttachedAgain)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{3, "mlx5_0"}})};
        return {nlError(r.seq, EOPNOTSUPP)};
    });
    sdk::RdmaStatsClient rdma(kernel.takeClientFd(), 2000ms);
    nicd::plugin::sdk::HwCounterSource source;
    nicd::plugin::sdk::HwCounterChanges changes;
    const auto expected = describe(files());

    EXPECT_EQ(describe(read(source, &rdma, &changes)), expected) << "the files, in the same poll";
    EXPECT_TRUE(status_) << status_.message;
    EXPECT_EQ(source.takeNetlinkRefusal(),
              "RDMA netlink STAT_GET mlx5_0 port 1: Operation not supported (errno 95)");
    EXPECT_FALSE(source.netlinkUsable());
    const size_t asked = kernel.statGets();
    EXPECT_EQ(asked, 1U);

    changes = {};
    EXPECT_EQ(describe(read(source, &rdma, &changes)), expected);
    EXPECT_EQ(source.takeNetlinkRefusal(), "") << "said once";
    EXPECT_EQ(kernel.statGets(), asked) << "not asked again";

    nicd::plugin::sdk::HwCounterSource attached_again;
    EXPECT_EQ(describe(read(attached_again, &rdma, &changes)), expected);
    EXPECT_EQ(kernel.statGets(), asked + 1) << "a device attached again is asked again";
}

TEST_F(HwCounterSourceTest, APortRefusedAfterAnotherAnsweredReadsEveryPortFromFilesOnce)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{3, "mlx5_0"}})};
        if (r.port == 1)
            return {statReply(r.seq, 3, "mlx5_0", 1, {{"out_of_buffer", 99}})};
        return {nlError(r.seq, EINVAL, "port 2 has no hw counters")};
    });
    sdk::RdmaStatsClient rdma(kernel.takeClientFd(), 2000ms);
    nicd::plugin::sdk::HwCounterSource source;
    nicd::plugin::sdk::HwCounterChanges changes;
    EXPECT_EQ(describe(read(source, &rdma, &changes)), describe(files()));
    const std::string why = source.takeNetlinkRefusal();
    EXPECT_NE(why.find("port 2: Invalid argument (errno 22): port 2 has no hw counters"),
              std::string::npos)
        << why;
}

TEST_F(HwCounterSourceTest, UnderRootOnlyTheFilesAreRead)
{
    nicd::plugin::sdk::HwCounterSource source;
    nicd::plugin::sdk::HwCounterChanges changes;
    auto series = describe(read(source, nullptr, &changes));
    EXPECT_EQ(series.front(), "hw_counters/1/duplicate_request=2");
    EXPECT_EQ(series.size(), 8U);
    EXPECT_EQ(source.takeNetlinkRefusal(), "");
    EXPECT_TRUE(source.netlinkUsable()) << "never tried";
}

TEST_F(HwCounterSourceTest, OnThisKernelADeviceItDoesNotHaveIsReadFromItsFiles)
{
    // This machine's kernel: without NETLINK_RDMA the socket is refused, with it no device of
    // this name is listed. Either way the files, and why.
    dev_.ibdev = "nicd_absent0";
    sdk::RdmaStatsClient rdma;
    nicd::plugin::sdk::HwCounterSource source;
    nicd::plugin::sdk::HwCounterChanges changes;
    EXPECT_EQ(describe(read(source, &rdma, &changes)), describe(files()));
    EXPECT_TRUE(status_) << status_.message;
    const std::string why = source.takeNetlinkRefusal();
    EXPECT_TRUE(why.find("NETLINK_RDMA socket: Protocol not supported") != std::string::npos ||
                why.find("no RDMA device named nicd_absent0") != std::string::npos)
        << why;
}
