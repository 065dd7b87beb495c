// The real nicd on a simulated node (nicd-sim's default node in a directory of the test's own),
// with a configuration file the test writes, its textfile, and its command line.
#pragma once

#include "sim.hpp"
#include "support/process.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

namespace fs = std::filesystem;

class DaemonTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = fs::temp_directory_path() /
               ("nicd-daemon-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        root_ = dir_ / "node";
        sim::create(root_, nodeOptions());
        conf_ = dir_ / "nicd.conf";
        writeConfig("");
    }
    void TearDown() override { fs::remove_all(dir_); }
    // The node the test runs on: nicd-sim's default unless a fixture says otherwise.
    virtual sim::CreateOptions nodeOptions() const { return {}; }

    void writeConfig(const std::string& extra)
    {
        std::ofstream(conf_) << "[daemon]\nPollIntervalMs=200\nPmaIntervalMs=1000\n" << extra;
    }
    fs::path textfile() const { return root_ / "var/lib/prometheus/node-exporter/nicd.prom"; }
    std::string textfileText() const { return test::readFile(textfile()); }
    // `nicd --once` on the node, as an operator runs it: what it prints.
    std::string once() const
    {
        std::string out;
        test::run(nicd({"--once"}), out);
        return out;
    }
    // Whether the textfile shows `text` within `limit`.
    bool textfileShows(const std::string& text, std::chrono::milliseconds limit) const
    {
        return test::waitFor(
            [&] { return test::readFile(textfile()).find(text) != std::string::npos; }, limit);
    }
    std::vector<std::string> nicd(std::vector<std::string> extra) const
    {
        std::vector<std::string> a{NICD_BIN,
                                   "--root",
                                   root_.string(),
                                   "--config",
                                   conf_.string(),
                                   "--plugin-directory",
                                   NICD_BUILD_PLUGIN_DIR,
                                   "--no-dbus"};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    }

    fs::path dir_, root_, conf_;
};

} // namespace nicd::test
