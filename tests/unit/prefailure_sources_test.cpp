// The pre-failure sources' shared machinery and sysfs readers: a read left behind by a wedged
// driver keeps its key's last value and holds every later read back until it returns; a missing
// interface is no value and no error, said once per key at info level, a malformed one an error
// for that key only; PCIe speeds in both kernels' formats, judged against the
// lower of the two ends; hwmon millidegrees.
#include "prefailure/hwmon_reader.hpp"
#include "prefailure/keyed_source.hpp"
#include "prefailure/pcie_link.hpp"
#include "support/log_capture.hpp"
#include "support/temp_dir.hpp"

#include <fstream>
#include <future>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::prefailure;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// A source of one number per key, its reads answered by the test.
struct Counting {
    std::shared_ptr<std::map<std::string, Reply<int>>> answers =
        std::make_shared<std::map<std::string, Reply<int>>>();
    std::shared_future<void> gate; // valid: reads of "slow" wait for it
    std::shared_ptr<std::atomic<int>> reads = std::make_shared<std::atomic<int>>(0);
    std::map<std::string, int> seen;

    KeyedSource<int> source()
    {
        auto read = [answers = answers, gate = gate, reads = reads](const std::string& what) {
            ++*reads;
            if (what == "slow" && gate.valid())
                gate.wait();
            return answers->at(what);
        };
        return KeyedSource<int>(
            "counting", {1h, 50ms},
            [](const Inventory&) {
                return std::vector<KeyedSource<int>::Key>{{"a", "a"}, {"slow", "slow"}, {"c", "c"}};
            },
            read, [this](const auto& values, Snapshot&) { seen = values; });
    }
};

} // namespace

TEST(KeyedSource, MissingAndFailedKeysHaveNoValue)
{
    Counting c;
    (*c.answers)["a"] = Reply<int>::success(1);
    (*c.answers)["slow"] = Reply<int>::unsupported("no such interface");
    (*c.answers)["c"] = Reply<int>::failed("malformed");
    auto s = c.source();
    Snapshot snap;
    s.read({});
    s.fill(snap);
    EXPECT_EQ(c.seen, (std::map<std::string, int>{{"a", 1}}));
    EXPECT_EQ(s.interval(), 1h) << "a slow source is not read in the fast cycle";
}

TEST(KeyedSource, MissingOnceAtInfoMalformedAsAnErrorForThatKeyOnly)
{
    test::LogCapture logged;
    Counting c;
    (*c.answers)["a"] = Reply<int>::success(1);
    (*c.answers)["slow"] = Reply<int>::unsupported("no ETHTOOL_MSG_MODULE_EEPROM_GET");
    (*c.answers)["c"] = Reply<int>::failed("reply too short");
    auto s = c.source();
    for (int i = 0; i < 3; ++i)
        s.read({});
    (*c.answers)["c"] = Reply<int>::success(3);
    s.read({});

    EXPECT_EQ(logged.text(),
              "info counting: not available for slow: no ETHTOOL_MSG_MODULE_EEPROM_GET\n"
              "error counting: c: reply too short\n"
              "info counting: c reads again\n");
}

TEST(KeyedSource, ReadLeftBehindKeepsLastValuesAndHoldsLaterReads)
{
    Counting c;
    for (const char* k : {"a", "slow", "c"})
        (*c.answers)[k] = Reply<int>::success(1);
    auto s = c.source();
    Snapshot snap;
    s.read({});
    for (const char* k : {"a", "slow", "c"})
        (*c.answers)[k] = Reply<int>::success(2);
    // Reads capture the gate when the source is made: a second source whose "slow" blocks.
    std::promise<void> release;
    c.gate = release.get_future().share();
    auto blocking = c.source();
    blocking.read({}); // first read of the blocking source: "slow" never returns in time
    blocking.fill(snap);
    EXPECT_EQ(c.seen, (std::map<std::string, int>{{"a", 2}}))
        << "keys after the one left behind are not read";
    int before = c.reads->load();
    blocking.read({});
    EXPECT_EQ(c.reads->load(), before) << "nothing is read while a read is out";
    release.set_value();
    for (int i = 0; i < 200 && c.seen.size() < 3; ++i) { // once the call left behind returned
        std::this_thread::sleep_for(10ms);
        blocking.read({});
        blocking.fill(snap);
    }
    EXPECT_EQ(c.seen, (std::map<std::string, int>{{"a", 2}, {"slow", 2}, {"c", 2}}));
}

TEST(KeyedSource, ReadSoonMakesTheNextCycleReadIt)
{
    Counting c;
    (*c.answers)["a"] = (*c.answers)["slow"] = (*c.answers)["c"] = Reply<int>::success(1);
    auto s = c.source();
    s.readSoonFlag()->store(true);
    EXPECT_EQ(s.interval(), 0ms);
    s.read({});
    EXPECT_EQ(s.interval(), 1h);
}

TEST(PcieLink, SpeedsInBothKernelFormats)
{
    EXPECT_EQ(parsePcieSpeed("32.0 GT/s PCIe\n"), 32.0);
    EXPECT_EQ(parsePcieSpeed("2.5 GT/s PCIe"), 2.5);
    EXPECT_EQ(parsePcieSpeed("8 GT/s"), 8.0) << "Linux 5.6 and earlier";
    EXPECT_EQ(parsePcieSpeed("Unknown"), std::nullopt);
    EXPECT_EQ(parsePcieSpeed("Unknown speed"), std::nullopt);
    EXPECT_EQ(parsePcieSpeed("16.0 GT/s PCIe garbage"), std::nullopt);
}

