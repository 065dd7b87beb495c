// The verbs probe through the real rdma-core: a device rdma-core does not list is not probed and
// is no error (a node without verbs providers, or this test machine, which has no RDMA devices).
#include "collect/verbs_probe.hpp"

#include <filesystem>

#include <gtest/gtest.h>

TEST(VerbsProbe, ADeviceRdmaCoreDoesNotListIsNotProbed)
{
    auto r = nicd::collect::probeVerbsDevice("nicd_no_such_device_0");
    EXPECT_FALSE(r.listed);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.port_states.empty());
}

TEST(VerbsProbe, EveryListedDeviceOpensAndAnswersOnAHealthyNode)
{
    // Where the machine has RDMA devices (a GPU node), each must open and answer, one state per
    // port; elsewhere there is nothing to check.
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory("/sys/class/infiniband", ec))
        GTEST_SKIP() << "no RDMA devices on this machine";
    for (const auto& e : fs::directory_iterator("/sys/class/infiniband")) {
        auto r = nicd::collect::probeVerbsDevice(e.path().filename().string());
        if (!r.listed)
            continue;
        EXPECT_TRUE(r.error.empty()) << e.path() << ": " << r.error;
        EXPECT_FALSE(r.port_states.empty()) << e.path();
    }
}
