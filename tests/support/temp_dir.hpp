// A directory for one test, removed afterwards: the one temp-dir helper of the unit and
// integration tests (tests/ is on both include paths: #include "support/temp_dir.hpp").
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace nicd::test {

// Where the directory lies. Memory, the default: on tmpfs (/dev/shm) when there is one. A test
// makes thousands of small files (a simulated node, a capture, a state directory) and replaces
// them atomically; on a journalled disk that was most of the test suite's system time (the
// profile matrix's HGX A100 took 18 s, 14 of them in the kernel; 5.6 s on tmpfs). Disk: for a
// test that needs a real disk's behaviour.
enum class TempOn { Disk, Memory };

// <tmp>/nicd-TAG-PID-TEST, made empty: unique per process and per test.
inline std::filesystem::path makeTempDir(const std::string& tag, TempOn on = TempOn::Memory)
{
    namespace fs = std::filesystem;
    fs::path base = on == TempOn::Memory && ::access("/dev/shm", W_OK) == 0
                        ? fs::path("/dev/shm")
                        : fs::temp_directory_path();
    auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string test = info ? info->name() : "x";
    // A long test name is cut and told apart by a hash: a socket made in the directory (a private
    // bus's, an lldpd's) must stay within sun_path's 108 bytes.
    if (test.size() > 32) {
        char hash[9];
        std::snprintf(hash, sizeof hash, "%08zx", std::hash<std::string>{}(test)&0xffffffffU);
        test = test.substr(0, 23) + "-" + hash;
    }
    auto dir = base / ("nicd-" + tag + "-" + std::to_string(::getpid()) + "-" + test);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// A fixture holding such a directory in dir_.
class TempDirTest : public ::testing::Test {
protected:
    explicit TempDirTest(std::string tag = "t", TempOn on = TempOn::Memory)
        : tag_(std::move(tag)), on_(on)
    {
    }
    void SetUp() override { dir_ = makeTempDir(tag_, on_); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path dir_;

private:
    std::string tag_;
    TempOn on_;
};

} // namespace nicd::test
