#include "paths/dir_entries.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <string_view>

namespace nicd::paths {

std::vector<std::string> entriesAt(int dir)
{
    std::vector<std::string> out;
    const int listing = ::fcntl(dir, F_DUPFD_CLOEXEC, 0);
    DIR* d = listing < 0 ? nullptr : ::fdopendir(listing);
    if (d == nullptr) {
        if (listing >= 0)
            ::close(listing);
        return out;
    }
    ::rewinddir(d); // a duplicate shares the original's position
    while (const dirent* e = ::readdir(d))
        if (std::string_view(e->d_name) != "." && std::string_view(e->d_name) != "..")
            out.emplace_back(e->d_name);
    ::closedir(d);
    return out;
}

} // namespace nicd::paths
