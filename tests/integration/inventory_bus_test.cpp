// A NIC gone across a reboot, under a running nicd on a private bus: nicctl status names it and
// the node's shortfall under the table; `nicctl forget` is root's (refused to nobody by the bus
// policy), takes a name or PCI address, refuses a present device; once forgotten the NIC is not
// missing, and `nicctl accept-inventory` has nothing left to forget.
#include "support/bus_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

class InventoryBusTest : public test::NicdOnBusTest {
protected:
    std::string extraConfig() const override
    {
        return "[provision]\nMode=off\n[signals]\nEnable=no\n";
    }
    // The last boot saw every NIC of an HGX H100 node; this one lacks mlx5_5.
    void prepareNode() override
    {
        sim::CreateOptions o;
        sim::applyProfile(o, "hgx-h100");
        o.force = true;
        sim::create(root_, o);
        std::ofstream(dir_ / "once.conf") << extraConfig();
        std::string out;
        ASSERT_EQ(test::run({NICD_BIN, "--root", root_.string(), "--config",
                             (dir_ / "once.conf").string(), "--plugin-directory",
                             NICD_BUILD_PLUGIN_DIR, "--no-dbus", "--once"},
                            out),
                  0)
            << out;
        sim::remove(root_, "mlx5_5");
        sim::reboot(root_);
    }
    std::string status() const { return nicctl({"status"}).second; }
};

} // namespace

TEST_F(InventoryBusTest, AGoneNicIsShownAndOnlyRootForgetsIt)
{
    ASSERT_TRUE(
        test::waitFor([&] { return status().find("device_missing") != std::string::npos; }, 10s))
        << status();
    auto out = status();
    EXPECT_NE(out.find("\nfatal mlx5_5 (gone): device_missing: RDMA device present at the last "
                       "boot (PCI 0000:54:00.0"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("\nfatal node: inventory_short.compute: expected 8 compute ports at ≥ 400 "
                       "Gb/s (auto: 8 × NVIDIA H100 SXM5 80GB, a port per GPU), found 7 up (1 not "
                       "there) -> reseat_nic\n"),
              std::string::npos)
        << out;

    auto [rc, refused] = nicctl({"forget", "mlx5_5"}, true);
    EXPECT_NE(rc, 0) << refused;
    EXPECT_NE(refused.find("AccessDenied"), std::string::npos) << refused;
    std::tie(rc, refused) = nicctl({"forget", "mlx5_4"});
    EXPECT_NE(rc, 0);
    EXPECT_NE(refused.find("mlx5_4 is present"), std::string::npos) << refused;
    std::tie(rc, refused) = nicctl({"forget", "mlx5_42"});
    EXPECT_NE(rc, 0);
    EXPECT_NE(refused.find("no absent device mlx5_42"), std::string::npos) << refused;

    auto [ok, forgot] = nicctl({"forget", "0000:54:00.0"});
    ASSERT_EQ(ok, 0) << forgot;
    EXPECT_EQ(forgot, "forgot 0000:54:00.0: it is not expected back\n");
    out = status();
    EXPECT_EQ(out.find("device_missing"), std::string::npos) << out;
    EXPECT_NE(out.find("inventory_short.compute"), std::string::npos)
        << "the GPUs still expect eight: " << out;
    EXPECT_EQ(
        test::readFile(root_ / "var/lib/prometheus/node-exporter/nicd.prom").find("device_missing"),
        std::string::npos);
    EXPECT_EQ(nicctl({"accept-inventory"}).second,
              "nothing to forget: every NIC nicd remembers is present\n");
}
