// [health] FirmwareMin= and FirmwareAllowed= (config/firmware_values.hpp): PSID:VERSION items
// separated by commas or spaces, into the baseline the firmware rule judges; each mistake an
// error naming the file, line and key, the key keeping its value; no key, no baseline.
#include "config/firmware_values.hpp"
#include "support/config_files.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;
using Versions = std::map<std::string, std::vector<std::string>>;

TEST_F(ConfigLoad, FirmwareBaselineKeysReadBoardsAndVersions)
{
    Config none = loaded("[health]\nMinMtu=4192\n");
    EXPECT_TRUE(none.health.firmware_min.empty());
    EXPECT_TRUE(none.health.firmware_allowed.empty());
    Config c = loaded("[health]\n"
                      "FirmwareMin=MT_0000000838:28.40.1000, BCM957608-P2200GQF00:230.0.157.0\n"
                      "FirmwareAllowed=MT_0000000838:28.41.1000 MT_0000000838:28.43.1014,"
                      "MT_0000000970:22.41.1000\n");
    EXPECT_EQ(c.health.firmware_min,
              (std::map<std::string, std::string>{{"MT_0000000838", "28.40.1000"},
                                                  {"BCM957608-P2200GQF00", "230.0.157.0"}}));
    EXPECT_EQ(c.health.firmware_allowed, (Versions{{"MT_0000000838", {"28.41.1000", "28.43.1014"}},
                                                   {"MT_0000000970", {"22.41.1000"}}}));
    // A drop-in replaces the whole list; an empty value clears it.
    write("nicd.conf", "[health]\nFirmwareMin=MT_0000000838:28.40.1000\n");
    write("nicd.conf.d/50-no-baseline.conf", "[health]\nFirmwareMin=\n");
    auto cleared = load();
    ASSERT_TRUE(cleared.config) << allErrors(cleared);
    EXPECT_TRUE(cleared.config->health.firmware_min.empty());
}

TEST_F(ConfigLoad, FirmwareBaselineMistakesNameFileLineAndKey)
{
    EXPECT_EQ(onlyError("[health]\nFirmwareMin=28.40.1000\n"),
              mainFile() + ":2: [health] FirmwareMin=28.40.1000: expected PSID:VERSION items "
                           "separated by commas or spaces (MT_0000000838:28.39.1002: the board_id, "
                           "then dotted decimal numbers) ('28.40.1000' is not one)");
    EXPECT_EQ(onlyError("[health]\nFirmwareMin=*:28.40.1000\n"),
              mainFile() + ":2: [health] FirmwareMin=*:28.40.1000: '*:28.40.1000': no '*' "
                           "entry: firmware versions belong to a card's family (one family's "
                           "20.x is another's 28.x), so name each board's PSID");
    EXPECT_NE(onlyError("[health]\nFirmwareMin=MT_0000000838:28.40.x\n")
                  .find(":2: [health] FirmwareMin=MT_0000000838:28.40.x: 'MT_0000000838:28.40.x': "
                        "VERSION must be dotted decimal numbers"),
              std::string::npos);
    EXPECT_NE(onlyError("[health]\nFirmwareMin=MT_0000000838:28..1000\n").find("VERSION must"),
              std::string::npos);
    EXPECT_NE(
        onlyError("[health]\nFirmwareAllowed=MT 0000000838:28.41.1000\n").find("('MT' is not one)"),
        std::string::npos);
    EXPECT_NE(onlyError("[health]\nFirmwareAllowed=MT/0838:28.41.1000\n").find("PSID must be"),
              std::string::npos);
    EXPECT_EQ(onlyError("[health]\n\nFirmwareMin=A:1.0 A:2.0\n"),
              mainFile() + ":3: [health] FirmwareMin=A:1.0 A:2.0: board A is given twice (one "
                           "lowest version per board)");
    EXPECT_NE(onlyError("[health]\nFirmwareAllowed=A:1.0,A:1.0\n").find("A:1.0 is listed twice"),
              std::string::npos);
}

TEST(ConfigValues, FirmwareVersionsAreDottedNumbers)
{
    EXPECT_TRUE(config::parseFirmwareMin("MT_0000000838:28.39.1002"));
    EXPECT_TRUE(config::parseFirmwareMin("BCM957608-P2200GQF00:230.0.157.0"));
    EXPECT_TRUE(config::parseFirmwareMin("X:7"));
    EXPECT_TRUE(config::parseFirmwareMin(" , "));
    for (const char* bad : {"X:", ":1.0", "X:1.", "X:.1", "X:1.0-rc1", "X:1.2.3.4.5.6.7.8.9",
                            "X:1234567890.1", "X:v28.39"})
        EXPECT_FALSE(config::parseFirmwareMin(bad)) << bad;
    EXPECT_FALSE(config::parseFirmwareMin(std::string(65, 'A') + ":1.0")) << "PSID too long";
}
