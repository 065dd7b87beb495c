// The changing methods (Apply, Reload, ClearCondition, ForgetDevice, AcceptInventory) are root's,
// whatever the bus's policy says: the bus policy is the first guard, this is the second (a policy
// file edited, a private bus that allows everything). The caller is who the bus says it is: the uid
// the bus daemon took from the caller's socket when it connected (GetConnectionCredentials), never
// /proc.
#pragma once

#include <sdbus-c++/IObject.h>
#include <sys/types.h>

#include <optional>
#include <string>

namespace nicd::dbus {

inline constexpr const char* kAccessDenied = "org.freedesktop.DBus.Error.AccessDenied";

// Why `method` is refused to a caller of uid `uid` (nullopt: the bus could not say who called),
// or nullopt when it is root's call.
std::optional<std::string> rootOnlyRefusal(const char* method, std::optional<uid_t> uid);

// The refusal of the method `object` is handling now, as the AccessDenied error to answer with,
// or nullopt when root called it.
std::optional<sdbus::Error> refuseUnlessRoot(sdbus::IObject& object, const char* method);

} // namespace nicd::dbus
