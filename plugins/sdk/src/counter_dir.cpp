#include <nicd/plugin/counter_dir.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <vector>

namespace nicd::plugin::sdk {

std::optional<uint64_t> parseCounterValue(std::string_view t)
{
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
        t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
        t.remove_suffix(1);
    if (t.empty())
        return std::nullopt;
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size())
        return std::nullopt;
    return v;
}

int forEachFile(const std::string& dir, const std::function<bool(std::string_view)>& skip,
                const std::function<void(std::string_view, std::string_view, int)>& fn)
{
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return errno;
    DIR* d = ::fdopendir(dfd);
    if (d == nullptr) {
        int err = errno;
        ::close(dfd);
        return err;
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        names.emplace_back(e->d_name);
    }
    std::sort(names.begin(), names.end());
    char buf[256];
    for (const auto& name : names) {
        if (skip && skip(name))
            continue;
        int fd = ::openat(dfd, name.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            fn(name, {}, errno);
            continue;
        }
        ssize_t n;
        do {
            n = ::read(fd, buf, sizeof buf);
        } while (n < 0 && errno == EINTR);
        int err = n < 0 ? errno : 0;
        ::close(fd);
        if (err != 0)
            fn(name, {}, err);
        else
            fn(name, std::string_view(buf, static_cast<size_t>(n)), 0);
    }
    ::closedir(d); // closes dfd
    return 0;
}

} // namespace nicd::plugin::sdk
