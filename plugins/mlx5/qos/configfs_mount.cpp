#include "qos/configfs_mount.hpp"

#include <sys/mount.h>
#include <sys/vfs.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace nicd::mlx5 {

namespace {
constexpr const char* kConfigfs = "/sys/kernel/config";
constexpr long kConfigfsMagic = 0x62656570; // CONFIGFS_MAGIC
} // namespace

pv1::Status mountConfigfsIfMissing() noexcept
{
    struct statfs st {};
    if (::statfs(kConfigfs, &st) != 0) {
        int err = errno;
        return pv1::Status::fail(pv1::Errc::NotSupported,
                                 std::string(kConfigfs) + ": " + std::strerror(err), err);
    }
    if (static_cast<long>(st.f_type) == kConfigfsMagic)
        return pv1::Status::ok();
    if (::mount("configfs", kConfigfs, "configfs", 0, nullptr) != 0) {
        int err = errno;
        return pv1::Status::fail(
            err == EPERM ? pv1::Errc::PermissionDenied : pv1::Errc::Io,
            std::string("mount configfs on ") + kConfigfs + ": " + std::strerror(err), err);
    }
    return pv1::Status::ok();
}

} // namespace nicd::mlx5
