// A GPU node with three dual-port storage cards (nicd-sim create --storage-cards 3), as `nicd
// --once` judges it: healthy, nothing; with the third card a spare (both ports down) and one port
// of the second card never up, exactly card_ports_fewer (degraded, check_cable) on that port,
// beside each down port's port_never_up at info, and the node degraded (exit 1).
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/temp_dir.hpp"

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class CardPortsNode : public test::TempDirTest {
protected:
    CardPortsNode() : TempDirTest("cards") {}
    fs::path node(const std::string& name) const
    {
        const auto root = dir_ / name;
        sim::CreateOptions o{.channels = 2};
        sim::applyProfile(o, "hgx-h100");
        o.storage_cards = 3; // mlx5_8/9 at e1:00, mlx5_10/11 at e3:00, mlx5_12/13 at e5:00
        sim::create(root, o);
        test::writeNodeConfig(root);
        return root;
    }
    static void linkDown(const fs::path& root, const std::string& dev)
    {
        std::string out;
        ASSERT_EQ(test::sim({"inject", root.string(), "link-down", dev}, out), 0) << out;
    }
};

} // namespace

TEST_F(CardPortsNode, AHalfCabledCardBesideAFullOneIsDegradedOnItsPortNotUp)
{
    const auto healthy = test::once(node("healthy"));
    ASSERT_EQ(healthy.rc, 0) << healthy.output;
    EXPECT_TRUE(test::activeConditions(healthy.textfile).empty()) << healthy.textfile;

    const auto root = node("cabled-in-part");
    for (const char* dev : {"mlx5_11", "mlx5_12", "mlx5_13"})
        linkDown(root, dev); // before nicd's first look: never up this boot
    const auto v = test::once(root);
    EXPECT_EQ(v.rc, 1) << v.output;
    EXPECT_EQ(test::activeConditions(v.textfile),
              (std::set<std::string>{"mlx5_11 1 card_ports_fewer degraded check_cable",
                                     "mlx5_11 1 port_never_up info none",
                                     "mlx5_12 1 port_never_up info none",
                                     "mlx5_13 1 port_never_up info none"}));
}
