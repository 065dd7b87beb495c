// plugin::sdk::RdmaStatsClient: device names looked up in the kernel's list, one STAT_GET per
// port read after that, answers matched by sequence number, the kernel's refusals and silence
// turned into errors that say what happened. Against a stand-in for the kernel (this machine's
// kernel may have no RDMA netlink at all), and against this machine's kernel where it has.
#include "support/fake_rdma_kernel.hpp"

#include <nicd/plugin/sdk/rdma_stats_client.h>

#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>

#include <gtest/gtest.h>

using namespace nicd::test;
namespace sdk = nicd::plugin::sdk;
namespace pv1 = nicd::plugin::v1;
using namespace std::chrono_literals;

namespace {

const HwCounterList kPort1 = {{"rx_write_requests", 3809045607}, {"out_of_buffer", 41}};

// A kernel with mlx5_0 (index 3) and mlx5_1 (index 4), their dump in two datagrams, answering
// STAT_GET for mlx5_0 port 1 with kPort1.
std::vector<Bytes> twoDevices(const RdmaRequest& r)
{
    if (r.isDeviceDump())
        return {deviceMessage(r.seq, 3, "mlx5_0"),
                cat({deviceMessage(r.seq, 4, "mlx5_1"), nlDone(r.seq)})};
    if (r.isStatGet() && r.dev_index == 3 && r.port == 1)
        return {statReply(r.seq, 3, "mlx5_0", 1, kPort1)};
    return {nlError(r.seq, EINVAL)};
}

HwCounterList asList(const sdk::RdmaHwCounters& c)
{
    HwCounterList out;
    for (size_t i = 0; i < c.size(); ++i)
        out.emplace_back(std::string(c.name(i)), c.value(i));
    return out;
}

// Whether this machine's kernel has RDMA netlink at all.
bool kernelHasRdmaNetlink()
{
    int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
    if (fd >= 0)
        ::close(fd);
    return fd >= 0;
}

} // namespace

TEST(RdmaStatsClient, ListsDevicesOnceThenOneStatGetPerPortRead)
{
    FakeRdmaKernel kernel(twoDevices);
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 2000ms);
    sdk::RdmaHwCounters counters;
    for (int poll = 0; poll < 3; ++poll) {
        auto s = client.readHwCounters("mlx5_0", 1, counters);
        ASSERT_TRUE(s) << s.message;
        EXPECT_EQ(asList(counters),
                  (HwCounterList{{"out_of_buffer", 41}, {"rx_write_requests", 3809045607}}));
    }
    auto requests = kernel.requests();
    ASSERT_EQ(requests.size(), 4U) << "one device list, then one STAT_GET a read";
    EXPECT_TRUE(requests[0].isDeviceDump());
    for (size_t i = 1; i < requests.size(); ++i) {
        EXPECT_TRUE(requests[i].isStatGet());
        EXPECT_EQ(requests[i].dev_index, 3U);
        EXPECT_EQ(requests[i].port, 1U);
        EXPECT_EQ(requests[i].flags, NLM_F_REQUEST) << "no ack asked for: one answer a request";
        EXPECT_GT(requests[i].seq, requests[i - 1].seq);
    }
    EXPECT_EQ(client.requests(), 4U);
}

TEST(RdmaStatsClient, AKernelThatRefusesSaysSoWithErrnoAndItsText)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{3, "mlx5_0"}})};
        return {nlError(r.seq, EOPNOTSUPP, "Counters are not supported on this port")};
    });
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 2000ms);
    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_0", 2, counters);
    EXPECT_EQ(s.code, pv1::Errc::NotSupported);
    EXPECT_EQ(s.sys_errno, EOPNOTSUPP);
    EXPECT_EQ(s.message, "RDMA netlink STAT_GET mlx5_0 port 2: Operation not supported (errno 95): "
                         "Counters are not supported on this port");
}

TEST(RdmaStatsClient, ADeviceTheKernelDoesNotListIsNoDevice)
{
    FakeRdmaKernel kernel(twoDevices);
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 2000ms);
    std::vector<sdk::RdmaDevice> devices;
    ASSERT_TRUE(client.listDevices(devices));
    ASSERT_EQ(devices.size(), 2U);
    EXPECT_EQ(devices[1].name, "mlx5_1");
    EXPECT_EQ(devices[1].index, 4U);

    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_7", 1, counters);
    EXPECT_EQ(s.code, pv1::Errc::NoDevice);
    EXPECT_EQ(s.message, "RDMA netlink: no RDMA device named mlx5_7 among the 2 the kernel lists");
    EXPECT_EQ(kernel.statGets(), 0U);
}

