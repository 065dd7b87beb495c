// Readiness on the kernel's own GID table and MTU: the built nicd says the port is ready, then
// names what a change to the node took away, then clears it when it is back.
#include "support/rxe_node.hpp"

using namespace nicd;
using namespace nicd::test;

namespace {

class RxeReadiness : public RxeNodeTest {
protected:
    void TearDown() override
    {
        // The node as rxe_node.sh made it, for the tests after this one.
        shell("ip link set veth0 mtu 9000; ip addr replace 192.0.2.1/24 dev veth0; "
              "ip -6 addr replace 2001:db8::1/64 dev veth0 nodad");
        RxeNodeTest::TearDown();
    }

    // Waits until the GID table holds (or no longer holds) the IPv4-mapped GID of 192.0.2.1: the
    // kernel updates it from a workqueue after the address changes.
    static bool ipv4GidPresent()
    {
        std::string out;
        shell("cat /sys/class/infiniband/rxe0/ports/1/gids/*", &out);
        return out.find("ffff:c000:0201") != std::string::npos;
    }
};

TEST_F(RxeReadiness, AddressesAndMtuRemovedAndRestored)
{
    auto r = once();
    ASSERT_EQ(r.exit_code, 0) << r.log << r.json.dump(1);
    EXPECT_TRUE(conditionOf(r, "ready.no_roce_gid").is_null());

    // No address: no RoCE v2 GID NCCL could use. Fatal, the network's configuration to check.
    ASSERT_EQ(shell("ip addr flush dev veth0 scope global"), 0);
    ASSERT_TRUE(waitFor([] { return !ipv4GidPresent(); }, std::chrono::seconds(10)));
    r = once();
    auto c = conditionOf(r, "ready.no_roce_gid");
    ASSERT_FALSE(c.is_null()) << r.json.dump(1);
    EXPECT_EQ(c["severity"], "fatal");
    EXPECT_EQ(c["action"], "check_network_config");
    EXPECT_EQ(r.exit_code, 2) << "fatal: the exit status of a failed health check";

    // The address back: cleared.
    ASSERT_EQ(shell("ip addr add 192.0.2.1/24 dev veth0"), 0);
    ASSERT_TRUE(waitFor([] { return ipv4GidPresent(); }, std::chrono::seconds(10)));
    r = once();
    EXPECT_TRUE(conditionOf(r, "ready.no_roce_gid").is_null()) << r.json.dump(1);
    EXPECT_EQ(r.exit_code, 0) << r.json.dump(1);

    // An MTU below what a 4096-byte RoCE MTU needs ([health] MinMtu's default): degraded.
    ASSERT_EQ(shell("ip link set veth0 mtu 1500"), 0);
    r = once();
    c = conditionOf(r, "ready.mtu_mismatch");
    ASSERT_FALSE(c.is_null()) << r.json.dump(1);
    EXPECT_EQ(c["severity"], "degraded");
    EXPECT_EQ(r.exit_code, 1);
    ASSERT_EQ(shell("ip link set veth0 mtu 9000"), 0);
    r = once();
    EXPECT_TRUE(conditionOf(r, "ready.mtu_mismatch").is_null()) << r.json.dump(1);
    EXPECT_EQ(r.exit_code, 0) << r.json.dump(1);
}

} // namespace
