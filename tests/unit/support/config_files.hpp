// The configuration files of a test: a directory with nicd.conf and nicd.conf.d/, loaded as the
// daemon loads them, and helpers that say what the load found.
#pragma once

#include "config/config.hpp"
#include "support/temp_dir.hpp"

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace nicd::test {

class ConfigLoad : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = makeTempDir("config");
        std::filesystem::create_directories(dir_ / "nicd.conf.d");
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string write(const std::string& rel, const std::string& text)
    {
        auto p = dir_ / rel;
        std::ofstream(p) << text;
        return p.string();
    }
    ConfigResult load() { return loadConfig(dir_ / "nicd.conf", dir_ / "nicd.conf.d"); }

    // Loads a main file holding `text`; expects exactly one error and returns its line.
    std::string onlyError(const std::string& text)
    {
        write("nicd.conf", text);
        auto r = load();
        EXPECT_FALSE(r.config);
        EXPECT_EQ(r.errors.size(), 1U) << allErrors(r);
        return r.errors.empty() ? "" : r.errors.front().format();
    }

    // Loads a main file holding `text`; expects no error and returns the configuration.
    Config loaded(const std::string& text)
    {
        write("nicd.conf", text);
        auto r = load();
        EXPECT_TRUE(r.config) << allErrors(r);
        return r.config.value_or(Config{});
    }

    std::string mainFile() const { return (dir_ / "nicd.conf").string(); }

    static std::string allErrors(const ConfigResult& r)
    {
        std::string out;
        for (const auto& e : r.errors)
            out += e.format() + "\n";
        return out;
    }

    std::filesystem::path dir_;
};

} // namespace nicd::test
