// The one fixture base of the integration tests that run the real nicd on a simulated node.
// A directory of the test's own (dir_) holds the node (root_: nicd-sim's default node unless
// nodeOptions() says otherwise), nicd's configuration file (conf_: baseConfig() and what the test
// adds with writeConfig()) and nicd's log; nicd runs once (once()) or as a daemon (start(),
// stopped at the end of the test). A fixture says what differs by overriding the hooks below.
#pragma once

#include "sim.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

namespace fs = std::filesystem;

// How often `what` occurs in `text` (log lines said once, twice, ...).
inline size_t occurrences(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// The lines of `text` that hold `what`, each with its newline: what a failure shows of a long
// textfile or log.
inline std::string linesWith(const std::string& text, const std::string& what)
{
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        end = end == std::string::npos ? text.size() : end + 1;
        std::string_view line(text.data() + start, end - start);
        if (line.find(what) != std::string_view::npos)
            out.append(line);
        start = end;
    }
    return out;
}

// The N of "nicd_cycles_total N" in a textfile's text: cycles nicd has completed; -1 when the
// text has none.
inline long cyclesIn(const std::string& textfile_text)
{
    static const std::string family = "\nnicd_cycles_total ";
    const auto at = textfile_text.find(family);
    if (at == std::string::npos)
        return -1;
    const char* first = textfile_text.data() + at + family.size();
    const char* last = textfile_text.data() + textfile_text.size();
    long n = -1;
    auto [end, ec] = std::from_chars(first, last, n);
    return ec == std::errc() && end != last && *end == '\n' ? n : -1;
}

class DaemonTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = makeTempDir(tempTag());
        root_ = dir_ / nodeDirectory();
        sim::create(root_, nodeOptions());
        prepareNode();
        conf_ = dir_ / "nicd.conf";
        writeConfig("");
    }
    void TearDown() override
    {
        nicd_.reset();
        fs::remove_all(dir_);
    }

    // The hooks. The name of the test's directory: /tmp/nicd-TAG-PID-TEST.
    virtual std::string tempTag() const { return "daemon"; }
    // The node the test runs on: nicd-sim's default unless a fixture says otherwise.
    virtual sim::CreateOptions nodeOptions() const { return {}; }
    // Where in dir_ the node lies.
    virtual fs::path nodeDirectory() const { return "node"; }
    // Changes to the simulated node before nicd starts on it.
    virtual void prepareNode() {}
    // What the configuration file says before what a test adds.
    virtual std::string baseConfig() const
    {
        return "[daemon]\nPollIntervalMs=200\nPmaIntervalMs=1000\n";
    }

    // The configuration file: baseConfig(), then `extra`.
    void writeConfig(const std::string& extra) const
    {
        std::ofstream(conf_) << baseConfig() << extra;
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
    // nicd's command line on the node: its configuration file, the plugins of `plugins`, `extra`.
    std::vector<std::string> nicdCommand(const std::vector<std::string>& extra,
                                         const std::string& plugins = NICD_BUILD_PLUGIN_DIR) const
    {
        std::vector<std::string> a{NICD_BIN,   "--root",       root_.string(),
                                   "--config", conf_.string(), "--plugin-directory",
                                   plugins};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    }
    // The same without D-Bus.
    std::vector<std::string> nicd(std::vector<std::string> extra = {},
                                  const std::string& plugins = NICD_BUILD_PLUGIN_DIR) const
    {
        extra.insert(extra.begin(), "--no-dbus");
        return nicdCommand(extra, plugins);
    }
    // nicd started as a daemon (nicdCommand(extra)), its output in log(); stopped by the fixture.
    void start(const std::vector<std::string>& extra = {"--no-dbus"})
    {
        nicd_ = std::make_unique<Process>(nicdCommand(extra), std::map<std::string, std::string>{},
                                          dir_ / "nicd.log");
    }
    std::string log() const { return test::readFile(dir_ / "nicd.log"); }
    // `nicd-sim inject NODE fault dev`, which must succeed.
    void inject(const std::string& fault, const std::string& dev) const
    {
        std::string out;
        ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), fault, dev}, out), 0) << out;
    }

    fs::path dir_, root_, conf_;
    std::unique_ptr<Process> nicd_;
};

} // namespace nicd::test
