// rdma_cm's default RoCE ToS through the SDK's writer (what both plugins provision with) against
// the kernel's configfs: the device's group is made by mkdir, the kernel fills in its ports, and
// the value written is the value read back. A device rdma_cm does not know is refused by name.
#include "support/rxe_node.hpp"

#include <nicd/plugin/sdk/roce_tos.h>

using namespace nicd;
using namespace nicd::test;
namespace sdk = nicd::plugin::sdk;

namespace {

class RxeRdmaCm : public RxeNodeTest {};

TEST_F(RxeRdmaCm, TosWrittenIsReadBackFromConfigfs)
{
    sdk::TosTarget t{"/", false, kRxe, 1, nullptr};
    uint8_t before = 255;
    auto s = sdk::readRoceTos(t, before);
    ASSERT_TRUE(s) << s.message;
    EXPECT_EQ(before, 0) << "the kernel's default";
    EXPECT_TRUE(std::filesystem::is_directory("/sys/kernel/config/rdma_cm/rxe0/ports/1"));
    s = sdk::writeRoceTos(t, 106);
    ASSERT_TRUE(s) << s.message;
    uint8_t after = 0;
    ASSERT_TRUE(sdk::readRoceTos(t, after));
    EXPECT_EQ(after, 106);
    EXPECT_EQ(readFile("/sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos"), "106\n");
    ASSERT_TRUE(sdk::writeRoceTos(t, 0));

    sdk::TosTarget absent{"/", false, "nicd_absent0", 1, nullptr};
    s = sdk::readRoceTos(absent, after);
    EXPECT_EQ(s.code, plugin::v1::Errc::NoDevice) << s.message;
    EXPECT_NE(s.message.find("rdma_cm knows no device nicd_absent0"), std::string::npos)
        << s.message;
}

} // namespace
