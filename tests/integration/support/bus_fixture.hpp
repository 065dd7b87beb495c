// A test fixture: a simulated node, nicd serving it on a private dbus-daemon (with the shipped
// bus policy), and the tools operators use against it (busctl, nicctl), as root or as nobody.
// A test class may add config lines by overriding extraConfig(), change the node before nicd
// starts by overriding prepareNode(), and run the bus with another policy by overriding
// busPolicy().
#pragma once

#include "sim.hpp"
#include "support/private_bus.hpp"
#include "support/process.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

class NicdOnBusTest : public ::testing::Test {
protected:
    virtual std::string extraConfig() const { return {}; }
    // Changes to the simulated node before nicd starts on it.
    virtual void prepareNode() {}
    virtual PrivateBus::Policy busPolicy() const { return PrivateBus::Policy::Shipped; }

    void SetUp() override
    {
        using namespace std::chrono_literals;
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = std::filesystem::temp_directory_path() /
               ("nicd-dbus-" + std::to_string(getpid()) + "-" + name);
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        root_ = dir_ / "node";
        sim::create(root_, {});
        prepareNode();
        std::ofstream(dir_ / "nicd.conf") << "[daemon]\nPollIntervalMs=200\nPmaIntervalMs=1000\n"
                                          << extraConfig();
        bus_ = std::make_unique<PrivateBus>(dir_ / "bus", busPolicy());
        nicd_ = std::make_unique<Process>(
            std::vector<std::string>{NICD_BIN, "--root", root_.string(), "--config",
                                     (dir_ / "nicd.conf").string(), "--plugin-directory",
                                     NICD_BUILD_PLUGIN_DIR, "--bus", bus_->address()},
            std::map<std::string, std::string>{}, dir_ / "nicd.log");
        ASSERT_TRUE(waitFor(
            [&] {
                return busctl({"status", "io.nicd.Nicd1"}).first == 0;
            },
            15s))
            << readFile(dir_ / "nicd.log");
    }
    void TearDown() override
    {
        nicd_.reset();
        bus_.reset();
        std::filesystem::remove_all(dir_);
    }

    // {exit status, stdout+stderr}
    std::pair<int, std::string> runAs(bool nobody, std::vector<std::string> argv) const
    {
        if (nobody)
            argv.insert(argv.begin(),
                        {"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"});
        std::string out;
        int rc = run(argv, out, std::chrono::seconds(30));
        return {rc, out};
    }
    std::pair<int, std::string> busctl(std::vector<std::string> args, bool nobody = false) const
    {
        args.insert(args.begin(), {"busctl", "--address=" + bus_->address()});
        return runAs(nobody, args);
    }
    std::pair<int, std::string> nicctl(std::vector<std::string> args, bool nobody = false) const
    {
        args.insert(args.begin(), {NICCTL_BIN, "--bus", bus_->address()});
        return runAs(nobody, args);
    }
    std::string property(const std::string& path, const std::string& iface,
                         const std::string& name) const
    {
        return busctl({"get-property", "io.nicd.Nicd1", path, iface, name}).second;
    }

    std::filesystem::path dir_, root_;
    std::unique_ptr<PrivateBus> bus_;
    std::unique_ptr<Process> nicd_;
};

} // namespace nicd::test
