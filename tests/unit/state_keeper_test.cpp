// The state keeper across restarts and boots: event numbers go on where the last run stopped,
// so a GetEvents(since) client that saw events 1..n of one boot gets the next boot's baseline.
#include "health/health_engine.hpp"
#include "state/state_keeper.hpp"
#include "support/health_fixture.hpp"
#include "support/temp_dir.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

class StateKeeperTest : public TempDirTest {
protected:
    void boot(const std::string& id)
    {
        std::filesystem::create_directories(dir_ / "proc/sys/kernel/random");
        std::ofstream(dir_ / "proc/sys/kernel/random/boot_id") << id << "\n";
    }
    // One nicd run: restores what the last one saved, evaluates `snaps` one second apart, saves.
    uint64_t run(health::HealthEngine& engine, const std::vector<Snapshot>& snaps)
    {
        state::StateKeeper keeper(HostPaths(dir_), "/var/lib/nicd", engine);
        keeper.restore();
        double t = 1000; // seconds since boot: past the inventory's boot grace
        for (auto s : snaps) {
            t += 1;
            engine.evaluate(s, t, 1700000000 + t);
        }
        keeper.save(std::nullopt, true);
        return engine.lastEventSeq();
    }
    static Snapshot snapOf(Device d)
    {
        Snapshot s;
        s.inventory.devices = {std::move(d)};
        return s;
    }
};

} // namespace

TEST_F(StateKeeperTest, EventNumbersContinueAfterARestartAndAfterANewBoot)
{
    boot("5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
    Config config;
    health::HealthEngine first(config);
    // A baseline, then the port goes down and comes back: events 1..n of the first boot.
    const uint64_t n = run(first, {snapOf(device("mlx5_0", 4)), snapOf(device("mlx5_0", 1)),
                                   snapOf(device("mlx5_0", 4))});
    ASSERT_GE(n, 3U);

    health::HealthEngine restarted(config); // same boot: restored, nothing new
    EXPECT_EQ(run(restarted, {}), n);
    EXPECT_TRUE(restarted.eventsSince(n).empty());

    boot("11111111-2222-3333-4444-555555555555");
    health::HealthEngine next_boot(config);
    run(next_boot, {});
    // What a client that had seen event n asks for: GetEvents(since = n).
    auto since = next_boot.eventsSince(n);
    ASSERT_EQ(since.size(), 1U) << "the new boot's first event is numbered after the old ones";
    EXPECT_EQ(since[0].kind, EventKind::Baseline);
    EXPECT_EQ(since[0].seq, n + 1);
    EXPECT_NE(since[0].message.find("new boot"), std::string::npos) << since[0].message;
}

// A new boot starts from a clean baseline but for the hardware of the last one (what the state
// file says of it): a NIC that did not come back is missing, what else was known is not carried.
TEST_F(StateKeeperTest, ANewBootKeepsTheHardwareOfTheLastOneAndNothingElse)
{
    boot("5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
    auto a = device("mlx5_0", 4);
    a.pci_address = "0000:1a:00.0";
    auto b = device("mlx5_1", 4);
    b.pci_address = "0000:3b:00.0";
    auto b_down = b;
    b_down.ports[0].state = 1;
    Snapshot both;
    both.inventory.devices = {a, b};
    Snapshot one_down = both;
    one_down.inventory.devices[1] = b_down;
    Config config;
    health::HealthEngine first(config);
    run(first, {both, one_down});
    ASSERT_NE(first.conditions().find({"mlx5_1", 1, "port_down"}), nullptr);

    boot("11111111-2222-3333-4444-555555555555");
    health::HealthEngine next_boot(config);
    run(next_boot, {snapOf(a)});
    const auto* missing = next_boot.conditions().find({"mlx5_1", 0, "device_missing"});
    ASSERT_NE(missing, nullptr);
    EXPECT_EQ(missing->action, Action::ReseatNic);
    EXPECT_NE(missing->message.find("PCI 0000:3b:00.0"), std::string::npos) << missing->message;
    EXPECT_EQ(next_boot.conditions().find({"mlx5_1", 1, "port_down"}), nullptr)
        << "the last boot's port_down is not carried over";
}
