// A device is its PCI address, its name a label: which names moved between two inventories
// (findRenames), the hardware known this boot and what of it is missing (KnownDevices, with the
// names-only list of an earlier nicd), and moving state kept by device name (moveDeviceKeys).
#include "health/condition_set.hpp"
#include "health/device_identity.hpp"
#include "model/device_keys.hpp"

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

Device dev(const std::string& name, const std::string& pci, bool vf = false)
{
    Device d;
    d.ibdev = name;
    d.pci_address = pci;
    if (vf)
        d.function = DeviceFunction::VirtualFunction;
    return d;
}

Inventory inventory(std::vector<Device> devices)
{
    Inventory inv;
    inv.devices = std::move(devices);
    std::sort(inv.devices.begin(), inv.devices.end(),
              [](const Device& a, const Device& b) { return a.ibdev < b.ibdev; });
    return inv;
}

const std::string kA = "0000:1a:00.0";
const std::string kB = "0000:3b:00.0";
const std::string kC = "0000:4c:00.0";

} // namespace

TEST(FindRenames, ANameThatMovedIsARenameByPciAddress)
{
    std::vector<KnownDevice> known{{kA, "mlx5_0"}, {kB, "mlx5_1"}};
    auto now = inventory({dev("rocep26s0f0", kA), dev("mlx5_1", kB)});
    EXPECT_EQ(findRenames(known, now),
              (std::vector<DeviceRename>{{"mlx5_0", "rocep26s0f0", kA, false}}));
    EXPECT_TRUE(findRenames(known, inventory({dev("mlx5_0", kA), dev("mlx5_1", kB)})).empty());
    EXPECT_TRUE(findRenames(known, inventory({dev("mlx5_1", kB)})).empty())
        << "a device gone is no rename";
    EXPECT_TRUE(findRenames({}, now).empty());
}

TEST(FindRenames, SwappedAndShiftedNamesEachMoveOnce)
{
    std::vector<KnownDevice> known{{kA, "mlx5_0"}, {kB, "mlx5_1"}, {kC, "mlx5_2"}};
    EXPECT_EQ(
        findRenames(known, inventory({dev("mlx5_1", kA), dev("mlx5_0", kB), dev("mlx5_2", kC)})),
        (std::vector<DeviceRename>{{"mlx5_0", "mlx5_1", kA, false},
                                   {"mlx5_1", "mlx5_0", kB, false}}));
    EXPECT_EQ(
        findRenames(known, inventory({dev("mlx5_1", kA), dev("mlx5_2", kB), dev("mlx5_3", kC)})),
        (std::vector<DeviceRename>{{"mlx5_0", "mlx5_1", kA, false},
                                   {"mlx5_1", "mlx5_2", kB, false},
                                   {"mlx5_2", "mlx5_3", kC, false}}));
}

// Hardware gone whose name another device now has: its memory moves to its PCI address, so the
// device with the name starts clean. Not for a VF (forgotten when gone), nor when nothing can be
// told apart: no PCI address, or one address for two devices.
TEST(FindRenames, ANameReusedByOtherHardwareAndWhatCannotBeToldApart)
{
    std::vector<KnownDevice> known{{kA, "mlx5_0"}, {kB, "mlx5_1"}};
    EXPECT_EQ(findRenames(known, inventory({dev("mlx5_0", kA), dev("mlx5_1", kC)})),
              (std::vector<DeviceRename>{{"mlx5_1", kB, kB, true}}));
    EXPECT_TRUE(findRenames({{kB, "mlx5_5", true}}, inventory({dev("mlx5_5", kC, true)})).empty());
    EXPECT_TRUE(findRenames({{"", "rxe0"}}, inventory({dev("rxe1", "")})).empty());
    EXPECT_TRUE(findRenames({{"", "mlx5_0"}}, inventory({dev("rocep26s0f0", kA)})).empty())
        << "known by name only: nothing to follow";
    EXPECT_TRUE(findRenames(known, inventory({dev("mlx5_bond_0", kA), dev("mlx5_7", kA),
                                              dev("mlx5_1", kB)}))
                    .empty())
        << "two devices on one address";
}

TEST(KnownDevices, MissingIsHardwareGoneWhateverItsName)
{
    KnownDevices k;
    k.update(inventory(
        {dev("mlx5_0", kA), dev("mlx5_1", kB), dev("mlx5_5", kC, true), dev("rxe0", "")}));
    EXPECT_TRUE(
        k.missing(inventory({dev("mlx5_0", kA), dev("mlx5_1", kB), dev("rxe0", "")})).empty())
        << "a VF that goes is never missing";
    k.update(inventory({dev("mlx5_0", kA), dev("mlx5_1", kB), dev("rxe0", "")}));
    EXPECT_EQ(k.devices().size(), 3U) << "the VF is forgotten";

    k.rename("mlx5_0", "rocep26s0f0");
    auto now = inventory({dev("rocep26s0f0", kA)});
    EXPECT_EQ(k.missing(now), (std::vector<KnownDevice>{{"", "rxe0"}, {kB, "mlx5_1"}}));
    k.update(now);
    EXPECT_EQ(k.devices(),
              (std::vector<KnownDevice>{{"", "rxe0"}, {kA, "rocep26s0f0"}, {kB, "mlx5_1"}}))
        << "the missing stay known, under their last name";
}

