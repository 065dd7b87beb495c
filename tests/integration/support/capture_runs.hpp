// Helpers of the capture tests (header only): run nicd --once on a node, capture a node with the
// real nicd-sim, and put what nicd said in a form two runs (or a test) can compare.
#pragma once

#include "support/process.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

// nicd's configuration for the tests, in the node (a capture takes it along): verify only, so
// nicd changes nothing on the source and both runs see the same node.
inline void writeNodeConfig(const std::filesystem::path& root, const std::string& extra = {})
{
    std::filesystem::create_directories(root / "etc/nicd");
    std::ofstream(root / "etc/nicd/nicd.conf") << "[provision]\nMode=verify\n" << extra;
}

struct OnceRun {
    int rc = -1;
    std::string output;   // stdout and stderr
    std::string textfile; // nicd.prom as written
};

// `nicd --root ROOT --no-dbus --once`, with the node's own configuration (and the plugins built
// here: a tree's configuration never says where plugins are).
inline OnceRun once(const std::filesystem::path& root)
{
    OnceRun r;
    r.rc = run({NICD_BIN, "--root", root.string(), "--plugin-directory", NICD_BUILD_PLUGIN_DIR,
                "--no-dbus", "--once"},
               r.output);
    r.textfile = readFile(root / "var/lib/prometheus/node-exporter/nicd.prom");
    return r;
}

// `nicd-sim capture CAP --root SRC ARGS...`; the exit status, its output in `out`.
inline int captureNode(const std::filesystem::path& src, const std::filesystem::path& cap,
                       std::string& out, const std::vector<std::string>& args = {})
{
    std::vector<std::string> argv{NICD_SIM_BIN, "capture", cap.string(), "--root", src.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, out);
}

inline int sim(const std::vector<std::string>& args, std::string& out)
{
    std::vector<std::string> argv{NICD_SIM_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, out);
}

// The series of a textfile: "name{labels}" -> value, for every sample line. Left out, because
// they differ between any two runs of nicd and say nothing about the node:
//   nicd_last_cycle_timestamp_seconds       the wall time of the cycle
//   nicd_cycle_duration_seconds             how long the cycle took
//   nicd_condition_since_timestamp_seconds  the wall time nicd first saw the condition (the
//                                           replay sees it later; the condition is compared)
// No series carries an identifier the capture scrubs (addresses, GUIDs, hostnames, serials are
// not textfile labels), so none is left out for that.
inline std::map<std::string, std::string> textfileSeries(const std::string& text)
{
    static const std::set<std::string> kTimes = {"nicd_last_cycle_timestamp_seconds",
                                                 "nicd_cycle_duration_seconds",
                                                 "nicd_condition_since_timestamp_seconds"};
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line.front() == '#')
            continue;
        auto space = line.rfind(' ');
        auto series = line.substr(0, space);
        if (kTimes.contains(series.substr(0, series.find('{'))))
            continue;
        out[series] = line.substr(space + 1);
    }
    return out;
}

// "device port code severity action" of every active condition in a textfile's text.
inline std::set<std::string> activeConditions(const std::string& text)
{
    std::set<std::string> out;
    static const std::regex re(R"re(nicd_condition_active\{device="([^"]*)",port="([0-9]+)",)re"
                               R"re(code="([^"]+)",severity="([a-z]+)",action="([a-z_]+)"\} 1)re");
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
        out.insert((*it)[1].str() + " " + (*it)[2].str() + " " + (*it)[3].str() + " " +
                   (*it)[4].str() + " " + (*it)[5].str());
    return out;
}

// The verdicts of nicd --once's report: from the device table to the QoS block, the node's
// root replaced by ROOT (the two runs read different directories), the cycle's timing left out.
inline std::string onceVerdicts(const std::string& output, const std::filesystem::path& root)
{
    std::string out;
    bool in_report = false;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("DEVICE "))
            in_report = true;
        if (!in_report || line.starts_with("cycle ") || line.starts_with("textfile: "))
            continue;
        for (auto r : {std::filesystem::absolute(root).string(), root.string()})
            for (size_t p = line.find(r); p != std::string::npos; p = line.find(r))
                line.replace(p, r.size(), "ROOT");
        out += line + "\n";
    }
    return out;
}

// Series present in one map and not the other, or with another value: one line each.
inline std::string seriesDiff(const std::map<std::string, std::string>& want,
                              const std::map<std::string, std::string>& got)
{
    std::string out;
    for (const auto& [k, v] : want)
        if (auto it = got.find(k); it == got.end())
            out += "  missing " + k + " " + v + "\n";
        else if (it->second != v)
            out += "  " + k + ": " + v + " became " + it->second + "\n";
    for (const auto& [k, v] : got)
        if (!want.contains(k))
            out += "  extra " + k + " " + v + "\n";
    return out;
}

} // namespace nicd::test
