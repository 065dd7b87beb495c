#include "inventory/gpu_scan.hpp"

#include "inventory/sysfs_values.hpp"

#include <algorithm>
#include <filesystem>

namespace nicd::inventory {

namespace fs = std::filesystem;

bool isNvidiaGpu(std::string_view vendor, std::string_view pci_class)
{
    return vendor == "0x10de" &&
           (pci_class.starts_with("0x0300") || pci_class.starts_with("0x0302"));
}

std::vector<GpuFunction> readGpus(const HostPaths& paths, const std::vector<std::string>& skip)
{
    std::vector<GpuFunction> out;
    std::error_code ec;
    const auto dir = paths.host("/sys/bus/pci/devices");
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto& link = it->path();
        if (std::find(skip.begin(), skip.end(), link.filename().string()) != skip.end())
            continue;
        auto vendor = sysfs::readValue(link / "vendor");
        if (!vendor || *vendor != "0x10de") // most functions stop here, after one read
            continue;
        auto cls = sysfs::readValue(link / "class");
        if (!cls || !isNvidiaGpu(*vendor, *cls))
            continue;
        std::error_code ec2;
        auto real = fs::canonical(link, ec2);
        if (ec2)
            continue;
        GpuFunction g;
        g.pci_address = link.filename().string();
        g.pci_path = real.string();
        if (auto numa = sysfs::parseInt(sysfs::readValue(link / "numa_node").value_or(""));
            numa && *numa >= 0)
            g.numa_node = *numa;
        g.device_id = sysfs::readValue(link / "device").value_or("");
        g.virtual_function = fs::is_symlink(link / "physfn", ec2);
        out.push_back(std::move(g));
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.pci_address < b.pci_address; });
    return out;
}

} // namespace nicd::inventory
