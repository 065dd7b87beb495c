// A connection to the bus named on the command line (nicd --bus, nicctl --bus): "system",
// "session", or a D-Bus address such as "unix:path=/run/nicd-test/bus". Throws sdbus::Error.
#pragma once

#include <sdbus-c++/IConnection.h>

#include <memory>
#include <string>

namespace nicd::dbus {

std::unique_ptr<sdbus::IConnection> openBus(const std::string& bus);

} // namespace nicd::dbus
