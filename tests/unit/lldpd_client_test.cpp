// lldpd's socket in a --root tree is reached beneath the tree only: a link there that leads out
// (to another daemon's socket on the host) is refused and never connected through, one that
// stays inside is followed, and something that is not a socket is not lldpd. The sockets here are
// the test's own listeners: a connection they accept, and then close, shows nicd got through.
#include "neighbor/lldpcli_json.hpp"
#include "neighbor/lldpd_client.hpp"
#include "neighbor/neighbor_source.hpp"
#include "support/temp_dir.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include <gtest/gtest.h>

namespace nicd::neighbor {

namespace {

namespace fs = std::filesystem;

// A listening unix socket at `path` that accepts nothing (a connect still succeeds: the backlog).
class Listener {
public:
    explicit Listener(const fs::path& path)
    {
        fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
        ok_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
              ::listen(fd_, 4) == 0;
    }
    ~Listener()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    bool ok() const { return ok_; }

private:
    int fd_ = -1;
    bool ok_ = false;
};

class LldpdSocketInATree : public test::TempDirTest {
protected:
    LldpdSocketInATree() : TempDirTest("lldpsock") {}
    void SetUp() override
    {
        TempDirTest::SetUp();
        tree_ = dir_ / "tree";
        fs::create_directories(tree_ / "run");
        fs::create_directories(tree_ / "var");
    }
    std::string readTree()
    {
        LldpdClient client(HostPaths(tree_), std::chrono::milliseconds(200));
        auto r = client.read();
        EXPECT_FALSE(r.available) << "the listeners here are not lldpd";
        return r.unavailable;
    }
    fs::path tree_;
};

} // namespace

TEST_F(LldpdSocketInATree, ALinkOutOfTheTreeIsNotConnectedThrough)
{
    Listener host(dir_ / "host.sock"); // another daemon's socket, outside the tree
    ASSERT_TRUE(host.ok());
    fs::create_symlink(dir_ / "host.sock", tree_ / "run/lldpd.socket");
    auto why = readTree();
    if (why.find("not installed") != std::string::npos)
        GTEST_SKIP() << why;
    EXPECT_NE(why.find("run/lldpd.socket: leads out of the tree: not followed"), std::string::npos)
        << why;
    fs::remove(tree_ / "run/lldpd.socket");
    fs::create_symlink("../../host.sock", tree_ / "run/lldpd.socket");
    EXPECT_NE(readTree().find("leads out of the tree"), std::string::npos) << "nor by climbing";
}

TEST_F(LldpdSocketInATree, ALinkThatStaysInsideIsFollowedAndAFileIsNoLldpd)
{
    Listener inside(tree_ / "var/lldpd.sock");
    ASSERT_TRUE(inside.ok());
    fs::create_symlink("../var/lldpd.sock", tree_ / "run/lldpd.socket");
    auto why = readTree();
    if (why.find("not installed") != std::string::npos)
        GTEST_SKIP() << why;
    // Connected: the listener never answers lldpd's protocol, so the exchange times out.
    EXPECT_NE(why.find("did not answer: no reply within 200 ms"), std::string::npos) << why;

    fs::remove(tree_ / "run/lldpd.socket");
    std::ofstream(tree_ / "run/lldpd.socket") << "not a socket\n";
    EXPECT_NE(readTree().find("run/lldpd.socket: not a socket"), std::string::npos);
    fs::remove(tree_ / "run/lldpd.socket");
    EXPECT_NE(readTree().find("No such file or directory"), std::string::npos);
}

TEST_F(LldpdSocketInATree, TheTwinIsReadAsAFileOfTheTreeNeverThroughALink)
{
    LldpNeighbor n;
    n.chassis_id = "02:00:00:00:00:07";
    n.chassis_id_type = "mac";
    n.system_name = "leaf-07";
    n.port_id = "swp12";
    n.port_id_type = "ifname";
    const auto json = toLldpcliJson({{"ens1f0np0", {n}}});
    fs::create_directories(tree_ / "run/nicd-sim/lldp");
    std::ofstream(dir_ / "outside.json") << json;
    fs::create_symlink(dir_ / "outside.json", tree_ / "run/nicd-sim/lldp/neighbors.json");
    NeighborSource source(HostPaths(tree_), std::chrono::seconds(1), std::chrono::seconds(1));
    Snapshot snap;
    source.read(Inventory{});
    source.fill(snap);
    EXPECT_FALSE(snap.neighbors.available) << "a linked twin is not read";
    EXPECT_NE(snap.neighbors.unavailable.find("neighbors.json"), std::string::npos)
        << snap.neighbors.unavailable;

    fs::remove(tree_ / "run/nicd-sim/lldp/neighbors.json");
    std::ofstream(tree_ / "run/nicd-sim/lldp/neighbors.json") << json;
    source.read(Inventory{});
    source.fill(snap);
    ASSERT_TRUE(snap.neighbors.available) << snap.neighbors.unavailable;
    EXPECT_EQ(snap.neighbors.by_netdev.at("ens1f0np0").front().label(), "leaf-07 swp12");
}

} // namespace nicd::neighbor
