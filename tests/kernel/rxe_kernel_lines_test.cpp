// Kernel lines through journald, as nicd reads them: rxe0's own dev_printk ("infiniband rxe0: set
// down" when its netdev goes down) arrives with the trusted _KERNEL_DEVICE the kernel gave it and
// is attributed to rxe0; the same words written to /dev/kmsg by a program never reach nicd's rules.
#include "health/kernel_rules.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "kernel_log/kernel_journal.hpp"
#include "kernel_log/trusted_fields.hpp"
#include "support/rxe_node.hpp"

#include <chrono>

using namespace nicd;
using namespace nicd::test;
using namespace std::chrono_literals;

namespace {

class RxeKernelLines : public RxeNodeTest {
protected:
    void TearDown() override
    {
        shell("ip link set veth0 up");
        RxeNodeTest::TearDown();
    }
};

TEST_F(RxeKernelLines, ADevPrintkIsAttributedAndAWrittenLineIsNot)
{
    // The kernel's text of rxe0's line is "infiniband rxe0: set down" (dev_printk's prefix).
    const std::string forged = "infiniband rxe0: set down, written by a program";
    ASSERT_EQ(shell("printf '%s\\n' '" + forged + "' > /dev/kmsg"), 0);
    ASSERT_EQ(shell("ip link set veth0 down && ip link set veth0 up"), 0);
    // journald reads /dev/kmsg as the lines come: wait until both are in the journal.
    ASSERT_TRUE(waitFor(
        [&] {
            std::string out;
            shell("journalctl -k -b -o cat", &out);
            return out.find("written by a program") != std::string::npos &&
                   out.find("infiniband rxe0: set down\n") != std::string::npos;
        },
        20s));

    kernel_log::KernelJournal journal(
        "/", kernel_log::readBootId("/proc/sys/kernel/random/boot_id"), std::nullopt);
    std::vector<std::string> messages;
    std::optional<KernelOrigin> down_origin;
    journal.read([&](const kernel_log::KernelLine& line) {
        messages.emplace_back(line.message);
        if (line.message == "infiniband rxe0: set down")
            down_origin = kernel_log::parseKernelOrigin(line.kernel_device, line.kernel_subsystem);
    });
    for (const auto& m : messages)
        EXPECT_EQ(m.find("written by a program"), std::string::npos)
            << "a program's line reached nicd as the kernel's: " << m;
    ASSERT_TRUE(down_origin) << "rxe0's \"set down\" with its trusted fields";
    EXPECT_EQ(down_origin->subsystem, "infiniband");
    EXPECT_EQ(down_origin->device, kRxe);

    auto inv = inventory::discoverInventory(HostPaths("/"));
    KernelFinding f;
    f.origin = *down_origin;
    const Device* d = health::deviceForKernelLine(f, inv);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->ibdev, kRxe);
}

} // namespace
