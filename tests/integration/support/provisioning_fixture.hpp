// The real nicd provisioning RoCE QoS on a simulated node (nicd-sim's default node in a directory
// of the test's own, support/daemon_fixture.hpp): its [provision] configuration, the simulator's
// DCB and configfs files, the QoS series of its textfile; a private bus for the tests that speak
// D-Bus.
#pragma once

#include "support/daemon_fixture.hpp"
#include "support/private_bus.hpp"

#include <chrono>
#include <memory>
#include <string>

#include <gtest/gtest.h>

namespace nicd::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class ProvisioningTest : public DaemonTest {
protected:
    std::string tempTag() const override { return "qos"; }
    void TearDown() override
    {
        nicd_.reset();
        bus_.reset();
        DaemonTest::TearDown();
    }

    void writeConfig(const std::string& provision, int verify_interval_sec = 5) const
    {
        DaemonTest::writeConfig("[provision]\nVerifyIntervalSec=" +
                                std::to_string(verify_interval_sec) + "\n" + provision);
    }
    std::string textfile() const { return textfileText(); }
    std::string dcb(const std::string& netdev) const
    {
        return readFile(root_ / "run/nicd-sim/dcb" / netdev);
    }
    std::string tos(const std::string& ibdev) const
    {
        return readFile(root_ / "sys/kernel/config/rdma_cm" / ibdev / "ports/1/default_roce_tos");
    }
    static std::string compliant(const std::string& dev, const std::string& setting, int value)
    {
        return "nicd_qos_compliant{device=\"" + dev + "\",port=\"1\",setting=\"" + setting +
               "\"} " + std::to_string(value) + "\n";
    }
    bool waitForText(const std::string& what, std::chrono::milliseconds timeout = 10s) const
    {
        return waitFor([&] { return textfile().find(what) != std::string::npos; }, timeout);
    }
    // nicd logs that the driver is not ready: `file` (a host path) still missing after 1 s
    // (the test's ReadyTimeoutSec=1).
    void expectDriverNotReadyLogged(const std::string& file) const
    {
        ASSERT_TRUE(
            waitFor([&] { return log().find("driver not ready: ") != std::string::npos; }, 10s))
            << log();
        EXPECT_NE(log().find(file + " still missing after 1 s"), std::string::npos) << log();
    }

    std::unique_ptr<PrivateBus> bus_;
};

} // namespace nicd::test