TEST(RdmaStatsClient, AnIndexThatChangedHandsIsLookedUpAgainOnce)
{
    // mlx5_0 was index 3 when first listed; it registered again as index 9, and index 3 now
    // answers as mlx5_2.
    std::atomic<int> dumps{0};
    FakeRdmaKernel kernel([&dumps](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{dumps++ == 0 ? 3U : 9U, "mlx5_0"}})};
        if (r.dev_index == 3)
            return {statReply(r.seq, 3, "mlx5_2", 1, {{"other", 1}})};
        return {statReply(r.seq, 9, "mlx5_0", 1, kPort1)};
    });
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 2000ms);
    std::vector<sdk::RdmaDevice> devices;
    ASSERT_TRUE(client.listDevices(devices));
    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_0", 1, counters);
    ASSERT_TRUE(s) << s.message;
    EXPECT_EQ(counters.size(), 2U);
    EXPECT_EQ(kernel.requests().back().dev_index, 9U);
    EXPECT_EQ(dumps.load(), 2);
}

TEST(RdmaStatsClient, AReplyAboutAnotherPortIsAnError)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{3, "mlx5_0"}})};
        return {statReply(r.seq, 3, "mlx5_0", 1, kPort1)};
    });
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 2000ms);
    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_0", 2, counters);
    EXPECT_EQ(s.code, pv1::Errc::Io);
    EXPECT_EQ(s.message, "RDMA netlink STAT_GET mlx5_0 port 2: the reply is about port 1");
}

TEST(RdmaStatsClient, AStaleReplyIsSkippedAndTheAnswerStillRead)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{3, "mlx5_0"}})};
        // The late answer to an earlier request, in a datagram of its own, then the answer.
        return {statReply(r.seq - 1, 3, "mlx5_0", 1, {{"stale", 7}}),
                statReply(r.seq, 3, "mlx5_0", 1, kPort1)};
    });
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 2000ms);
    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_0", 1, counters);
    ASSERT_TRUE(s) << s.message;
    EXPECT_EQ(counters.name(0), "out_of_buffer");
}

TEST(RdmaStatsClient, NoAnswerIsATimeoutNamingTheRequest)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceMessage(r.seq, 3, "mlx5_0")}; // and never NLMSG_DONE
        return {};
    });
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 50ms);
    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_0", 1, counters);
    EXPECT_EQ(s.code, pv1::Errc::Timeout);
    EXPECT_EQ(s.message, "RDMA netlink device list (RDMA_NLDEV_CMD_GET): no answer within 50 ms");
}

TEST(RdmaStatsClient, AMalformedAnswerIsAnErrorThatSaysWhere)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.isDeviceDump())
            return {deviceDump(r.seq, {{3, "mlx5_0"}})};
        Attrs entry;
        entry.str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "out_of_buffer")
            .u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 41);
        Bytes attrs = Attrs()
                          .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 3)
                          .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0")
                          .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)
                          .nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS,
                                Attrs().nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, entry))
                          .bytes;
        return {nlmsg(rdmaType(RDMA_NLDEV_CMD_STAT_GET), 0, r.seq, attrs)};
    });
    sdk::RdmaStatsClient client(kernel.takeClientFd(), 2000ms);
    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_0", 1, counters);
    EXPECT_EQ(s.code, pv1::Errc::Io);
    EXPECT_EQ(s.sys_errno, EBADMSG);
    EXPECT_NE(s.message.find("RDMA netlink STAT_GET mlx5_0 port 1: malformed answer: hw counter "
                             "value (attribute 83 at offset 56): 4 bytes, want 8"),
              std::string::npos)
        << s.message;
}

// ---- this machine's kernel ----

TEST(RdmaStatsClient, WithoutRdmaNetlinkInTheKernelItSaysSo)
{
    if (kernelHasRdmaNetlink())
        GTEST_SKIP() << "this kernel has NETLINK_RDMA";
    sdk::RdmaStatsClient client;
    sdk::RdmaHwCounters counters;
    auto s = client.readHwCounters("mlx5_0", 1, counters);
    EXPECT_EQ(s.code, pv1::Errc::NotSupported);
    EXPECT_EQ(s.sys_errno, EPROTONOSUPPORT);
    EXPECT_EQ(s.message, "RDMA netlink: cannot open a NETLINK_RDMA socket: Protocol not supported "
                         "(errno 93)");
}

TEST(RdmaStatsClient, TheKernelListsItsDevicesAndDoesNotKnowAMadeUpOne)
{
    if (!kernelHasRdmaNetlink())
        GTEST_SKIP() << "no NETLINK_RDMA in this kernel (no ib_core)";
    sdk::RdmaStatsClient client;
    std::vector<sdk::RdmaDevice> devices;
    auto s = client.listDevices(devices);
    ASSERT_TRUE(s) << s.message;
    for (const auto& d : devices)
        EXPECT_FALSE(d.name.empty());
    sdk::RdmaHwCounters counters;
    s = client.readHwCounters("nicd_absent0", 1, counters);
    EXPECT_EQ(s.code, pv1::Errc::NoDevice) << s.message;
    EXPECT_NE(s.message.find("no RDMA device named nicd_absent0 among the " +
                             std::to_string(devices.size())),
              std::string::npos)
        << s.message;
}
