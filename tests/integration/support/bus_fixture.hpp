// A test fixture: a simulated node, nicd serving it on a private dbus-daemon (with the shipped
// bus policy), and the tools operators use against it (busctl, nicctl), as root or as nobody.
// The node, the configuration and nicd's process are support/daemon_fixture.hpp's: a test class
// may add config lines by overriding extraConfig(), change the node before nicd starts by
// overriding prepareNode(), and run the bus with another policy by overriding busPolicy().
#pragma once

#include "support/daemon_fixture.hpp"
#include "support/private_bus.hpp"
#include "support/process.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

class NicdOnBusTest : public DaemonTest {
protected:
    virtual std::string extraConfig() const { return {}; }
    virtual PrivateBus::Policy busPolicy() const { return PrivateBus::Policy::Shipped; }
    std::string tempTag() const override { return "dbus"; }

    void SetUp() override
    {
        using namespace std::chrono_literals;
        DaemonTest::SetUp();
        writeConfig(extraConfig());
        bus_ = std::make_unique<PrivateBus>(dir_ / "bus", busPolicy());
        start({"--bus", bus_->address()});
        ASSERT_TRUE(waitFor(
            [&] {
                return busctl({"status", "io.nicd.Nicd1"}).first == 0;
            },
            15s))
            << log();
    }
    void TearDown() override
    {
        nicd_.reset();
        bus_.reset();
        DaemonTest::TearDown();
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

    std::unique_ptr<PrivateBus> bus_;
};

} // namespace nicd::test
