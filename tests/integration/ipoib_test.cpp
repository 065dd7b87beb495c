// An InfiniBand port's IPoIB netdev as `nicd --once` judges it on a simulated node: admin up
// without carrier while the port is ACTIVE (nicd-sim ipoib-down) is exactly ipoib_down.<netdev>,
// degraded, on that port, and never the fatal netdev_down a RoCE netdev's fall is; the node's
// verdict is degraded (exit 1) and comes back when the netdev does. A RoCE device has no IPoIB to
// take down.
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/temp_dir.hpp"

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class Ipoib : public test::TempDirTest {
protected:
    Ipoib() : TempDirTest("ipoib") {}
    void SetUp() override
    {
        TempDirTest::SetUp();
        root_ = dir_ / "node";
        sim::create(root_, {.channels = 2});
        test::writeNodeConfig(root_);
    }
    void inject(const std::string& fault, const std::string& dev) const
    {
        std::string out;
        ASSERT_EQ(test::sim({"inject", root_.string(), fault, dev}, out), 0) << out;
    }
    fs::path root_;
};

} // namespace

TEST_F(Ipoib, AnActivePortsIpoibWithoutCarrierIsDegradedAndOnlyThat)
{
    const auto healthy = test::once(root_);
    ASSERT_EQ(healthy.rc, 0) << healthy.output;
    const auto before = test::activeConditions(healthy.textfile);

    inject("ipoib-down", "mlx5_4");
    const auto down = test::once(root_);
    EXPECT_EQ(down.rc, 1) << "degraded: RDMA traffic does not need IPoIB\n" << down.output;
    auto added = test::activeConditions(down.textfile);
    for (const auto& c : before)
        added.erase(c);
    EXPECT_EQ(added, std::set<std::string>{"mlx5_4 1 ipoib_down.ib0 degraded check_switch_port"});
    EXPECT_NE(down.textfile.find("nicd_port_state{device=\"mlx5_4\",port=\"1\"} 4"),
              std::string::npos)
        << "the port stays ACTIVE";

    inject("ipoib-down-clear", "mlx5_4");
    const auto back = test::once(root_);
    EXPECT_EQ(back.rc, 0) << back.output;
    EXPECT_EQ(test::activeConditions(back.textfile), before);
}

TEST_F(Ipoib, ARoceDeviceHasNoIpoibToTakeDown)
{
    std::string out;
    EXPECT_NE(test::sim({"inject", root_.string(), "ipoib-down", "mlx5_0"}, out), 0);
    EXPECT_NE(out.find("mlx5_0 is no InfiniBand port"), std::string::npos) << out;
}
