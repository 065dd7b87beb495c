// udev's rdma_rename under a running nicd (mlx5_0 -> rocep26s0f0, as rdma-core's persistent
// naming does after boot): the device is its PCI address, so nothing goes missing; its port that
// was down stays down since the same time under the new name; the textfile and the bus show the
// new name only; the rename is one event, served and signalled. A device really removed is still
// missing, with its PCI address.
#include "support/bus_fixture.hpp"

#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

class DeviceRenameTest : public test::NicdOnBusTest {
protected:
    std::string textfile() const
    {
        return test::readFile(root_ / "var/lib/prometheus/node-exporter/nicd.prom");
    }
    bool textfileShows(const std::string& text) const
    {
        return test::waitFor([&] { return textfile().find(text) != std::string::npos; }, 10s);
    }
    // The value of the textfile line that starts with `series`; empty when there is none.
    std::string valueOf(const std::string& series) const
    {
        auto text = textfile();
        auto at = text.find(series + " ");
        return at == std::string::npos ? std::string()
                                       : text.substr(at + series.size() + 1,
                                                     text.find('\n', at) - at - series.size() - 1);
    }
};

} // namespace

TEST_F(DeviceRenameTest, ARenameWhileRunningIsOneEventAndNothingGoesMissing)
{
    const std::string since_old = "nicd_condition_since_timestamp_seconds{device=\"mlx5_0\","
                                  "port=\"1\",code=\"port_down\"}";
    const std::string since_new = "nicd_condition_since_timestamp_seconds{device=\"rocep26s0f0\","
                                  "port=\"1\",code=\"port_down\"}";
    sim::linkDown(root_, "mlx5_0");
    ASSERT_TRUE(textfileShows(since_old)) << textfile().substr(0, 2000);
    const auto since = valueOf(since_old);
    auto follow = std::make_unique<test::Process>(
        std::vector<std::string>{NICCTL_BIN, "--bus", bus_->address(), "events", "--follow"},
        std::map<std::string, std::string>{}, dir_ / "follow.log");
    std::this_thread::sleep_for(500ms);

    sim::rename(root_, "mlx5_0", "rocep26s0f0");
    ASSERT_TRUE(textfileShows(since_new)) << test::readFile(dir_ / "nicd.log");
    EXPECT_EQ(valueOf(since_new), since) << "down since the same time";
    auto text = textfile();
    EXPECT_EQ(text.find("device=\"mlx5_0\""), std::string::npos) << text;
    EXPECT_EQ(text.find("device_missing"), std::string::npos) << text;
    EXPECT_NE(text.find("nicd_health_events_total{kind=\"renamed\"} 1"), std::string::npos);
    EXPECT_NE(text.find("nicd_device_health{device=\"rocep26s0f0\"} 2"), std::string::npos);

    auto [rc, events] = nicctl({"events"});
    ASSERT_EQ(rc, 0) << events;
    EXPECT_NE(events.find("info renamed rocep26s0f0 device_renamed: mlx5_0 (PCI 0000:1a:00.0) is "
                          "now rocep26s0f0"),
              std::string::npos)
        << events;
    EXPECT_EQ(events.find("recovered"), std::string::npos) << "nothing flickered: " << events;
    EXPECT_TRUE(test::waitFor(
        [&] {
            return test::readFile(dir_ / "follow.log").find("renamed rocep26s0f0") !=
                   std::string::npos;
        },
        5s))
        << "the Event signal: " << test::readFile(dir_ / "follow.log");
    auto tree = busctl({"tree", "--list", "io.nicd.Nicd1"}).second;
    EXPECT_NE(tree.find("/io/nicd/Nicd1/device/rocep26s0f0/port/1"), std::string::npos) << tree;
    EXPECT_EQ(tree.find("/io/nicd/Nicd1/device/mlx5_0"), std::string::npos) << tree;

    // A removal is still a loss of hardware.
    sim::remove(root_, "mlx5_3");
    ASSERT_TRUE(textfileShows("nicd_condition_active{device=\"mlx5_3\",port=\"0\",code=\"device_"
                              "missing\""));
    EXPECT_NE(nicctl({"events"})
                  .second.find(
                      "raised mlx5_3 device_missing: RDMA device disappeared (PCI 0000:5d:00.0)"),
              std::string::npos)
        << nicctl({"events"}).second;
}
