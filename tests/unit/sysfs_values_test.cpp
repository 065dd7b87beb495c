// The pure parsers for sysfs values and the port -> netdev rules.
#include "inventory/port_netdevs.hpp"
#include "inventory/sysfs_values.hpp"
#include "support/temp_dir.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
using Strings = std::vector<std::string>;

TEST(SysfsValues, StateLinesKeepNumberAndName)
{
    auto s = sysfs::parseNumberedState("4: ACTIVE\n");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->number, 4);
    EXPECT_EQ(s->name, "ACTIVE");
    auto phys = sysfs::parseNumberedState("4: PortConfigurationTraining");
    ASSERT_TRUE(phys);
    EXPECT_EQ(phys->number, 4);
    EXPECT_EQ(phys->name, "PortConfigurationTraining");
    EXPECT_EQ(sysfs::parseNumberedState("5: LinkUp")->name, "LinkUp");
    EXPECT_EQ(sysfs::parseNumberedState("7: Phy Test")->name, "Phy Test");
    EXPECT_EQ(sysfs::parseNumberedState("1")->number, 1);
}

TEST(SysfsValues, StateLinesWithoutANumberAreRejected)
{
    EXPECT_FALSE(sysfs::parseNumberedState("ACTIVE"));
    EXPECT_FALSE(sysfs::parseNumberedState(""));
    EXPECT_FALSE(sysfs::parseNumberedState("4x: ACTIVE"));
    EXPECT_FALSE(sysfs::parseNumberedState("-1: DOWN"));
    EXPECT_FALSE(sysfs::parseNumberedState("N/A (no PMA)"));
}

TEST(SysfsValues, Rates)
{
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("400 Gb/sec (4X NDR)"), 400);
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("200 Gb/sec (2X NDR)"), 200);
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("2.5 Gb/sec (1X SDR)"), 2.5);
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("25 Gb/sec (1X EDR)\n"), 25);
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("10 Gb/sec"), 10);
    EXPECT_FALSE(sysfs::parseRateGbps("fast"));
    EXPECT_FALSE(sysfs::parseRateGbps("400"));
    EXPECT_FALSE(sysfs::parseRateGbps(""));
    EXPECT_FALSE(sysfs::parseRateGbps("-1 Gb/sec"));
    // Found by tests/fuzz/sysfs_values_fuzz.cpp: from_chars reads infinities (and NaN).
    EXPECT_FALSE(sysfs::parseRateGbps("InfGb/sec"));
    EXPECT_FALSE(sysfs::parseRateGbps("inf Gb/sec (4X NDR)"));
    EXPECT_FALSE(sysfs::parseRateGbps("nan Gb/sec"));
}

TEST(SysfsValues, Counters)
{
    EXPECT_EQ(sysfs::parseCounter("123\n"), 123U);
    EXPECT_EQ(sysfs::parseCounter("  42 \n"), 42U);
    EXPECT_EQ(sysfs::parseCounter("4294967295"), 4294967295U);
    EXPECT_EQ(sysfs::parseCounter("18446744073709551615"), UINT64_MAX);
    EXPECT_FALSE(sysfs::parseCounter("18446744073709551616"));
    EXPECT_FALSE(sysfs::parseCounter("N/A (no PMA)"));
    EXPECT_FALSE(sysfs::parseCounter("-1"));
    EXPECT_FALSE(sysfs::parseCounter(""));
    EXPECT_FALSE(sysfs::parseCounter("12abc"));
    EXPECT_FALSE(sysfs::parseCounter("1 2"));
}

TEST(SysfsValues, NoPmaIsRecognised)
{
    EXPECT_TRUE(sysfs::isNoPma("N/A (no PMA)\n"));
    EXPECT_FALSE(sysfs::isNoPma("0"));
    EXPECT_FALSE(sysfs::isNoPma("N/A"));
}

TEST(SysfsValues, IntegersAndHex)
{
    EXPECT_EQ(sysfs::parseInt("-1\n"), -1);
    EXPECT_EQ(sysfs::parseInt("1"), 1);
    EXPECT_FALSE(sysfs::parseInt("1abc"));
    EXPECT_FALSE(sysfs::parseInt(""));
    EXPECT_FALSE(sysfs::parseInt("99999999999"));
    EXPECT_EQ(sysfs::parseHex("0x1\n"), 1U);
    EXPECT_EQ(sysfs::parseHex("0x20"), 32U);
    EXPECT_FALSE(sysfs::parseHex("1"));
    EXPECT_FALSE(sysfs::parseHex("0x"));
    EXPECT_FALSE(sysfs::parseHex("0xzz"));
}

