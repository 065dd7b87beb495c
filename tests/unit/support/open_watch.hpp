// Which files and directories were opened under some directories, from inotify's IN_OPEN events
// (inode based: an open through a /sys/class link counts too). For tests that must show that
// something is never read. Only successful opens are seen.
#pragma once

#include <sys/inotify.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

class OpenWatch {
public:
    // Watches every directory under each of `roots` (links not followed); what setting the
    // watches up opened is not reported.
    explicit OpenWatch(const std::vector<std::filesystem::path>& roots)
        : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
    {
        namespace fs = std::filesystem;
        EXPECT_GE(fd_, 0) << "inotify_init1";
        for (const auto& root : roots) {
            add(root);
            for (const auto& e : fs::recursive_directory_iterator(root))
                if (e.is_directory() && !e.is_symlink())
                    add(e.path());
        }
        (void)opened();
    }
    ~OpenWatch()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    OpenWatch(const OpenWatch&) = delete;
    OpenWatch& operator=(const OpenWatch&) = delete;

    // What was opened since the last call (a directory opened itself is its own path).
    std::vector<std::string> opened()
    {
        std::vector<std::string> out;
        alignas(inotify_event) char buf[64 * 1024];
        for (ssize_t n; (n = ::read(fd_, buf, sizeof buf)) > 0;)
            for (ssize_t off = 0; off < n;) {
                const auto* ev = reinterpret_cast<const inotify_event*>(buf + off);
                if ((ev->mask & IN_OPEN) != 0 && dirs_.contains(ev->wd))
                    out.push_back(ev->len > 0 ? (dirs_[ev->wd] / ev->name).string()
                                              : dirs_[ev->wd].string());
                off += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
            }
        return out;
    }

private:
    void add(const std::filesystem::path& dir)
    {
        int wd = ::inotify_add_watch(fd_, dir.c_str(), IN_OPEN);
        EXPECT_GE(wd, 0) << dir;
        dirs_[wd] = dir;
    }

    int fd_;
    std::map<int, std::filesystem::path> dirs_;
};

} // namespace nicd::test
