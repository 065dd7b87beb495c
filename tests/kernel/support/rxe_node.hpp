// The node the kernel tests run on: a guest of tests/kernel/vm.sh made by tests/kernel/rxe_node.sh
// (rxe0, a soft-RoCE device on veth0, 192.0.2.1/24 and 2001:db8::1/64; systemd-journald). Outside
// such a guest every test skips. nicd runs as built (NICD_BIN), on the guest's real /sys, /proc,
// configfs, rtnetlink and RDMA netlink; in a time namespace whose clocks read 1000 s past boot, so
// that the first minutes' grace (health/boot_grace.hpp) is over as on a node that has run a while.
#pragma once

#include "support/process.hpp"
#include "support/temp_dir.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace nicd::test {

inline constexpr const char* kRxe = "rxe0";
inline constexpr const char* kRxeNetdev = "veth0";
inline const std::filesystem::path kRxeSysfs = "/sys/class/infiniband/rxe0";

inline bool onRxeNode()
{
    std::error_code ec;
    return std::filesystem::exists(kRxeSysfs / "ports/1/state", ec);
}

// Runs `command` with /bin/sh; its status.
inline int shell(const std::string& command, std::string* output = nullptr)
{
    std::string out;
    int rc = run({"/bin/sh", "-c", command}, out);
    if (output)
        *output = out;
    return rc;
}

// What nicd --once said: its JSON report and exit status.
struct OnceReport {
    int exit_code = -1;
    nlohmann::json json;
    std::string log;
};

class RxeNodeTest : public TempDirTest {
protected:
    RxeNodeTest() : TempDirTest("kernel") {}
    void SetUp() override
    {
        if (!onRxeNode())
            GTEST_SKIP() << "runs on a real kernel with rxe0: tests/kernel/vm.sh boots one "
                            "(ctest -L kernel)";
        TempDirTest::SetUp();
        conf_ = dir_ / "nicd.conf";
        writeConfig("");
    }

    // The configuration: the test's own state and textfile, verify only (the kernel tests never
    // provision), rxe0 a compute port (it has no PCI parent, so no GPU is near it: nicd would
    // take it for storage); then `daemon` in [daemon] and `more`.
    void writeConfig(const std::string& more, const std::string& daemon = "")
    {
        std::ofstream(conf_) << "[daemon]\nStateDirectory=" << (dir_ / "state").string() << "\n"
                             << daemon << "[textfile]\nPath=" << textfile().string() << "\n"
                             << "[provision]\nMode=verify\n[device:rxe0]\nRole=compute\n"
                             << more;
    }
    std::filesystem::path textfile() const { return dir_ / "nicd.prom"; }

    // nicd --once on the guest's own root, 1000 s after boot.
    OnceReport once()
    {
        OnceReport r;
        const auto json = dir_ / "once.json";
        r.exit_code = shell(std::string("unshare --time --fork --monotonic 1000 --boottime 1000 ") +
                                NICD_BIN + " --once --json --no-dbus --config " + conf_.string() +
                                " > " + json.string(),
                            &r.log);
        r.json = nlohmann::json::parse(readFile(json), nullptr, false);
        return r;
    }

    // The condition of `code` on rxe0 port `port` in a --once report, or null.
    static nlohmann::json conditionOf(const OnceReport& r, const std::string& code, int port = 1)
    {
        if (r.json.contains("conditions"))
            for (const auto& c : r.json["conditions"])
                if (c.value("code", "") == code && c.value("device", "") == kRxe &&
                    c.value("port", 0) == port)
                    return c;
        return nullptr;
    }

    std::filesystem::path conf_;
};

} // namespace nicd::test
