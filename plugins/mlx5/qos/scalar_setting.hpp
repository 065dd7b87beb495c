// One small number of a port's QoS (a ToS, a CNP's DSCP or priority): read it; when applying and
// it differs, log the change, write it (unless a dry run) and read it back. A read or write
// failure is the setting's error and the call's.
#pragma once

#include "qos/qos_context.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace nicd::mlx5 {

// nullopt: set to nothing ("unset").
using ScalarRead = std::function<pv1::Status(std::optional<uint8_t>&)>;
using ScalarWrite = std::function<pv1::Status(uint8_t)>;

pv1::QosSettingReport scalarSetting(QosCall& call, const std::string& name, uint8_t want,
                                    const ScalarRead& read, const ScalarWrite& write);

} // namespace nicd::mlx5
