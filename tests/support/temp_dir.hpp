// A directory for one test, removed afterwards: the one temp-dir helper of the unit and
// integration tests (tests/ is on both include paths: #include "support/temp_dir.hpp").
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace nicd::test {

// Where the directory lies. Memory: on tmpfs (/dev/shm) when there is one, for the tests that make
// a simulated node (about a thousand small files; creating them on a busy disk costs seconds).
enum class TempOn { Disk, Memory };

// <tmp>/nicd-TAG-PID-TEST, made empty: unique per process and per test.
inline std::filesystem::path makeTempDir(const std::string& tag, TempOn on = TempOn::Disk)
{
    namespace fs = std::filesystem;
    fs::path base = on == TempOn::Memory && ::access("/dev/shm", W_OK) == 0
                        ? fs::path("/dev/shm")
                        : fs::temp_directory_path();
    auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    auto dir = base / ("nicd-" + tag + "-" + std::to_string(::getpid()) + "-" +
                       (info ? info->name() : "x"));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// A fixture holding such a directory in dir_.
class TempDirTest : public ::testing::Test {
protected:
    explicit TempDirTest(std::string tag = "t", TempOn on = TempOn::Disk)
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
