#include "dbus/bus_errors.hpp"

#include "log/log.hpp"
#include "text/printable.hpp"

#include <exception>
#include <new>

namespace nicd::dbus {

std::string errorKindOf(plugin::v1::Errc code)
{
    using plugin::v1::Errc;
    switch (code) {
    case Errc::Ok:
        return "Ok";
    case Errc::NotSupported:
        return "NotSupported";
    case Errc::InvalidArgument:
        return "InvalidArgument";
    case Errc::NoDevice:
        return "NoDevice";
    case Errc::Busy:
        return "Busy";
    case Errc::Timeout:
        return "Timeout";
    case Errc::PermissionDenied:
        return "PermissionDenied";
    case Errc::Io:
        return "Io";
    case Errc::Internal:
        return "Internal";
    }
    return "Failed";
}

sdbus::Error currentExceptionAsError(const char* method)
{
    try {
        throw;
    } catch (const sdbus::Error& e) {
        return e;
    } catch (const MethodFailure& e) {
        return sdbus::Error(errorName(e.kind()), printable(e.what()));
    } catch (const std::invalid_argument& e) {
        return sdbus::Error(errorName("InvalidArgument"), printable(e.what()));
    } catch (const std::bad_alloc&) {
        return sdbus::Error(errorName("Internal"), std::string(method) + ": out of memory");
    } catch (const std::exception& e) {
        log::error({}, "D-Bus {}: {}", method, e.what());
        return sdbus::Error(errorName("Internal"),
                            std::string(method) + ": " + printable(e.what()));
    } catch (...) {
        log::error({}, "D-Bus {}: unknown exception", method);
        return sdbus::Error(errorName("Internal"), std::string(method) + ": unknown exception");
    }
}

} // namespace nicd::dbus
