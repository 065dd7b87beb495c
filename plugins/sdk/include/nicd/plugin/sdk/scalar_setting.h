// One small number of a port's QoS (a ToS, a CNP's DSCP or priority): read it; when applying and
// it differs, log the change, write it (unless a dry run) and read it back. A read or write
// failure is the setting's error and the call's.
#pragma once

#include <nicd/plugin/sdk/qos_call.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace nicd::plugin::sdk {

// nullopt: set to nothing ("unset").
using ScalarRead = std::function<v1::Status(std::optional<uint8_t>&)>;
using ScalarWrite = std::function<v1::Status(uint8_t)>;

v1::QosSettingReport scalarSetting(QosCall& call, const std::string& name, uint8_t want,
                                   const ScalarRead& read, const ScalarWrite& write);

} // namespace nicd::plugin::sdk
