// Helpers for the nicd-sim tests: reading files and taking a snapshot of a whole tree, so a test
// can say exactly which files a fault changed.
#pragma once

#include "support/temp_dir.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace nicd::test {

// A directory for one test on tmpfs (a simulated node is about a thousand small files).
class SimDirTest : public TempDirTest {
protected:
    SimDirTest() : TempDirTest("sim", TempOn::Memory) {}
};

inline std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The names of the entries of `dir` (not recursive).
inline std::set<std::string> namesIn(const std::filesystem::path& dir)
{
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        out.insert(e.path().filename().string());
    return out;
}

// path relative to `dir` -> content (regular files), "-> target" (symlinks), "fifo" (FIFOs).
using TreeSnapshot = std::map<std::string, std::string>;

inline TreeSnapshot snapshotTree(const std::filesystem::path& dir)
{
    namespace fs = std::filesystem;
    TreeSnapshot out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        auto rel = e.path().lexically_relative(dir).string();
        if (e.is_symlink())
            out[rel] = "-> " + fs::read_symlink(e.path()).string();
        else if (e.is_fifo())
            out[rel] = "fifo";
        else if (e.is_regular_file())
            out[rel] = readFile(e.path());
    }
    return out;
}

// The paths whose entry differs (added, removed or changed).
inline std::set<std::string> changedPaths(const TreeSnapshot& a, const TreeSnapshot& b)
{
    std::set<std::string> out;
    for (const auto& [p, v] : a)
        if (auto it = b.find(p); it == b.end() || it->second != v)
            out.insert(p);
    for (const auto& [p, v] : b)
        if (!a.contains(p))
            out.insert(p);
    return out;
}

} // namespace nicd::test
