#include "dbus/root_caller.hpp"

#include <sdbus-c++/Error.h>
#include <sdbus-c++/Message.h>

namespace nicd::dbus {

std::optional<std::string> rootOnlyRefusal(const char* method, std::optional<uid_t> uid)
{
    if (uid == 0U)
        return std::nullopt;
    std::string who = uid ? "uid " + std::to_string(*uid) : "a caller the bus cannot name";
    return std::string(method) + " changes the node and is for root only; it was called by " + who;
}

std::optional<sdbus::Error> refuseUnlessRoot(sdbus::IObject& object, const char* method)
{
    std::optional<uid_t> uid;
    try {
        if (const auto* msg = object.getCurrentlyProcessedMessage())
            uid = msg->getCredsUid();
    } catch (const sdbus::Error&) { // the bus did not answer who the caller is: refused
    }
    if (auto why = rootOnlyRefusal(method, uid))
        return sdbus::Error(kAccessDenied, *why);
    return std::nullopt;
}

} // namespace nicd::dbus
