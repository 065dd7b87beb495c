// nicd-sim's layout of an RDMA device checked against the kernel's: every file nicd reads of a
// device and its port, as rxe0 has it and as nicd-sim lays out mlx5_0, prints in the same format
// (values differ by model; the format is what nicd's parsers depend on). An unused GID slot is
// zeros in both, and its type unreadable in both: the kernel answers EINVAL, nicd-sim has no file.
#include "sim.hpp"
#include "support/rxe_node.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <regex>

using namespace nicd;
using namespace nicd::test;
namespace fs = std::filesystem;

namespace {

class SimLayoutVsKernel : public RxeNodeTest {
protected:
    void SetUp() override
    {
        RxeNodeTest::SetUp();
        if (IsSkipped())
            return;
        sim::create(dir_ / "node", {});
        sim_dev_ = fs::canonical(dir_ / "node/sys/class/infiniband/mlx5_0");
        kernel_dev_ = fs::canonical(kRxeSysfs);
    }
    fs::path sim_dev_;
    fs::path kernel_dev_;
};

// The file's bytes, or nullopt when it cannot be read (as nicd's reads see it).
std::optional<std::string> bytesOf(const fs::path& file)
{
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    char buf[256];
    ssize_t n = ::read(fd, buf, sizeof buf);
    ::close(fd);
    if (n < 0)
        return std::nullopt;
    return std::string(buf, static_cast<size_t>(n));
}

// The first GID slot of the port whose GID is all zeros.
std::string unusedSlot(const fs::path& port)
{
    for (int i = 0; i < 4096; ++i)
        if (bytesOf(port / "gids" / std::to_string(i)) ==
            "0000:0000:0000:0000:0000:0000:0000:0000\n")
            return std::to_string(i);
    return "";
}

TEST_F(SimLayoutVsKernel, EveryFileNicdReadsHasTheKernelsFormat)
{
    const std::string hex4 = "[0-9a-f]{4}";
    const std::map<std::string, std::string> formats{
        {"node_guid", "(" + hex4 + ":){3}" + hex4 + "\n"},
        {"sys_image_guid", "(" + hex4 + ":){3}" + hex4 + "\n"},
        {"node_type", "[0-9]+: [A-Z]+\n"},
        {"fw_ver", "([0-9]+(\\.[0-9]+)*)?\n"}, // rxe has no firmware: an empty line
        {"ports/1/state", "[0-9]: [A-Z_]+\n"},
        {"ports/1/phys_state", "[0-9]+: [A-Za-z]+\n"},
        {"ports/1/link_layer", "(Ethernet|InfiniBand)\n"},
        {"ports/1/rate", "[0-9]+(\\.[0-9]+)? Gb/sec \\([0-9]+X [A-Z0-9]+\\)\n"},
        {"ports/1/lid", "0x[0-9a-f]+\n"},
        {"ports/1/sm_lid", "0x[0-9a-f]+\n"},
        {"ports/1/cap_mask", "0x[0-9a-f]{8}\n"},
        {"ports/1/gids/0", "(" + hex4 + ":){7}" + hex4 + "\n"},
        {"ports/1/gid_attrs/types/0", "(IB/RoCE v1|RoCE v2)\n"},
        {"ports/1/gid_attrs/ndevs/0", "[A-Za-z0-9_.-]+\n"},
    };
    for (const auto& [file, format] : formats) {
        const std::regex re(format);
        for (const auto& dev : {kernel_dev_, sim_dev_}) {
            auto text = bytesOf(dev / file);
            ASSERT_TRUE(text) << dev / file;
            EXPECT_TRUE(std::regex_match(*text, re))
                << dev / file << ": '" << *text << "' is not /" << format << "/";
        }
    }
}

// Each driver has hw counters of its own names; every one prints a decimal number.
TEST_F(SimLayoutVsKernel, EveryHwCounterIsADecimalLine)
{
    const std::regex number("[0-9]+\n");
    for (const auto& dev : {kernel_dev_, sim_dev_}) {
        size_t n = 0;
        for (const auto& e : fs::directory_iterator(dev / "ports/1/hw_counters")) {
            auto text = bytesOf(e.path());
            ASSERT_TRUE(text) << e.path();
            EXPECT_TRUE(std::regex_match(*text, number)) << e.path() << ": '" << *text << "'";
            ++n;
        }
        EXPECT_GE(n, 10U) << dev;
    }
}

TEST_F(SimLayoutVsKernel, AnUnusedGidSlotIsZerosWithNoReadableType)
{
    for (const auto& dev : {kernel_dev_, sim_dev_}) {
        const auto port = dev / "ports/1";
        const auto slot = unusedSlot(port);
        ASSERT_FALSE(slot.empty()) << port;
        EXPECT_FALSE(bytesOf(port / "gid_attrs/types" / slot)) << port << " slot " << slot;
        EXPECT_FALSE(bytesOf(port / "gid_attrs/ndevs" / slot)) << port << " slot " << slot;
    }
}

// /sys/class/infiniband/<dev> is a link into the device tree, ending in .../infiniband/<dev>.
TEST_F(SimLayoutVsKernel, TheClassEntryIsALinkIntoTheDeviceTree)
{
    const std::pair<fs::path, std::string> entries[] = {
        {kRxeSysfs, kRxe}, {dir_ / "node/sys/class/infiniband/mlx5_0", "mlx5_0"}};
    for (const auto& [entry, name] : entries) {
        ASSERT_TRUE(fs::is_symlink(entry)) << entry;
        const auto target = fs::read_symlink(entry);
        EXPECT_TRUE(target.is_relative()) << target;
        EXPECT_EQ(target.filename(), name);
        EXPECT_EQ(target.parent_path().filename(), "infiniband") << target;
        EXPECT_EQ(*target.begin(), "..") << target;
    }
}

} // namespace
