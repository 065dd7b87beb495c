#include <nicd/plugin/sdk/configfs_mount.h>

#include <sys/mount.h>
#include <sys/vfs.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace nicd::plugin::sdk {

namespace {
constexpr const char* kConfigfs = "/sys/kernel/config";
constexpr long kConfigfsMagic = 0x62656570; // CONFIGFS_MAGIC
} // namespace

v1::Status mountConfigfsIfMissing() noexcept
{
    struct statfs st {};
    if (::statfs(kConfigfs, &st) != 0) {
        int err = errno;
        return v1::Status::fail(v1::Errc::NotSupported,
                                std::string(kConfigfs) + ": " + std::strerror(err), err);
    }
    if (static_cast<long>(st.f_type) == kConfigfsMagic)
        return v1::Status::ok();
    if (::mount("configfs", kConfigfs, "configfs", 0, nullptr) != 0) {
        int err = errno;
        return v1::Status::fail(
            err == EPERM ? v1::Errc::PermissionDenied : v1::Errc::Io,
            std::string("mount configfs on ") + kConfigfs + ": " + std::strerror(err), err);
    }
    return v1::Status::ok();
}

} // namespace nicd::plugin::sdk
