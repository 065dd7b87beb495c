// A directory for one test, removed afterwards.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace nicd::test {

inline std::filesystem::path makeTempDir(const std::string& tag)
{
    auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    auto dir =
        std::filesystem::temp_directory_path() /
        ("nicd-" + tag + "-" + std::to_string(::getpid()) + "-" + (info ? info->name() : "x"));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

class TempDirTest : public ::testing::Test {
protected:
    void SetUp() override { dir_ = makeTempDir("t"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path dir_;
};

} // namespace nicd::test
