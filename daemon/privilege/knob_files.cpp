#include "privilege/knob_files.hpp"

#include "privilege/unique_fd.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace nicd::privilege {

namespace {

struct Failure {
    int err = 0;
    std::string message;
};

Failure failed(const std::filesystem::path& shown, int err, std::string_view why = {})
{
    if (why.empty() && err == ENOTDIR)
        why = "a link or a file is in the way (links are not followed; refused)";
    return {err, shown.string() + ": " + (why.empty() ? std::strerror(err) : std::string(why))};
}

// The directory `components` name beneath `from`, each opened without following a symlink.
int walk(int from, const std::vector<std::string>& components, size_t n, UniqueFd& out)
{
    UniqueFd at(::fcntl(from, F_DUPFD_CLOEXEC, 0));
    if (at.get() < 0)
        return errno;
    for (size_t i = 0; i < n && i < components.size(); ++i) {
        UniqueFd next(::openat(at.get(), components[i].c_str(),
                               O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next.get() < 0)
            return errno == ENOTDIR || errno == ELOOP ? ENOTDIR : errno;
        at = std::move(next);
    }
    out = std::move(at);
    return 0;
}

std::filesystem::path shownPath(const KnobRoot& root, std::string_view rel)
{
    return root.path / std::filesystem::path(rel);
}

// The directory of the target's device: rdma_cm's group, or where the device's class link
// points, beneath the root.
std::optional<Failure> deviceDir(const KnobRoot& root, const KnobTarget& t, UniqueFd& out)
{
    if (t.anchor == KnobAnchor::RdmaCm) {
        std::vector<std::string> path{"sys", "kernel", "config", "rdma_cm", t.device};
        if (int err = walk(root.fd, path, path.size(), out))
            return failed(root.path / "sys/kernel/config/rdma_cm" / t.device, err);
        return std::nullopt;
    }
    const std::string cls = t.anchor == KnobAnchor::ClassNet ? "net" : "infiniband";
    const auto link = root.path / "sys/class" / cls / t.device;
    UniqueFd class_dir;
    std::vector<std::string> class_path{"sys", "class", cls};
    if (int err = walk(root.fd, class_path, class_path.size(), class_dir))
        return failed(link.parent_path(), err);
    char buf[4096];
    ssize_t n = ::readlinkat(class_dir.get(), t.device.c_str(), buf, sizeof buf);
    if (n < 0)
        return errno == EINVAL ? failed(link, EPERM, "not a link to a device (refused)")
                               : failed(link, errno);
    std::string_view text(buf, static_cast<size_t>(n));
    auto target = classLinkTarget(t.anchor, t.device, text);
    if (!target)
        return failed(link, EPERM,
                      "links to " + std::string(text) +
                          ", not to a device directory under sys/devices (refused)");
    if (int err = walk(root.fd, *target, target->size(), out))
        return failed(link, err);
    return std::nullopt;
}

KnobReply writeKnob(const KnobRoot& root, const KnobRequest& r, const KnobTarget& t)
{
    const auto shown = shownPath(root, r.path);
    UniqueFd dev;
    if (auto f = deviceDir(root, t, dev))
        return {f->err, f->message};
    UniqueFd dir;
    if (int err = walk(dev.get(), t.beneath, t.beneath.size() - 1, dir))
        return {err, failed(shown, err).message};
    const char* name = t.beneath.back().c_str();
    struct stat before {};
    if (::fstatat(dir.get(), name, &before, AT_SYMLINK_NOFOLLOW) != 0)
        return {errno, failed(shown, errno).message};
    if (!S_ISREG(before.st_mode))
        return {EPERM, failed(shown, EPERM, "not a regular file (refused)").message};
    UniqueFd file(::openat(dir.get(), name,
                           O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (file.get() < 0)
        return {errno, failed(shown, errno).message};
    struct stat after {};
    if (::fstat(file.get(), &after) != 0 || after.st_dev != before.st_dev ||
        after.st_ino != before.st_ino)
        return {EPERM, failed(shown, EPERM, "replaced while being opened (refused)").message};
    ssize_t n = ::write(file.get(), r.value.data(), r.value.size());
    int err = errno;
    if (::close(file.release()) != 0 && n >= 0) {
        err = errno;
        n = -1;
    }
    if (n < 0)
        return {err, failed(shown, err).message};
    if (static_cast<size_t>(n) != r.value.size())
        return {EIO, failed(shown, EIO, "short write").message};
    return {};
}

// A simulated configfs: the ports of the device (from its sysfs directory) each get the file
// the kernel makes, holding what the kernel starts with.
std::optional<Failure> fillSimulatedGroup(const KnobRoot& root, const KnobTarget& t, int group)
{
    UniqueFd dev;
    KnobTarget ib{KnobKind::RdmaCmGroup, KnobAnchor::ClassInfiniband, t.device, {}};
    if (auto f = deviceDir(root, ib, dev))
        return f;
    int ports_fd = ::openat(dev.get(), "ports", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR* ports = ports_fd >= 0 ? ::fdopendir(ports_fd) : nullptr;
    if (ports == nullptr) {
        int err = errno;
        if (ports_fd >= 0)
            ::close(ports_fd);
        return failed(root.path / "sys/class/infiniband" / t.device / "ports", err);
    }
    std::vector<std::string> numbers;
    while (const dirent* e = ::readdir(ports))
        if (validPortNumber(e->d_name))
            numbers.emplace_back(e->d_name);
    ::closedir(ports);
    const auto shown = root.path / "sys/kernel/config/rdma_cm" / t.device / "ports";
    (void)::mkdirat(group, "ports", 0755);
    UniqueFd ports_dir;
    if (int err = walk(group, {"ports"}, 1, ports_dir))
        return failed(shown, err);
    for (const auto& n : numbers) {
        (void)::mkdirat(ports_dir.get(), n.c_str(), 0755);
        UniqueFd port;
        if (int err = walk(ports_dir.get(), {n}, 1, port))
            return failed(shown / n, err);
        UniqueFd file(::openat(port.get(), "default_roce_tos",
                               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
        if (file.get() < 0 && errno == EEXIST)
            continue;
        if (file.get() < 0 || ::write(file.get(), "0\n", 2) != 2)
            return failed(shown / n / "default_roce_tos", errno);
    }
    return std::nullopt;
}

KnobReply makeGroup(const KnobRoot& root, const KnobRequest& r, const KnobTarget& t)
{
    const auto shown = shownPath(root, r.path);
    UniqueFd cm;
    std::vector<std::string> path{"sys", "kernel", "config", "rdma_cm"};
    if (int err = walk(root.fd, path, path.size(), cm))
        return {err, failed(shown.parent_path(), err).message};
    if (root.simulated) { // the kernel refuses a group for a device it does not know
        UniqueFd dev;
        KnobTarget ib{KnobKind::RdmaCmGroup, KnobAnchor::ClassInfiniband, t.device, {}};
        if (auto f = deviceDir(root, ib, dev); f && f->err == ENOENT)
            return {ENODEV, failed(shown, ENODEV).message};
    }
    if (::mkdirat(cm.get(), t.device.c_str(), 0755) != 0 && errno != EEXIST)
        return {errno, failed(shown, errno).message};
    if (!root.simulated)
        return {};
    UniqueFd group;
    if (int err = walk(cm.get(), {t.device}, 1, group))
        return {err, failed(shown, err).message};
    if (auto f = fillSimulatedGroup(root, t, group.get()))
        return {f->err, f->message};
    return {};
}

} // namespace

KnobReply applyKnobRequest(const KnobRoot& root, const KnobRequest& request)
{
    auto matched = matchKnob(request.op, request.path);
    if (!matched)
        return {EPERM, shownPath(root, request.path).string() + ": " + matched.error().message +
                           " (refused)"};
    const auto& target = *matched;
    if (auto value = checkKnobValue(target.kind, request.value); !value)
        return {EINVAL, shownPath(root, request.path).string() + ": " + value.error().message +
                            " (refused)"};
    return request.op == KnobOp::MakeGroup ? makeGroup(root, request, target)
                                           : writeKnob(root, request, target);
}

} // namespace nicd::privilege
