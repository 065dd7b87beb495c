// rxe0's hw counters through RDMA netlink STAT_GET (what the plugins read on a real root) equal
// its sysfs hw_counters files, both from the kernel. Traffic moves the counters: the idle node
// keeps them still between the two reads.
#include "support/rxe_node.hpp"

#include <nicd/plugin/sdk/rdma_stats_client.h>

#include <map>

using namespace nicd;
using namespace nicd::test;
namespace sdk = nicd::plugin::sdk;

namespace {

class RxeCounters : public RxeNodeTest {};

TEST_F(RxeCounters, StatGetEqualsTheSysfsFiles)
{
    sdk::RdmaStatsClient client;
    std::vector<sdk::RdmaDevice> devices;
    auto s = client.listDevices(devices);
    ASSERT_TRUE(s) << s.message;
    ASSERT_TRUE(std::any_of(devices.begin(), devices.end(),
                            [](const sdk::RdmaDevice& d) { return d.name == kRxe; }));
    sdk::RdmaHwCounters counters;
    s = client.readHwCounters(kRxe, 1, counters);
    ASSERT_TRUE(s) << s.message;

    std::map<std::string, uint64_t> files;
    for (const auto& e : std::filesystem::directory_iterator(kRxeSysfs / "ports/1/hw_counters"))
        if (e.path().filename() != "lifespan") // the sysfs cache's age, not a counter
            files[e.path().filename().string()] = std::stoull(readFile(e.path()));
    std::map<std::string, uint64_t> netlink;
    for (size_t i = 0; i < counters.size(); ++i)
        netlink[std::string(counters.name(i))] = counters.value(i);
    EXPECT_GE(files.size(), 10U);
    EXPECT_EQ(netlink, files);

    s = client.readHwCounters("nicd_absent0", 1, counters);
    EXPECT_EQ(s.code, plugin::v1::Errc::NoDevice) << s.message;
}

} // namespace
