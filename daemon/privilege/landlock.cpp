#include "privilege/landlock.hpp"

#include "privilege/unique_fd.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

// Debian 12's headers know ABI 2; these came later.
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) // ABI 3
#endif

namespace nicd::privilege {

namespace {

constexpr uint64_t kMakeOrRemove =
    LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
    LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |
    LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;

std::string unavailable(int err)
{
    switch (err) {
    case ENOSYS:
        return "the kernel has no Landlock (Linux 5.13 or later, CONFIG_SECURITY_LANDLOCK)";
    case EOPNOTSUPP:
        return "Landlock is built into the kernel but not enabled (add landlock to the lsm= "
               "boot parameter)";
    case EPERM:
        return "landlock_create_ruleset is not permitted (a system call filter forbids it?)";
    default:
        return std::string("landlock_create_ruleset: ") + std::strerror(err);
    }
}

} // namespace

uint64_t writeAccessFor(int abi)
{
    if (abi < 1)
        return 0;
    uint64_t access = LANDLOCK_ACCESS_FS_WRITE_FILE | kMakeOrRemove;
    if (abi >= 2)
        access |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        access |= LANDLOCK_ACCESS_FS_TRUNCATE;
    return access;
}

LandlockResult restrictWritesTo(const std::vector<WritableDir>& dirs)
{
    LandlockResult out;
    long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        out.why_not = unavailable(errno);
        return out;
    }
    out.abi = static_cast<int>(abi);
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = writeAccessFor(out.abi);
    UniqueFd ruleset(
        static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0)));
    if (ruleset.get() < 0) {
        out.why_not = unavailable(errno);
        return out;
    }
    for (const auto& d : dirs) {
        UniqueFd dir(::open(d.path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (dir.get() < 0) {
            out.missing.push_back(d.path);
            continue;
        }
        landlock_path_beneath_attr rule{};
        rule.allowed_access =
            d.open_only ? uint64_t{LANDLOCK_ACCESS_FS_WRITE_FILE} : attr.handled_access_fs;
        rule.parent_fd = dir.get();
        if (::syscall(SYS_landlock_add_rule, ruleset.get(), LANDLOCK_RULE_PATH_BENEATH, &rule, 0) !=
            0) {
            out.why_not = "landlock_add_rule " + d.path.string() + ": " + std::strerror(errno);
            return out;
        }
    }
    // Required unless the process has CAP_SYS_ADMIN; the unit sets it anyway (NoNewPrivileges=).
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        out.why_not = std::string("PR_SET_NO_NEW_PRIVS: ") + std::strerror(errno);
        return out;
    }
    if (::syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0) {
        out.why_not = std::string("landlock_restrict_self: ") + std::strerror(errno);
        return out;
    }
    out.enforced = true;
    return out;
}

} // namespace nicd::privilege
