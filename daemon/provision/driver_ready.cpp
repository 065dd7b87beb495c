#include "provision/driver_ready.hpp"

namespace nicd::provision {

std::vector<std::filesystem::path> driverReadyFiles(const ProvisionConfig& config,
                                                    const HostPaths& paths,
                                                    const std::vector<std::string>& plugin_files)
{
    const auto& f = config.driver_ready_file;
    std::vector<std::filesystem::path> out;
    if (!f || *f == "auto") {
        for (const auto& name : plugin_files) {
            auto file = paths.host(name);
            std::error_code ec;
            if (std::filesystem::is_directory(file.parent_path(), ec))
                out.push_back(std::move(file));
        }
    } else if (!f->empty()) {
        out.push_back(paths.host(*f));
    }
    return out;
}

} // namespace nicd::provision
