// What nicd's knob writer takes: exactly the knobs QoS provisioning writes (each in its value
// range), and no other path, however it is spelt; class links only as the kernel makes them.
#include "privilege/knob_protocol.hpp"
#include "privilege/knob_shapes.hpp"

#include <cerrno>

#include <gtest/gtest.h>

using namespace nicd::privilege;

namespace {

std::optional<KnobTarget> write(std::string_view rel)
{
    auto m = matchKnob(KnobOp::Write, rel);
    if (m)
        return *m;
    return std::nullopt;
}

} // namespace

TEST(KnobShapes, TheKnobsQosProvisioningWrites)
{
    struct Case {
        std::string path;
        KnobKind kind;
        KnobAnchor anchor;
        std::string device;
        std::vector<std::string> beneath;
    };
    const std::vector<Case> cases{
        {"sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
         KnobKind::RoceTos,
         KnobAnchor::RdmaCm,
         "mlx5_0",
         {"ports", "1", "default_roce_tos"}},
        {"sys/class/infiniband/mlx5_bond_0/tc/2/traffic_class",
         KnobKind::TrafficClass,
         KnobAnchor::ClassInfiniband,
         "mlx5_bond_0",
         {"tc", "2", "traffic_class"}},
        {"sys/class/net/ens1f0np0/ecn/roce_np/enable/3",
         KnobKind::EcnEnable,
         KnobAnchor::ClassNet,
         "ens1f0np0",
         {"ecn", "roce_np", "enable", "3"}},
        {"sys/class/net/ens1f0np0/ecn/roce_rp/enable/7",
         KnobKind::EcnEnable,
         KnobAnchor::ClassNet,
         "ens1f0np0",
         {"ecn", "roce_rp", "enable", "7"}},
        {"sys/class/net/enp1s0f1np1/ecn/roce_np/cnp_dscp",
         KnobKind::CnpDscp,
         KnobAnchor::ClassNet,
         "enp1s0f1np1",
         {"ecn", "roce_np", "cnp_dscp"}},
        {"sys/class/net/enp1s0f1np1/ecn/roce_np/cnp_802p_prio",
         KnobKind::CnpPriority,
         KnobAnchor::ClassNet,
         "enp1s0f1np1",
         {"ecn", "roce_np", "cnp_802p_prio"}},
    };
    for (const auto& c : cases) {
        auto t = write(c.path);
        ASSERT_TRUE(t) << c.path;
        EXPECT_EQ(t->kind, c.kind) << c.path;
        EXPECT_EQ(t->anchor, c.anchor) << c.path;
        EXPECT_EQ(t->device, c.device) << c.path;
        EXPECT_EQ(t->beneath, c.beneath) << c.path;
    }
    auto group = matchKnob(KnobOp::MakeGroup, "sys/kernel/config/rdma_cm/mlx5_3");
    ASSERT_TRUE(group.has_value());
    EXPECT_EQ(group->kind, KnobKind::RdmaCmGroup);
}

TEST(KnobShapes, EverythingElseIsRefused)
{
    for (const char* path : {
             // What uid 0 may write under the unit's ReadWritePaths= and nicd never does.
             "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/remove",
             "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/reset",
             "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/config",
             "sys/devices/system/cpu/cpu1/online",
             "sys/kernel/config/nvmet/ports/1/addr_traddr",
             "sys/kernel/config/target/core/alua/lu_gp",
             "sys/class/net/ens1f0np0/mtu",
             "sys/class/net/ens1f0np0/device/remove",
             "sys/class/infiniband/mlx5_0/device/reset",
             "sys/class/net/ens1f0np0/ecn/roce_np/enable/8",
             "sys/class/net/ens1f0np0/ecn/roce_np/enable/03",
             "sys/class/net/ens1f0np0/ecn/roce_rp/cnp_dscp",
             "sys/class/net/ens1f0np0/ecn/roce_np/enable",
             "sys/kernel/config/rdma_cm/mlx5_0/ports/0/default_roce_tos",
             "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos/x",
             "sys/kernel/config/rdma_cm/mlx5_0",
             // Spellings that would walk elsewhere.
             "sys/class/net/../../devices/system/cpu/cpu1/online",
             "sys/class/net/../ecn/roce_np/enable/3",
             "sys/class/net/./ecn/roce_np/enable/3",
             "sys/class/net//ecn/roce_np/enable/3",
             "/sys/class/net/ens1f0np0/ecn/roce_np/enable/3",
             "./sys/class/net/ens1f0np0/ecn/roce_np/enable/3",
             "sys/class/net/ens1f0np0/ecn/roce_np/enable/3/",
             "sys/kernel/config/rdma_cm/../nvmet/ports/1/addr_traddr",
             "sys/kernel/config/rdma_cm/a:b/ports/1/default_roce_tos",
             "sys/class/net/a_name_of_16_byte/ecn/roce_np/enable/3",
             "sys/class/net/with space/ecn/roce_np/enable/3",
             "etc/shadow",
             "",
         })
        EXPECT_FALSE(write(path)) << path;
    for (const char* path :
         {"sys/kernel/config/rdma_cm", "sys/kernel/config/rdma_cm/..",
          "sys/kernel/config/nvmet/subsystems/x", "sys/kernel/config/rdma_cm/mlx5_0/ports"})
        EXPECT_FALSE(matchKnob(KnobOp::MakeGroup, path).has_value()) << path;
    // A write is not a mkdir, nor the other way round.
    EXPECT_EQ(matchKnob(KnobOp::MakeGroup, "sys/class/net/ens1f0np0/ecn/roce_np/enable/3")
                  .error()
                  .message,
              "not an rdma_cm group of an IB device");
}

