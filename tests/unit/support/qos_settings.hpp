// A QoS report's setting by name, for plugin QoS tests: a missing setting is a test failure (and
// an empty report, so the test goes on to say what else differs).
#pragma once

#include <nicd/plugin/plugin.h>

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

namespace nicd::test {

inline const plugin::v1::QosSettingReport& settingOf(const plugin::v1::QosReport& r,
                                                     const std::string& name)
{
    auto it = std::find_if(r.settings.begin(), r.settings.end(),
                           [&](const auto& s) { return s.setting == name; });
    if (it == r.settings.end()) {
        ADD_FAILURE() << "no setting " << name;
        static const plugin::v1::QosSettingReport none;
        return none;
    }
    return *it;
}

} // namespace nicd::test
