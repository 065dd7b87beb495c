#include <nicd/plugin/sdk/dcb_errors.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace nicd::plugin::sdk {

namespace {

std::string errnoName(int err)
{
    const char* name = ::strerrorname_np(err);
    return name ? name : "errno " + std::to_string(err);
}

v1::Errc codeOf(int err)
{
    switch (err) {
    case EOPNOTSUPP:
        return v1::Errc::NotSupported;
    case EPERM:
    case EACCES:
        return v1::Errc::PermissionDenied;
    case ENODEV:
        return v1::Errc::NoDevice;
    case EINVAL:
    case ERANGE:
        return v1::Errc::InvalidArgument;
    case EBUSY:
        return v1::Errc::Busy;
    case ETIMEDOUT:
        return v1::Errc::Timeout;
    default:
        return v1::Errc::Io;
    }
}

} // namespace

v1::Status dcbFailure(std::string_view netdev, std::string_view op, int err, bool in_band)
{
    std::string head = "netdev " + std::string(netdev) + ": ";
    std::string tail = " (" + errnoName(err) + ")";
    std::string what;
    if (err == EOPNOTSUPP && !in_band)
        what = "DCB not supported by driver";
    else if (err == EPERM && !in_band)
        what = std::string(op) + " needs CAP_NET_ADMIN";
    else if (err == ENODEV && !in_band)
        what = "no such network interface";
    else if (in_band)
        what = std::string(op) + " refused by the driver: " + std::strerror(err);
    else
        what = std::string(op) + " failed: " + std::strerror(err);
    return v1::Status::fail(codeOf(err), head + what + tail, err);
}

v1::Status badNetdevName(std::string_view netdev)
{
    return v1::Status::fail(v1::Errc::InvalidArgument,
                            "netdev " + std::string(netdev) + ": not a valid interface name");
}

} // namespace nicd::plugin::sdk
