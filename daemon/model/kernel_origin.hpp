// The device a kernel line is about, as journald's trusted fields recorded it
// (journal/trusted_fields.hpp reads them). Names in a line's text are not an origin.
#pragma once

#include <string>

namespace nicd {

struct KernelOrigin {
    std::string subsystem; // "pci", "infiniband", "net", ...; empty: a device-less line
    std::string device;    // the device's name there ("0000:3b:00.0", "mlx5_0"); empty likewise
    bool deviceLess() const { return device.empty(); }
    bool operator==(const KernelOrigin&) const = default;
};

} // namespace nicd
