// nicd's typed D-Bus errors: io.nicd.Nicd1.Error.<Kind>, where Kind is one of InvalidArgument,
// NotFound, NotSupported, Busy, Timeout, PermissionDenied, Io, NoDevice, Failed, Internal.
#pragma once

#include <sdbus-c++/Error.h>

#include <string>

namespace nicd::dbus {

inline constexpr const char* kErrorPrefix = "io.nicd.Nicd1.Error.";

std::string errorName(const std::string& kind); // "io.nicd.Nicd1.Error.<kind>"

// "<Kind>" of an io.nicd.Nicd1.Error.<Kind>; the full name for any other error.
std::string errorKindOf(const sdbus::Error& error);

} // namespace nicd::dbus
