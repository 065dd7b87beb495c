// The deliberately broken plugins of tests/plugins, as the build put them: one directory a case.
#pragma once

#include <filesystem>
#include <string>

namespace nicd::test {

inline std::filesystem::path testPluginDir(const std::string& test_case)
{
    return std::filesystem::path(NICD_TEST_PLUGIN_DIR) / test_case;
}

} // namespace nicd::test