TEST(KnobShapes, ValuesInTheKnobsRangeOnly)
{
    EXPECT_TRUE(checkKnobValue(KnobKind::EcnEnable, "1\n").has_value());
    EXPECT_TRUE(checkKnobValue(KnobKind::EcnEnable, "0").has_value());
    EXPECT_TRUE(checkKnobValue(KnobKind::RoceTos, "106\n").has_value());
    EXPECT_TRUE(checkKnobValue(KnobKind::TrafficClass, "255\n").has_value());
    EXPECT_TRUE(checkKnobValue(KnobKind::CnpDscp, "63\n").has_value());
    EXPECT_TRUE(checkKnobValue(KnobKind::CnpPriority, "7\n").has_value());
    EXPECT_TRUE(checkKnobValue(KnobKind::RdmaCmGroup, "").has_value());
    const std::vector<std::pair<KnobKind, std::string>> bad{
        {KnobKind::EcnEnable, "2\n"},   {KnobKind::EcnEnable, ""},
        {KnobKind::EcnEnable, "1\n\n"}, {KnobKind::EcnEnable, " 1"},
        {KnobKind::RoceTos, "256\n"},   {KnobKind::RoceTos, "-1\n"},
        {KnobKind::RoceTos, "0106\n"},  {KnobKind::RoceTos, "1e2"},
        {KnobKind::CnpDscp, "64\n"},    {KnobKind::CnpPriority, "8\n"},
        {KnobKind::RdmaCmGroup, "1"},   {KnobKind::TrafficClass, "106 1\n"},
    };
    for (const auto& [kind, text] : bad)
        EXPECT_FALSE(checkKnobValue(kind, text).has_value()) << static_cast<int>(kind) << text;
    EXPECT_EQ(checkKnobValue(KnobKind::CnpPriority, "9").error().message,
              "the value must be a number from 0 to 7");
}

TEST(KnobShapes, ClassLinksAsTheKernelMakesThem)
{
    using V = std::vector<std::string>;
    EXPECT_EQ(classLinkTarget(KnobAnchor::ClassNet, "eth0",
                              "../../devices/pci0000:00/0000:00:03.0/virtio2/net/eth0"),
              (V{"sys", "devices", "pci0000:00", "0000:00:03.0", "virtio2", "net", "eth0"}));
    EXPECT_EQ(classLinkTarget(KnobAnchor::ClassNet, "lo", "../../devices/virtual/net/lo"),
              (V{"sys", "devices", "virtual", "net", "lo"}));
    EXPECT_EQ(
        classLinkTarget(KnobAnchor::ClassInfiniband, "mlx5_0",
                        "../../devices/pci0000:16/0000:16:02.0/0000:17:00.0/infiniband/mlx5_0"),
        (V{"sys", "devices", "pci0000:16", "0000:16:02.0", "0000:17:00.0", "infiniband",
           "mlx5_0"}));
    for (const char* link : {
             "/sys/devices/virtual/net/eth0",
             "../../devices/../../etc/net/eth0",
             "../../devices/pci0000:00/../../../net/eth0",
             "../../devices/./net/eth0",
             "../../devices//net/eth0",
             "../../devices/net/eth0",
             "../../../devices/virtual/net/eth0",
             "../devices/virtual/net/eth0",
             "../../module/virtual/net/eth0",
             "../../devices/virtual/net/eth1",
             "../../devices/virtual/infiniband/eth0",
             "../../devices/virtual/net/eth0/",
             "",
         })
        EXPECT_EQ(classLinkTarget(KnobAnchor::ClassNet, "eth0", link), std::nullopt) << link;
    EXPECT_EQ(classLinkTarget(KnobAnchor::RdmaCm, "mlx5_0", "../../devices/x/infiniband/mlx5_0"),
              std::nullopt);
}

TEST(KnobProtocol, RequestsAndRepliesRoundTrip)
{
    KnobRequest w{KnobOp::Write, "sys/class/net/a/ecn/roce_np/enable/3", "1\n"};
    auto back = decodeKnobRequest(encodeKnobRequest(w));
    EXPECT_EQ(back.op, KnobOp::Write);
    EXPECT_EQ(back.path, w.path);
    EXPECT_EQ(back.value, "1\n");
    auto g = decodeKnobRequest(encodeKnobRequest({KnobOp::MakeGroup, "sys/x", ""}));
    EXPECT_EQ(g.op, KnobOp::MakeGroup);
    EXPECT_EQ(g.value, "");

    auto reply = decodeKnobReply(encodeKnobReply({EACCES, "/sys/x: Permission denied"}));
    EXPECT_EQ(reply.err, EACCES);
    EXPECT_EQ(reply.message, "/sys/x: Permission denied");
    EXPECT_EQ(decodeKnobReply(encodeKnobReply({})).err, 0);
    EXPECT_EQ(decodeKnobReply("ab").err, EPROTO);
}

TEST(KnobProtocol, MalformedRequestsSayWhy)
{
    const std::vector<std::pair<std::string, std::string>> cases{
        {"", "an empty request"},
        {std::string("X") + "sys/a" + '\0' + "1", "an unknown operation"},
        {"Wsys/a", "a request without the NUL after its path"},
        {std::string("W") + '\0' + "1", "a request without a path"},
        {std::string("Wsys/a") + '\0' + "1" + '\0', "a value with a NUL in it"},
        {"W" + std::string(kKnobMessageMax, 'a'), "a request longer than 4096 bytes"},
    };
    for (const auto& [bytes, why] : cases) {
        try {
            (void)decodeKnobRequest(bytes);
            ADD_FAILURE() << "accepted: " << why;
        } catch (const nicd::plugin::sdk::DecodeError& e) {
            EXPECT_EQ(e.what(), why);
        }
    }
}
