#include "textfile/textfile_dir.hpp"

#include "paths/beneath.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

namespace nicd {

TextfileDir openTextfileDir(const std::filesystem::path& dir)
{
    TextfileDir out;
    if (!dir.is_absolute()) {
        out.error = "cannot use the textfile directory " + dir.string() + ": not an absolute path";
        return out;
    }
    paths::Fd slash(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!slash.valid()) {
        out.error = std::string("cannot open /: ") + std::strerror(errno);
        return out;
    }
    paths::WalkOptions o;
    o.links = paths::Links::RootOwned;
    o.flags = O_RDONLY | O_DIRECTORY;
    o.create = 0755;
    o.prefix = "/";
    auto w = paths::walkBeneath(slash.get(), dir.lexically_normal().string(), o);
    for (const auto& made : w.created)
        out.created.push_back(std::filesystem::path("/") / made);
    if (!w.ok()) {
        out.error = "cannot use the textfile directory " + dir.string() + ": " + w.why;
        return out;
    }
    out.fd = std::move(w.fd);
    return out;
}

} // namespace nicd