TEST(KnownDevices, ARenameIsFoundUntilTheNewNameIsTakenIn)
{
    KnownDevices k;
    auto before = inventory({dev("mlx5_0", kA), dev("mlx5_1", kB)});
    k.update(before);
    EXPECT_TRUE(k.renames(before).empty());
    auto after = inventory({dev("rocep26s0f0", kA), dev("mlx5_1", kB)});
    EXPECT_EQ(k.renames(after).size(), 1U);
    EXPECT_EQ(k.renames(after).size(), 1U) << "asking again changes nothing";
    k.rename("mlx5_0", "rocep26s0f0");
    EXPECT_TRUE(k.renames(after).empty());
    EXPECT_TRUE(k.missing(after).empty());
    k.update(after);
    EXPECT_TRUE(k.renames(after).empty());
    EXPECT_EQ(k.renames(before), (std::vector<DeviceRename>{{"rocep26s0f0", "mlx5_0", kA, false}}))
        << "and back";
}

// nicd before identity by hardware kept names: read, and each name known by its PCI address as
// soon as an inventory shows it on one.
TEST(KnownDevices, ReadsTheNamesOnlyListOfAnEarlierNicd)
{
    auto k = KnownDevices::fromJson(nlohmann::json::parse(R"(["mlx5_0", "mlx5_1"])"));
    EXPECT_EQ(k.devices(), (std::vector<KnownDevice>{{"", "mlx5_0"}, {"", "mlx5_1"}}));
    auto now = inventory({dev("mlx5_0", kA), dev("rocep59s0f0", kB)});
    EXPECT_EQ(k.missing(now), (std::vector<KnownDevice>{{"", "mlx5_1"}}))
        << "a rename before the upgrade cannot be told from a loss";
    k.update(now);
    EXPECT_EQ(k.devices(),
              (std::vector<KnownDevice>{{"", "mlx5_1"}, {kA, "mlx5_0"}, {kB, "rocep59s0f0"}}));
    auto again = KnownDevices::fromJson(k.toJson());
    EXPECT_EQ(again.devices(), k.devices());
    const auto saved = k.toJson()[1]; // with the hardware an inventory showed (its own tests)
    EXPECT_EQ(saved["pci_address"], "0000:1a:00.0");
    EXPECT_EQ(saved["name"], "mlx5_0");
    EXPECT_EQ(saved["vf"], false);
    for (const char* bad : {R"({"mlx5_0": 1})", R"([7])", R"([{"name": "mlx5_0"}])"})
        EXPECT_THROW(KnownDevices::fromJson(nlohmann::json::parse(bad)), nlohmann::json::exception)
            << bad;
}

TEST(MoveDeviceKeys, MovesTheDevicesEntriesAndKeepsWhatTheNewNameHas)
{
    std::map<std::tuple<std::string, uint32_t, std::string>, int> by_port{{{"mlx5_0", 1, "a"}, 1},
                                                                          {{"mlx5_0", 2, "b"}, 2},
                                                                          {{"mlx5_1", 1, "a"}, 3},
                                                                          {{"rocep", 2, "b"}, 4}};
    moveDeviceKeys(by_port, "mlx5_0", "rocep");
    EXPECT_EQ(by_port,
              (decltype(by_port){
                  {{"mlx5_1", 1, "a"}, 3}, {{"rocep", 1, "a"}, 1}, {{"rocep", 2, "b"}, 4}}));
    std::map<std::string, int> by_name{{"mlx5_0", 1}, {"mlx5_00", 2}};
    moveDeviceKeys(by_name, "mlx5_0", "x");
    EXPECT_EQ(by_name, (std::map<std::string, int>{{"mlx5_00", 2}, {"x", 1}}));
}

TEST(MoveDeviceKeys, ConditionsKeepTheirFirstSeen)
{
    ConditionSet set;
    std::vector<Event> out;
    Condition c;
    c.code = "port_down";
    c.device = "mlx5_0";
    c.port = 1;
    set.raise(c, 100, out);
    c.code = "link_flapping";
    set.raise(c, 110, out);
    c.device = "rocep26s0f0";
    set.raise(c, 120, out);
    set.moveDevice("mlx5_0", "rocep26s0f0");
    ASSERT_EQ(set.active().size(), 2U);
    EXPECT_EQ(set.find({"rocep26s0f0", 1, "port_down"})->first_seen, 100);
    EXPECT_EQ(set.find({"rocep26s0f0", 1, "port_down"})->device, "rocep26s0f0");
    EXPECT_EQ(set.find({"rocep26s0f0", 1, "link_flapping"})->first_seen, 110)
        << "the earlier of the two";
    EXPECT_EQ(out.size(), 3U) << "a move is no event";
}
