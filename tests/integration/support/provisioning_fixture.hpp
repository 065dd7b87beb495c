// The real nicd provisioning RoCE QoS on a simulated node (nicd-sim's default node in a directory
// of the test's own): its configuration, command line, log, textfile and the simulator's DCB and
// configfs files; a private bus for the tests that speak D-Bus.
#pragma once

#include "sim.hpp"
#include "support/private_bus.hpp"
#include "support/process.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class ProvisioningTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = fs::temp_directory_path() / ("nicd-qos-" + std::to_string(getpid()) + "-" + name);
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        root_ = dir_ / "node";
        sim::create(root_, {});
    }
    void TearDown() override
    {
        nicd_.reset();
        bus_.reset();
        fs::remove_all(dir_);
    }

    void writeConfig(const std::string& provision, int verify_interval_sec = 5)
    {
        std::ofstream(dir_ / "nicd.conf")
            << "[daemon]\nPollIntervalMs=200\nPmaIntervalMs=1000\n"
            << "[provision]\nVerifyIntervalSec=" << verify_interval_sec << "\n"
            << provision;
    }
    std::vector<std::string> nicd(std::vector<std::string> extra) const
    {
        std::vector<std::string> a{
            NICD_BIN,       "--plugin-directory", NICD_BUILD_PLUGIN_DIR,        "--root",
            root_.string(), "--config",           (dir_ / "nicd.conf").string()};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    }
    void start(std::vector<std::string> extra = {"--no-dbus"})
    {
        nicd_ = std::make_unique<Process>(nicd(extra), std::map<std::string, std::string>{},
                                          dir_ / "nicd.log");
    }
    std::string log() const { return readFile(dir_ / "nicd.log"); }
    std::string textfile() const
    {
        return readFile(root_ / "var/lib/prometheus/node-exporter/nicd.prom");
    }
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

    fs::path dir_, root_;
    std::unique_ptr<PrivateBus> bus_;
    std::unique_ptr<Process> nicd_;
};

} // namespace nicd::test
