// Every host path goes through here so that --root DIR relocates sysfs, /run, /etc, /var,
// configfs and the journal into a simulated tree.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace nicd {

class HostPaths {
public:
    explicit HostPaths(std::filesystem::path root = "/") : root_(std::move(root)) {}

    const std::filesystem::path& root() const { return root_; }
    bool simulated() const { return root_ != "/"; }

    // "/sys/class/infiniband" -> "<root>/sys/class/infiniband"
    std::filesystem::path host(std::string_view absolute) const
    {
        std::string_view rel = absolute;
        while (!rel.empty() && rel.front() == '/')
            rel.remove_prefix(1);
        return root_ / std::filesystem::path(rel);
    }

    std::filesystem::path sysClassInfiniband() const { return host("/sys/class/infiniband"); }
    std::filesystem::path sysClassNet() const { return host("/sys/class/net"); }

private:
    std::filesystem::path root_;
};

} // namespace nicd
