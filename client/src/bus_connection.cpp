#include <nicd/client/bus_connection.hpp>

namespace nicd::dbus {

std::unique_ptr<sdbus::IConnection> openBus(const std::string& bus)
{
    if (bus == "system")
        return sdbus::createSystemBusConnection();
    if (bus == "session")
        return sdbus::createSessionBusConnection();
    return sdbus::createSessionBusConnectionWithAddress(bus);
}

} // namespace nicd::dbus