TEST(SysfsValues, PciAddresses)
{
    EXPECT_TRUE(sysfs::isPciAddress("0000:3b:00.0"));
    EXPECT_TRUE(sysfs::isPciAddress("0000:ab:00.1"));
    EXPECT_FALSE(sysfs::isPciAddress("pci0000:00"));
    EXPECT_FALSE(sysfs::isPciAddress("0000:3b:00"));
    EXPECT_FALSE(sysfs::isPciAddress("mlx5_0"));
}

TEST(PortNetdevs, GidNetdevsAreUniqueAndGidZeroComesFirst)
{
    EXPECT_EQ(
        inventory::gidNetdevs({{10, "ens1f0np0.100"}, {2, "ens1f0np0"}, {0, "ens1f0np0"}, {1, ""}}),
        (std::vector<std::string>{"ens1f0np0", "ens1f0np0.100"}));
    EXPECT_EQ(inventory::gidNetdevs({{1, "bond0"}, {0, "bond0"}}),
              std::vector<std::string>{"bond0"});
    EXPECT_TRUE(inventory::gidNetdevs({}).empty());
}

TEST(PortNetdevs, WhatIsNotANetdevNameIsIgnored)
{
    EXPECT_TRUE(inventory::isNetdevName("ens1f0np0"));
    EXPECT_TRUE(inventory::isNetdevName("ib0.8001"));
    EXPECT_FALSE(inventory::isNetdevName("../../etc"));
    EXPECT_FALSE(inventory::isNetdevName("a name"));
    EXPECT_FALSE(inventory::isNetdevName("averyveryverylongname"));
    EXPECT_FALSE(inventory::isNetdevName(".."));
    EXPECT_EQ(inventory::gidNetdevs({{0, "garbage value"}, {1, "ens1f0np0"}}),
              Strings{"ens1f0np0"});
}

TEST(PortNetdevs, SwitchdevRepresentorsAreNotThePortsNetdev)
{
    std::vector<inventory::FunctionNetdev> nds{{"ens1f0np0", 0, 0, "p0"},
                                               {"pf0vf0", 0, 0, "pf0vf0"},
                                               {"pf0hpf", 0, 0, "pf0hpf"},
                                               {"en3f0pf0sf1", 0, 0, "pf0sf1"},
                                               {"eth9", 0, 0, ""}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 1, 1), (Strings{"ens1f0np0", "eth9"}));
}

TEST(PortNetdevs, SinglePortFunctionOwnsAllItsNetdevs)
{
    std::vector<inventory::FunctionNetdev> nds{{"ens1f0np0", 0, 0},
                                               {"ens1f0np0v0", std::nullopt, 0}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 1, 1),
              (std::vector<std::string>{"ens1f0np0", "ens1f0np0v0"}));
}

TEST(PortNetdevs, MultiPortFunctionSplitsByDevPort)
{
    std::vector<inventory::FunctionNetdev> nds{{"ib1", 1, 0}, {"ib0", 0, 0}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 1, 2), std::vector<std::string>{"ib0"});
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 2, 2), std::vector<std::string>{"ib1"});
}

TEST(PortNetdevs, MultiPortFunctionFallsBackToDevIdOnOldKernels)
{
    // dev_port all 0 (not set by the driver), dev_id says the port.
    std::vector<inventory::FunctionNetdev> nds{{"eth2", 0, 0}, {"eth3", 0, 1}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 1, 2), std::vector<std::string>{"eth2"});
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 2, 2), std::vector<std::string>{"eth3"});
    std::vector<inventory::FunctionNetdev> no_dev_port{{"eth2", std::nullopt, 0},
                                                       {"eth3", std::nullopt, 1}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(no_dev_port, 2, 2),
              std::vector<std::string>{"eth3"});
}

TEST(PortNetdevs, MultiPortFunctionWithoutAnyHintListsAll)
{
    std::vector<inventory::FunctionNetdev> nds{{"eth3", std::nullopt, std::nullopt},
                                               {"eth2", std::nullopt, std::nullopt}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 2, 2),
              (std::vector<std::string>{"eth2", "eth3"}));
    std::vector<inventory::FunctionNetdev> zeros{{"eth2", 0, 0}, {"eth3", 0, 0}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(zeros, 1, 2),
              (std::vector<std::string>{"eth2", "eth3"}));
}

