// RoCE ToS files under a root directory: rdma_cm's configfs default (made the way the kernel
// shows it) and MOFED's traffic_class in both of its read formats.
#include "qos/traffic_class.hpp"
#include "support/temp_dir.hpp"

#include <nicd/plugin/sdk/roce_tos.h>

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::mlx5;
using namespace nicd::plugin::sdk;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

class RoceTos : public test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        fs::create_directories(dir_ / "sys/kernel/config/rdma_cm");
        target_ = {dir_, true, "mlx5_0", 1};
    }
    void writeTrafficClass(const std::string& text)
    {
        fs::create_directories(trafficClassFile(target_).parent_path());
        std::ofstream(trafficClassFile(target_)) << text;
    }
    TosTarget target_;
};

} // namespace

TEST_F(RoceTos, GroupIsMadeWithTheKernelsInitialValue)
{
    uint8_t tos = 99;
    ASSERT_TRUE(readRoceTos(target_, tos));
    EXPECT_EQ(tos, 0);
    EXPECT_EQ(roceTosFile(target_),
              dir_ / "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos");
    EXPECT_EQ(slurp(roceTosFile(target_)), "0\n");
}

TEST_F(RoceTos, WriteThenReadBack)
{
    ASSERT_TRUE(writeRoceTos(target_, 106));
    EXPECT_EQ(slurp(roceTosFile(target_)), "106\n");
    uint8_t tos = 0;
    ASSERT_TRUE(readRoceTos(target_, tos));
    EXPECT_EQ(tos, 106);
    // An existing group (EEXIST) is fine, and another port gets its own file.
    TosTarget port2 = target_;
    port2.port = 2;
    ASSERT_TRUE(readRoceTos(port2, tos));
    EXPECT_EQ(tos, 0);
}

TEST_F(RoceTos, MissingRdmaCmIsReported)
{
    fs::remove_all(dir_ / "sys/kernel/config/rdma_cm");
    uint8_t tos = 0;
    auto s = readRoceTos(target_, tos);
    EXPECT_EQ(s.code, plugin::v1::Errc::NotSupported);
    EXPECT_NE(s.message.find("rdma_cm"), std::string::npos) << s.message;
}

TEST_F(RoceTos, GarbageValueIsAnError)
{
    ASSERT_TRUE(writeRoceTos(target_, 1));
    std::ofstream(roceTosFile(target_)) << "lots\n";
    uint8_t tos = 0;
    auto s = readRoceTos(target_, tos);
    EXPECT_FALSE(s);
    EXPECT_NE(s.message.find("default_roce_tos"), std::string::npos) << s.message;
}

TEST(TrafficClassParse, BothFormats)
{
    EXPECT_EQ(parseTrafficClass("106\n").tclass, 106);
    EXPECT_TRUE(parseTrafficClass("106\n").valid);
    EXPECT_EQ(parseTrafficClass("Global tclass=106\n").tclass, 106);
    EXPECT_TRUE(parseTrafficClass("Global tclass=106\n").valid);
    auto with_rules = parseTrafficClass("Global tclass=96\ndst_ip=10.0.0.0/8,tclass=104\n");
    EXPECT_TRUE(with_rules.valid);
    EXPECT_EQ(with_rules.tclass, 96);
}

TEST(TrafficClassParse, UnsetForms)
{
    for (const char* text : {"", "\n", "-1\n", "dst_ip=10.0.0.0/8,tclass=104\n"}) {
        auto tc = parseTrafficClass(text);
        EXPECT_TRUE(tc.valid) << text;
        EXPECT_FALSE(tc.tclass) << text;
    }
}

TEST(TrafficClassParse, Garbage)
{
    for (const char* text : {"256\n", "-2\n", "Global tclass=\n", "Global tclass=300\n", "hello\n",
                             "106\n107\n", "Global tclass=1x\n"})
        EXPECT_FALSE(parseTrafficClass(text).valid) << text;
}

TEST_F(RoceTos, TrafficClassOnlyWhereTheFileExists)
{
    EXPECT_FALSE(hasTrafficClass(target_));
    writeTrafficClass("");
    EXPECT_TRUE(hasTrafficClass(target_));
    std::optional<uint8_t> tc = 1;
    ASSERT_TRUE(readTrafficClass(target_, tc));
    EXPECT_FALSE(tc);
    ASSERT_TRUE(mlx5::writeTrafficClass(target_, 106));
    EXPECT_EQ(slurp(trafficClassFile(target_)), "106\n");
    ASSERT_TRUE(readTrafficClass(target_, tc));
    EXPECT_EQ(tc, 106);
    writeTrafficClass("Global tclass=104\n");
    ASSERT_TRUE(readTrafficClass(target_, tc));
    EXPECT_EQ(tc, 104);
    writeTrafficClass("nonsense\n");
    EXPECT_FALSE(readTrafficClass(target_, tc));
}
