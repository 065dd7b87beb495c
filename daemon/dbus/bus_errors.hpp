// Typed D-Bus errors (io.nicd.Nicd1.Error.<Kind>: nicd_client's error_names.hpp) as nicd raises
// them, and the guard every method handler runs in:
// sdbus-c++ 1.2 only catches sdbus::Error, so any other exception must be turned into one before
// it reaches sd-bus's C frames.
#pragma once

#include <nicd/client/error_names.hpp>
#include <nicd/plugin/plugin.h>

#include <sdbus-c++/Error.h>

#include <stdexcept>
#include <string>

namespace nicd::dbus {

std::string errorKindOf(plugin::v1::Errc code); // the plugin status as an error kind

// Thrown by the daemon's handlers for a failure the caller should see by kind.
class MethodFailure : public std::runtime_error {
public:
    MethodFailure(std::string kind, const std::string& message)
        : std::runtime_error(message), kind_(std::move(kind))
    {
    }
    const std::string& kind() const { return kind_; }

private:
    std::string kind_;
};

// The D-Bus error for the exception being handled (call inside a catch block).
sdbus::Error currentExceptionAsError(const char* method);

// Runs `fn`; any exception leaves as an io.nicd.Nicd1.Error.* sdbus::Error.
template <typename Fn> auto guarded(const char* method, Fn&& fn) -> decltype(fn())
{
    try {
        return fn();
    } catch (...) {
        throw currentExceptionAsError(method);
    }
}

} // namespace nicd::dbus
