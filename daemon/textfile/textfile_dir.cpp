#include "textfile/textfile_dir.hpp"

#include "paths/beneath.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

namespace nicd::textfile {

TextfileDir openTextfileDir(const std::filesystem::path& dir)
{
    if (!dir.is_absolute())
        return {
            {},
            Error{"cannot use the textfile directory " + dir.string() + ": not an absolute path"}};
    paths::Fd slash(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!slash.valid())
        return {{}, Error{std::string("cannot open /: ") + std::strerror(errno)}};
    paths::WalkOptions o;
    o.links = paths::Links::RootOwned;
    o.flags = O_RDONLY | O_DIRECTORY;
    o.create = 0755;
    o.prefix = "/";
    auto w = paths::walkBeneath(slash.get(), dir.lexically_normal().string(), o);
    std::vector<std::filesystem::path> created;
    for (const auto& made : w.created)
        created.push_back(std::filesystem::path("/") / made);
    if (!w.ok())
        return {std::move(created),
                Error{"cannot use the textfile directory " + dir.string() + ": " + w.why}};
    return {std::move(created), std::move(w.fd)};
}

} // namespace nicd::textfile