TEST(PcieLink, JudgedAgainstTheLowerOfBothEnds)
{
    PcieLink gen5_in_gen4{16.0, 16, 32.0, 16, 16.0, 16, {}};
    EXPECT_FALSE(trainedDown(gen5_in_gen4)) << "a Gen5 NIC in a Gen4 slot runs as it can";
    PcieLink narrow{32.0, 8, 32.0, 16, 32.0, 16, {}};
    EXPECT_TRUE(trainedDown(narrow));
    PcieLink slow{16.0, 16, 32.0, 16, std::nullopt, std::nullopt, {}};
    EXPECT_TRUE(trainedDown(slow)) << "no bridge above: the NIC's own capability";
    EXPECT_FALSE(trainedDown(PcieLink{})) << "unknown values never count as below";
}

class PciePathTest : public test::TempDirTest {
protected:
    // A PCI function (or bridge) at `rel` below dir_/sys/devices, its link trained at `gts` x
    // `width` where it can do 32.0 GT/s x16.
    fs::path function(const std::string& rel, const char* gts = "32.0", int width = 16)
    {
        auto d = dir_ / "sys/devices" / rel;
        fs::create_directories(d);
        std::ofstream(d / "current_link_speed") << gts << " GT/s PCIe\n";
        std::ofstream(d / "current_link_width") << width << "\n";
        std::ofstream(d / "max_link_speed") << "32.0 GT/s PCIe\n";
        std::ofstream(d / "max_link_width") << "16\n";
        return d;
    }
};

TEST_F(PciePathTest, TheSwitchLinkAboveTheNicIsItsPath)
{
    // Root port 17:01.0, a switch (upstream port 1b:00.0, downstream port 1c:01.0), the NIC.
    function("pci0000:17/0000:17:01.0");
    function("pci0000:17/0000:17:01.0/0000:1b:00.0", "16.0", 8);
    function("pci0000:17/0000:17:01.0/0000:1b:00.0/0000:1c:01.0");
    auto nic = function("pci0000:17/0000:17:01.0/0000:1b:00.0/0000:1c:01.0/0000:18:00.0");
    auto link = readPcieLink(nic);
    ASSERT_TRUE(link);
    EXPECT_FALSE(trainedDown(*link)) << "the NIC's own link is at full speed";
    ASSERT_EQ(link->path.size(), 1U);
    EXPECT_EQ(link->path[0].upstream, "0000:17:01.0");
    EXPECT_EQ(link->path[0].downstream, "0000:1b:00.0");
    EXPECT_EQ(link->path[0].link.current_gts, 16.0);
    EXPECT_EQ(link->path[0].link.current_width, 8);
    EXPECT_TRUE(trainedDown(link->path[0].link));
}

TEST_F(PciePathTest, NoSwitchOrAShapeThatIsNotPcieHasNoPath)
{
    auto below_root = function("pci0000:17/0000:17:01.0/0000:18:00.0");
    ASSERT_TRUE(readPcieLink(below_root));
    EXPECT_TRUE(readPcieLink(below_root)->path.empty()) << "right below its root port";
    // Two bridges above the function: not a root port, a link and a switch (a PCI-to-PCI
    // bridge, say), so which bridge reports which link is unknown: nothing judged.
    function("pci0000:20/0000:20:01.0/0000:21:00.0", "2.5", 1);
    auto odd = function("pci0000:20/0000:20:01.0/0000:21:00.0/0000:22:00.0");
    EXPECT_TRUE(readPciePath(odd).empty());
}

class HwmonTest : public test::TempDirTest {};

TEST_F(HwmonTest, SensorsWithLabelsAndLimits)
{
    auto hw = dir_ / "hwmon/hwmon3";
    std::filesystem::create_directories(hw);
    std::ofstream(hw / "temp1_input") << "57000\n";
    std::ofstream(hw / "temp1_crit") << "105000\n";
    std::ofstream(hw / "temp1_label") << "asic\n";
    std::ofstream(hw / "temp2_input") << "-1500\n";
    auto r = readHwmon(dir_);
    ASSERT_TRUE(r.present);
    ASSERT_EQ(r.sensors.size(), 2U);
    EXPECT_EQ(r.sensors[0], (TemperatureSensor{"asic", 57.0, 105.0, std::nullopt}));
    EXPECT_EQ(r.sensors[1].label, "temp2");
    EXPECT_EQ(r.sensors[1].celsius, -1.5);
    EXPECT_FALSE(readHwmon(dir_ / "nothing").present) << "a kernel without mlx5 hwmon";
    EXPECT_EQ(parseMillidegrees("abc"), std::nullopt);
}

// bnxt_en registers its chip's sensor without a label: it is "asic" as mlx5's is, one label for
// every vendor (sensor="asic" in the textfile).
TEST_F(HwmonTest, AnUnlabelledFirstSensorIsTheChip)
{
    auto hw = dir_ / "hwmon/hwmon5";
    std::filesystem::create_directories(hw);
    std::ofstream(hw / "temp1_input") << "48000\n";
    std::ofstream(hw / "temp1_crit") << "100000\n";
    std::ofstream(hw / "temp3_input") << "30000\n";
    auto r = readHwmon(dir_);
    ASSERT_EQ(r.sensors.size(), 2U);
    EXPECT_EQ(r.sensors[0].label, "asic");
    EXPECT_EQ(r.sensors[1].label, "temp3");
}
