#include "inventory/ignore_list.hpp"

#include "inventory/sysfs_values.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace nicd::inventory {

IgnoreList::IgnoreList(const std::vector<std::string>& words)
{
    for (const auto& w : words)
        (sysfs::isPciAddress(w) ? pci_addresses_ : names_).push_back(w);
}

std::optional<std::string> IgnoreList::matchName(std::string_view ibdev) const
{
    const std::string name(ibdev);
    for (const auto& glob : names_)
        if (::fnmatch(glob.c_str(), name.c_str(), 0) == 0)
            return glob;
    return std::nullopt;
}

std::optional<std::string> IgnoreList::matchPciAddress(std::string_view pci_address) const
{
    if (pci_address.empty())
        return std::nullopt;
    auto it = std::find(pci_addresses_.begin(), pci_addresses_.end(), pci_address);
    return it == pci_addresses_.end() ? std::nullopt : std::optional<std::string>(*it);
}

} // namespace nicd::inventory
