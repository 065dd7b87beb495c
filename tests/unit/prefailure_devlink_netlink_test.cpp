// devlink health against the running kernel: a dump that never hangs and, where netdevsim is
// available, live reporters whose error shows in the dump and as a notification.
#include "prefailure/devlink_health.hpp"
#include "prefailure/devlink_netlink.hpp"

#include <fcntl.h>
#include <linux/devlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

using nicd::HealthReporter;
using nicd::prefailure::DecodeError;
using nicd::prefailure::decodeReporterMessage;
using nicd::prefailure::DevlinkMonitor;
using nicd::prefailure::DevlinkNetlink;
using nicd::prefailure::parseDevlinkHealthJson;
using nicd::prefailure::pciAddressOf;

namespace {

// ---- the running kernel ----

// Runs `fn` on a detached thread; nullopt when it has not returned within `limit` (the test then
// fails instead of hanging; the thread is left behind).
template <class T, class F> std::optional<T> within(std::chrono::seconds limit, F fn)
{
    std::packaged_task<T()> task(std::move(fn));
    auto result = task.get_future();
    std::thread(std::move(task)).detach();
    if (result.wait_for(limit) != std::future_status::ready)
        return std::nullopt;
    return result.get();
}

using DumpReply = nicd::prefailure::Reply<std::vector<HealthReporter>>;

TEST(DevlinkNetlinkLive, DumpReturnsPromptlyOkOrUnsupported)
{
    auto reply = within<DumpReply>(std::chrono::seconds(10), [] {
        return DevlinkNetlink(std::chrono::milliseconds(1000)).dumpReporters();
    });
    ASSERT_TRUE(reply.has_value()) << "dumpReporters did not return within 10 s";
    EXPECT_NE(reply->status, DumpReply::Status::Failed) << reply->message;
    if (reply->status == DumpReply::Status::Unsupported)
        EXPECT_FALSE(reply->message.empty());
    else
        EXPECT_TRUE(reply->message.empty()) << reply->message;
}

TEST(DevlinkNetlinkLive, MonitorOpensOrSaysWhy)
{
    DevlinkMonitor monitor;
    if (!monitor.open()) {
        EXPECT_FALSE(monitor.error().empty());
        EXPECT_EQ(monitor.fd(), -1);
        EXPECT_TRUE(monitor.drain().empty());
        return;
    }
    EXPECT_GE(monitor.fd(), 0);
    const auto start = std::chrono::steady_clock::now();
    monitor.drain(); // nothing may be pending: it must not wait
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

// ---- netdevsim: real reporters "empty" and "dummy" (drivers/net/netdevsim/health.c) ----

const std::filesystem::path kNetdevsimBus = "/sys/bus/netdevsim";
const std::filesystem::path kNetdevsimDebugfs = "/sys/kernel/debug/netdevsim";

bool writeText(const std::filesystem::path& file, const std::string& text)
{
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

bool debugfsMounted()
{
    std::ifstream mounts("/proc/mounts");
    std::string device, point, type, rest;
    while (mounts >> device >> point >> type && std::getline(mounts, rest))
        if (type == "debugfs" && point == "/sys/kernel/debug")
            return true;
    return false;
}

// Why netdevsim cannot be used here; empty when it can.
std::string netdevsimUnavailable()
{
    if (geteuid() != 0)
        return "not root";
    if (!std::filesystem::exists(kNetdevsimBus / "new_device"))
        (void)std::system("modprobe netdevsim >/dev/null 2>&1");
    if (!std::filesystem::exists(kNetdevsimBus / "new_device"))
        return "netdevsim is not available (no " + (kNetdevsimBus / "new_device").string() +
               "; no Debian 12 kernel package builds it: CONFIG_NETDEVSIM is not set in "
               "linux-image-amd64, -cloud-amd64 or -rt-amd64)";
    if (!debugfsMounted())
        return "debugfs is not mounted on /sys/kernel/debug";
    return {};
}

// One netdevsim device with one port, deleted again at scope exit.
class NetdevsimDevice {
public:
    explicit NetdevsimDevice(unsigned id)
        : id_(id), created_(writeText(kNetdevsimBus / "new_device", std::to_string(id) + " 1"))
    {
    }
    ~NetdevsimDevice()
    {
        if (created_)
            writeText(kNetdevsimBus / "del_device", std::to_string(id_));
    }
    NetdevsimDevice(const NetdevsimDevice&) = delete;
    NetdevsimDevice& operator=(const NetdevsimDevice&) = delete;

    bool created() const { return created_; }
    std::string handle() const { return "netdevsim/netdevsim" + std::to_string(id_); }
    std::filesystem::path health() const
    {
        return kNetdevsimDebugfs / ("netdevsim" + std::to_string(id_)) / "health";
    }

private:
    unsigned id_;
    bool created_;
};

std::optional<HealthReporter> findReporter(const std::vector<HealthReporter>& all,
                                           const std::string& handle, const std::string& name)
{
    for (const auto& r : all)
        if (r.handle == handle && r.name == name)
            return r;
    return std::nullopt;
}

// Dumps until `handle` has reporter `name` (the device registers asynchronously) or 5 s pass.
std::optional<HealthReporter> dumpUntilFound(const std::string& handle, const std::string& name)
{
    DevlinkNetlink nl(std::chrono::milliseconds(2000));
    for (int i = 0; i < 50; ++i) {
        auto reply = nl.dumpReporters();
        EXPECT_TRUE(reply.ok()) << reply.message;
        if (auto r = findReporter(reply.value, handle, name))
            return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return std::nullopt;
}

// Waits up to 5 s for a notification about `name` on `handle` with at least `errors` errors.
std::optional<HealthReporter> awaitNotification(DevlinkMonitor& monitor, const std::string& handle,
                                                const std::string& name, uint64_t errors)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd pfd{monitor.fd(), POLLIN, 0};
        if (::poll(&pfd, 1, 200) <= 0)
            continue;
        for (const auto& r : monitor.drain())
            if (r.handle == handle && r.name == name && r.errors >= errors)
                return r;
        EXPECT_TRUE(monitor.error().empty()) << monitor.error();
    }
    return std::nullopt;
}

TEST(DevlinkNetlinkLive, NetdevsimReporterErrorShowsInDumpAndNotification)
{
    if (auto why = netdevsimUnavailable(); !why.empty())
        GTEST_SKIP() << why;
    NetdevsimDevice dev(4000 + static_cast<unsigned>(getpid() % 4000));
    ASSERT_TRUE(dev.created()) << "writing " << (kNetdevsimBus / "new_device");

    const auto empty = dumpUntilFound(dev.handle(), "empty");
    ASSERT_TRUE(empty.has_value()) << "no reporter 'empty' on " << dev.handle();
    const auto dummy =
        findReporter(DevlinkNetlink(std::chrono::milliseconds(2000)).dumpReporters().value,
                     dev.handle(), "dummy");
    ASSERT_TRUE(dummy.has_value());
    EXPECT_EQ(*dummy, (HealthReporter{dev.handle(), "dummy", true, "healthy", 0, 0}));
    if (!std::filesystem::exists(dev.health() / "break_health"))
        GTEST_SKIP() << "no " << (dev.health() / "break_health") << " in debugfs";

    DevlinkMonitor monitor;
    ASSERT_TRUE(monitor.open()) << monitor.error();
    // With recovery made to fail the report leaves the reporter in error (the write itself then
    // fails, which is expected).
    ASSERT_TRUE(writeText(dev.health() / "fail_recover", "y"));
    writeText(dev.health() / "break_health", "nicd test");

    const auto seen = awaitNotification(monitor, dev.handle(), "dummy", 1);
    ASSERT_TRUE(seen.has_value()) << "no DEVLINK_CMD_HEALTH_REPORTER_RECOVER notification";
    EXPECT_FALSE(seen->healthy);
    EXPECT_EQ(seen->state, "error");
    EXPECT_EQ(seen->errors, 1u);

    const auto after =
        findReporter(DevlinkNetlink(std::chrono::milliseconds(2000)).dumpReporters().value,
                     dev.handle(), "dummy");
    ASSERT_TRUE(after.has_value());
    EXPECT_EQ(*after, (HealthReporter{dev.handle(), "dummy", false, "error", 1, 0}));
}

} // namespace
