#include "paths/beneath.hpp"

#include <fmt/format.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <deque>

namespace nicd::paths {

namespace {

constexpr int kMaxLinks = 40; // as the kernel's MAXSYMLINKS

std::deque<std::string> componentsOf(std::string_view path)
{
    std::deque<std::string> out;
    while (!path.empty()) {
        auto slash = path.find('/');
        auto part = path.substr(0, slash);
        if (!part.empty() && part != ".")
            out.emplace_back(part);
        if (slash == std::string_view::npos)
            break;
        path.remove_prefix(slash + 1);
    }
    return out;
}

std::string joined(const std::vector<std::string>& parts, const std::string& last = {})
{
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : "/") + p;
    if (!last.empty())
        out += (out.empty() ? "" : "/") + last;
    return out;
}

std::optional<std::string> linkTarget(int dir, const std::string& name)
{
    std::array<char, 4096> buf{};
    ssize_t n = ::readlinkat(dir, name.c_str(), buf.data(), buf.size());
    if (n <= 0 || static_cast<size_t>(n) >= buf.size())
        return std::nullopt;
    return std::string(buf.data(), static_cast<size_t>(n));
}

// tmpfiles' rule: a link may be followed where nobody but root could have put it there.
bool rootAlone(const struct stat& st)
{
    return st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

// The walk's state: the components resolved so far, and a descriptor for each of them that is
// an existing directory (dirs[i] is done[0..i]); past a missing one, the rest is only named.
class Walker {
public:
    Walker(int top, const WalkOptions& o) : top_(top), o_(o) {}

    Walk run(std::string_view path)
    {
        std::deque<std::string> todo = componentsOf(path);
        while (!todo.empty() && out_.ok()) {
            std::string c = std::move(todo.front());
            todo.pop_front();
            step(c, todo.empty(), todo);
        }
        if (out_.ok())
            finish();
        out_.rel = joined(done_);
        if (!out_.ok())
            out_.fd.reset();
        return std::move(out_);
    }

private:
    int here() const { return dirs_.empty() ? top_ : dirs_.back().get(); }
    bool missing() const { return missing_from_ < done_.size(); }

    void fail(int err, std::string why)
    {
        out_.err = err;
        out_.why = std::move(why) + via_;
    }

    void step(const std::string& c, bool last, std::deque<std::string>& todo)
    {
        if (c == "..") {
            if (done_.empty())
                return fail(EXDEV, "\"..\" climbs above it");
            done_.pop_back();
            if (dirs_.size() > done_.size())
                dirs_.pop_back();
            if (missing_from_ >= done_.size())
                missing_from_ = kNone;
            return;
        }
        if (missing()) {
            done_.push_back(c);
            return;
        }
        const auto shown = o_.prefix + joined(done_, c);
        struct stat st {};
        if (::fstatat(here(), c.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            const int err = errno;
            if (err == ENOENT && o_.create)
                return make(c, shown);
            if ((err == ENOENT || err == ENOTDIR) && o_.missing_ok) {
                missing_from_ = done_.size();
                done_.push_back(c);
                return;
            }
            return fail(err, shown + ": " + std::strerror(err));
        }
        if (S_ISLNK(st.st_mode) && !(last && (o_.flags & O_NOFOLLOW)))
            return follow(c, shown, st, todo);
        if (!S_ISDIR(st.st_mode)) {
            done_.push_back(c);
            if (!last && !o_.missing_ok)
                fail(ENOTDIR, shown + ": not a directory");
            if (!last)
                missing_from_ = done_.size(); // nothing is below a file
            return;
        }
        descend(c, shown,
                ::openat(here(), c.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    }

    void descend(const std::string& c, const std::string& shown, int fd)
    {
        if (fd < 0)
            return fail(errno, shown + ": " + std::strerror(errno));
        dirs_.emplace_back(fd);
        done_.push_back(c);
    }

    void make(const std::string& c, const std::string& shown)
    {
        if (::mkdirat(here(), c.c_str(), *o_.create) != 0 && errno != EEXIST)
            return fail(errno, "cannot create " + shown + ": " + std::strerror(errno));
        Fd fd(::openat(here(), c.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!fd.valid())
            return fail(errno, shown + ": " + std::strerror(errno));
        if (::fchmod(fd.get(), *o_.create) != 0) // the umask may have taken bits away
            return fail(errno, "cannot set the mode of " + shown + ": " + std::strerror(errno));
        out_.created.push_back(joined(done_, c));
        descend(c, shown, fd.release());
    }

    void follow(const std::string& c, const std::string& shown, const struct stat& link,
                std::deque<std::string>& todo)
    {
        if (o_.links == Links::Refuse)
            return fail(ELOOP, shown + " is a symlink (links are not followed here)");
        if (o_.links == Links::RootOwned) {
            struct stat dir {};
            if (::fstat(here(), &dir) != 0)
                return fail(errno, shown + ": " + std::strerror(errno));
            if (!rootAlone(dir) || link.st_uid != 0)
                return fail(EPERM,
                            fmt::format("{} is a symlink in a directory that others can write "
                                        "(directory owner uid {}, mode {:04o}; link owner "
                                        "uid {}): not followed",
                                        shown, dir.st_uid, dir.st_mode & 07777, link.st_uid));
        }
        if (++hops_ > kMaxLinks)
            return fail(ELOOP, shown + ": too many levels of symbolic links");
        auto target = linkTarget(here(), c);
        if (!target)
            return fail(EINVAL, shown + ": cannot read the symlink");
        if (target->front() == '/' && o_.links == Links::Beneath)
            return fail(EXDEV, shown + " is a symlink to the absolute path " + *target);
        via_ = " (through the symlink " + shown + " -> " + *target + ")";
        if (target->front() == '/') {
            done_.clear(); // from the top, as the kernel starts an absolute link from "/"
            dirs_.clear();
            missing_from_ = kNone;
        }
        auto parts = componentsOf(*target);
        todo.insert(todo.begin(), parts.begin(), parts.end());
    }

    void finish()
    {
        if (missing()) {
            if (!o_.missing_ok)
                fail(ENOENT, o_.prefix + joined(done_) + ": " + std::strerror(ENOENT));
            return;
        }
        const int flags = o_.flags | O_CLOEXEC;
        const bool is_dir = dirs_.size() == done_.size(); // or the top itself
        int fd = is_dir ? ::openat(here(), ".", flags)
                        : ::openat(here(), done_.back().c_str(), flags | O_NOFOLLOW);
        if (fd < 0)
            return fail(errno, (done_.empty() ? o_.prefix + "." : o_.prefix + joined(done_)) +
                                   ": " + std::strerror(errno));
        out_.fd = Fd(fd);
    }

    static constexpr size_t kNone = ~size_t{0};

    int top_;
    const WalkOptions& o_;
    size_t missing_from_ = kNone; // done_[i] for i >= this are only named, not there
    std::vector<std::string> done_;
    std::vector<Fd> dirs_;
    int hops_ = 0;
    std::string via_; // the last symlink followed, for the error message
    Walk out_;
};

} // namespace

std::optional<std::vector<std::string>> plainComponents(std::string_view rel)
{
    if (rel.empty() || rel.front() == '/')
        return std::nullopt;
    std::vector<std::string> out;
    while (true) {
        auto slash = rel.find('/');
        auto part = rel.substr(0, slash);
        if (part.empty() || part == "." || part == "..")
            return std::nullopt;
        out.emplace_back(part);
        if (slash == std::string_view::npos)
            return out;
        rel.remove_prefix(slash + 1);
    }
}

Walk walkBeneath(int top, std::string_view path, const WalkOptions& options)
{
    return Walker(top, options).run(path);
}

int openBeneath(int top, std::string_view rel, int flags, Links links)
{
    while (!rel.empty() && rel.front() == '/')
        rel.remove_prefix(1);
    if (links != Links::RootOwned) {
        const std::string name = rel.empty() ? std::string(".") : std::string(rel);
        open_how how{};
        how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
        how.resolve = RESOLVE_BENEATH | (links == Links::Refuse ? RESOLVE_NO_SYMLINKS : 0);
        for (int attempt = 0; attempt < 3; ++attempt) {
            long fd = ::syscall(SYS_openat2, top, name.c_str(), &how, sizeof how);
            if (fd >= 0)
                return static_cast<int>(fd);
            if (errno != EAGAIN) // EAGAIN: a rename raced the lookup
                break;
        }
        if (errno != ENOSYS && errno != EPERM && errno != EAGAIN)
            return -1;
    }
    WalkOptions o;
    o.links = links;
    o.flags = flags;
    auto w = walkBeneath(top, rel, o);
    if (!w.ok()) {
        errno = w.err;
        return -1;
    }
    return w.fd.release();
}

Result<std::string> resolveBeneath(const std::filesystem::path& root, std::string_view path)
{
    Fd top(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!top.valid())
        return Error{"cannot open " + root.string() + ": " + std::strerror(errno)};
    WalkOptions o;
    o.links = Links::Beneath;
    o.missing_ok = true;
    auto w = walkBeneath(top.get(), path, o);
    if (!w.ok())
        return Error{w.why};
    return w.rel;
}

} // namespace nicd::paths
