#include "provision/driver_ready.hpp"

namespace nicd::provision {

std::optional<std::filesystem::path> driverReadyFile(const ProvisionConfig& config,
                                                     const HostPaths& paths)
{
    const auto& f = config.driver_ready_file;
    if (!f || *f == "auto") {
        auto file = paths.host(kOperatorDriverReadyFile);
        std::error_code ec;
        if (std::filesystem::is_directory(file.parent_path(), ec))
            return file;
        return std::nullopt;
    }
    if (f->empty())
        return std::nullopt;
    return paths.host(*f);
}

} // namespace nicd::provision
