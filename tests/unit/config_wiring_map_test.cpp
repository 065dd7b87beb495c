// [health] WiringMap=: the file it names is read with the configuration, and a mistake in it is
// refused like one in nicd.conf, naming the map's file and line; a missing map is an error, not an
// empty map; a relative path is refused where it is written.
#include "support/config_files.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;

TEST_F(ConfigLoad, TheWiringMapIsReadWithTheConfiguration)
{
    const auto map = write("wiring.map", "# port switch port\n0000:1a:00.0 su*-leaf-01 swp*\n"
                                         "ens2f0np0 su?-leaf-02\n");
    Config c = loaded("[health]\nWiringMap=" + map + "\n");
    EXPECT_EQ(c.health.wiring.file, map);
    ASSERT_EQ(c.health.wiring.rules.size(), 2U);
    EXPECT_EQ(c.health.wiring.rules[1].switch_name, "su?-leaf-02");
    EXPECT_EQ(c.health.wiring.rules[1].switch_port, "*");
    EXPECT_TRUE(loaded("").health.wiring.rules.empty()) << "no map: none";
}

TEST_F(ConfigLoad, AMistakeInTheWiringMapNamesItsFileAndLine)
{
    const auto map = write("wiring.map", "ens1f0np0 leaf-01\nens2f0np0\nens3f0np0 leaf-0[3\n");
    write("nicd.conf", "[health]\nWiringMap=" + map + "\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    ASSERT_EQ(r.errors.size(), 2U) << allErrors(r);
    EXPECT_EQ(r.errors[0].format(), map + ":2: 1 words; a line is: <port (netdev or PCI address)> "
                                          "<switch> [<switch port>]");
    EXPECT_EQ(r.errors[1].format(), map + ":3: 'leaf-0[3' is not a glob: its '[' has no ']' "
                                          "(fnmatch would take it literally and match nothing)");
}

TEST_F(ConfigLoad, AWiringMapThatIsNotThereIsAnError)
{
    const auto missing = (dir_ / "none.map").string();
    EXPECT_EQ(onlyError("[health]\nWiringMap=" + missing + "\n"),
              mainFile() + ":2: [health] WiringMap=" + missing + ": " + missing + ": no such file");
    EXPECT_NE(onlyError("[health]\nWiringMap=wiring.map\n").find("expected an absolute path"),
              std::string::npos);
}
