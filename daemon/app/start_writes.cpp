#include "app/start_writes.hpp"

#include "log/log.hpp"
#include "textfile/textfile_dir.hpp"

namespace nicd::app {

privilege::WriteLimits startWrites(const HostPaths& paths, const Config& config)
{
    // Landlock binds existing directories: a textfile directory nobody made yet is made first.
    if (config.textfile.enable) {
        auto made = textfile::openTextfileDir(paths.host(config.textfile.path).parent_path());
        for (const auto& dir : made.created)
            log::info({}, "created the textfile directory {} (mode 0755)", dir.string());
        if (!made.fd)
            log::warn({}, "{}", made.fd.error().message);
    }
    return privilege::limitWrites(paths, config);
}

} // namespace nicd::app
