// [daemon] IgnoreDevices=: the RDMA devices nicd never reads, by name, shell glob (fnmatch) over
// the name, or PCI address. Pure; the words come from the configuration parser, PCI addresses
// already in the full form (0000:3b:00.0).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::inventory {

class IgnoreList {
public:
    IgnoreList() = default;
    explicit IgnoreList(const std::vector<std::string>& words);

    bool empty() const { return names_.empty() && pci_addresses_.empty(); }
    // Whether a device's PCI address must be looked up to know whether it is ignored.
    bool hasPciAddresses() const { return !pci_addresses_.empty(); }
    // The word that ignores the device `ibdev` at `pci_address` (empty: unknown or none), or
    // nullopt when none does.
    std::optional<std::string> matchName(std::string_view ibdev) const;
    std::optional<std::string> matchPciAddress(std::string_view pci_address) const;

    bool operator==(const IgnoreList&) const = default;

private:
    std::vector<std::string> names_; // names and globs
    std::vector<std::string> pci_addresses_;
};

} // namespace nicd::inventory
