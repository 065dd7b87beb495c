#include "textfile/textfile_dir.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace nicd {

MadeDirectories makeDirectories(const std::filesystem::path& dir)
{
    MadeDirectories out;
    std::vector<std::filesystem::path> missing;
    for (auto p = dir.lexically_normal(); !p.empty(); p = p.parent_path()) {
        struct stat st {};
        if (::stat(p.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                out.error = "cannot create directory " + dir.string() + ": " + p.string() +
                            " exists and is not a directory";
                return out;
            }
            break;
        }
        if (errno != ENOENT) {
            out.error = "cannot create directory " + dir.string() + ": " + p.string() + ": " +
                        std::strerror(errno);
            return out;
        }
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0755) != 0 && errno != EEXIST) {
            out.error = "cannot create directory " + it->string() + ": " + std::strerror(errno);
            return out;
        }
        (void)::chmod(it->c_str(), 0755); // the umask may have taken bits away
        out.created.push_back(*it);
    }
    return out;
}

} // namespace nicd