TEST(PortNetdevs, OneNetdevOnATwoPortFunctionBelongsToItsPortOnly)
{
    std::vector<inventory::FunctionNetdev> nds{{"ib0", 0, 0}};
    EXPECT_EQ(inventory::functionNetdevsOfPort(nds, 1, 2), std::vector<std::string>{"ib0"});
    EXPECT_TRUE(inventory::functionNetdevsOfPort(nds, 2, 2).empty());
}

namespace {
void writeFile(const std::filesystem::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary) << text;
}
} // namespace

using SysfsDirectory = nicd::test::TempDirTest;

TEST_F(SysfsDirectory, ReadsAttributesThroughTheClassSymlink)
{
    auto port = dir_ / "devices/pci0000:00/0000:3b:00.0/infiniband/mlx5_0/ports/1";
    std::filesystem::create_directories(port);
    std::filesystem::create_directories(dir_ / "class/infiniband");
    std::filesystem::create_symlink("../../devices/pci0000:00/0000:3b:00.0/infiniband/mlx5_0",
                                    dir_ / "class/infiniband/mlx5_0");
    writeFile(port / "state", "4: ACTIVE\n");
    writeFile(port / "rate", "");
    writeFile(port / "phys_state", "  \n");
    nicd::sysfs::Directory d(dir_ / "class/infiniband/mlx5_0/ports/1");
    ASSERT_TRUE(d.exists());
    EXPECT_EQ(d.value("state"), "4: ACTIVE");
    EXPECT_EQ(d.value("rate"), std::nullopt);       // empty
    EXPECT_EQ(d.value("phys_state"), std::nullopt); // whitespace only
    EXPECT_EQ(d.value("link_layer"), std::nullopt); // missing
}

TEST_F(SysfsDirectory, AFileLongerThanOneReadIsReadWhole)
{
    std::string text(10000, 'x');
    text += "end";
    writeFile(dir_ / "big", text);
    nicd::sysfs::Directory d(dir_);
    EXPECT_EQ(d.value("big"), text);
}

TEST_F(SysfsDirectory, AMissingDirectoryHasNoValues)
{
    nicd::sysfs::Directory d(dir_ / "gone");
    EXPECT_FALSE(d.exists());
    EXPECT_EQ(d.value("state"), std::nullopt);
    writeFile(dir_ / "file", "1\n");
    EXPECT_FALSE(nicd::sysfs::Directory(dir_ / "file").exists()); // not a directory
}

TEST_F(SysfsDirectory, AFileThatCannotBeReadIsAbsent)
{
    std::filesystem::create_directories(dir_ / "sub");
    nicd::sysfs::Directory d(dir_);
    EXPECT_EQ(d.value("sub"), std::nullopt); // EISDIR
}

TEST_F(SysfsDirectory, ReadFileGivesTheTextOrTheReasonItCouldNot)
{
    writeFile(dir_ / "version", "NVRM version: 550\n");
    std::filesystem::create_directories(dir_ / "sub");
    EXPECT_EQ(nicd::sysfs::readFile(dir_ / "version"), "NVRM version: 550\n"); // untrimmed
    auto missing = nicd::sysfs::readFile(dir_ / "gone");
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().message, "No such file or directory");
    auto directory = nicd::sysfs::readFile(dir_ / "sub");
    ASSERT_FALSE(directory.has_value());
    EXPECT_EQ(directory.error().message, "Is a directory");
}

// The real kernel: every network namespace has lo.
TEST(SysfsDirectoryOnSysfs, ReadsTheLoopbackInterface)
{
    nicd::sysfs::Directory d("/sys/class/net/lo");
    if (!d.exists())
        GTEST_SKIP() << "no /sys/class/net/lo here";
    auto operstate = d.value("operstate"); // "unknown" while up, "down" while down
    ASSERT_TRUE(operstate.has_value());
    EXPECT_TRUE(*operstate == "unknown" || *operstate == "down" || *operstate == "up")
        << *operstate;
    EXPECT_EQ(d.value("ifindex"), "1");
    EXPECT_EQ(d.value("no_such_attribute"), std::nullopt);
}
