#include "health/device_identity.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace nicd::health {

namespace {

// Each PCI address of `inv` that exactly one device has, with that device.
std::map<std::string, const Device*> ownAddresses(const Inventory& inv)
{
    std::map<std::string, const Device*> on;
    std::set<std::string> shared;
    for (const auto& d : inv.devices)
        if (!d.pci_address.empty() && !on.emplace(d.pci_address, &d).second)
            shared.insert(d.pci_address);
    for (const auto& a : shared)
        on.erase(a);
    return on;
}

bool byAddressThenName(const KnownDevice& a, const KnownDevice& b)
{
    return std::tie(a.pci_address, a.name) < std::tie(b.pci_address, b.name);
}

} // namespace

std::vector<DeviceRename> findRenames(const std::vector<KnownDevice>& known, const Inventory& now)
{
    const auto on = ownAddresses(now);
    std::set<std::string> addresses; // every address of `now`, shared ones too
    for (const auto& d : now.devices)
        addresses.insert(d.pci_address);
    std::vector<DeviceRename> out;
    std::set<std::string> froms, tos;
    auto add = [&](DeviceRename r) {
        if (froms.insert(r.from).second && tos.insert(r.to).second)
            out.push_back(std::move(r));
    };
    for (const auto& k : known) {
        if (k.pci_address.empty() || k.name.empty())
            continue; // known by name: a name is all there is to follow
        if (auto it = on.find(k.pci_address); it != on.end()) {
            if (it->second->ibdev != k.name)
                add({k.name, it->second->ibdev, k.pci_address, false});
        } else if (!addresses.contains(k.pci_address) && !k.vf && now.find(k.name) != nullptr &&
                   now.find(k.pci_address) == nullptr) {
            add({k.name, k.pci_address, k.pci_address, true});
        }
    }
    std::sort(out.begin(), out.end(), [](const DeviceRename& a, const DeviceRename& b) {
        return std::tie(a.pci_address, a.from) < std::tie(b.pci_address, b.from);
    });
    return out;
}

bool KnownDevices::sameAsLastUpdate(const Inventory& inv) const
{
    return have_last_ &&
           std::equal(inv.devices.begin(), inv.devices.end(), last_.begin(), last_.end(),
                      [](const Device& d, const std::pair<std::string, std::string>& seen) {
                          return d.ibdev == seen.first && d.pci_address == seen.second;
                      });
}

std::vector<DeviceRename> KnownDevices::renames(const Inventory& now) const
{
    if (sameAsLastUpdate(now))
        return {};
    return findRenames(devices_, now);
}

void KnownDevices::rename(const std::string& from, const std::string& to)
{
    have_last_ = false;
    bool by_name = false;
    for (auto& k : devices_)
        if (k.name == from) {
            k.name = to;
            by_name = by_name || k.pci_address.empty();
        }
    if (by_name) // sorted by name among themselves
        std::sort(devices_.begin(), devices_.end(), byAddressThenName);
}

std::vector<KnownDevice> KnownDevices::missing(const Inventory& inv) const
{
    return sameAsLastUpdate(inv) ? last_missing_ : findMissing(inv);
}

std::vector<KnownDevice> KnownDevices::findMissing(const Inventory& inv) const
{
    std::set<std::string> addresses, names;
    for (const auto& d : inv.devices) {
        addresses.insert(d.pci_address);
        names.insert(d.ibdev);
    }
    std::vector<KnownDevice> out;
    for (const auto& k : devices_)
        if (!k.vf &&
            !(k.pci_address.empty() ? names.contains(k.name) : addresses.contains(k.pci_address)))
            out.push_back(k);
    return out;
}

void KnownDevices::forget(const std::vector<IgnoredDevice>& ignored)
{
    if (ignored.empty())
        return;
    auto erased = std::erase_if(devices_, [&](const KnownDevice& k) {
        return std::any_of(ignored.begin(), ignored.end(), [&](const IgnoredDevice& ig) {
            return k.pci_address.empty() ? k.name == ig.ibdev : k.pci_address == ig.pci_address;
        });
    });
    if (erased > 0)
        have_last_ = false; // what is missing changed
}

void KnownDevices::update(const Inventory& inv)
{
    if (sameAsLastUpdate(inv))
        return;
    const auto on = ownAddresses(inv);
    std::set<std::string> addresses, names;
    std::vector<KnownDevice> next;
    next.reserve(devices_.size() + inv.devices.size());
    for (const auto& d : inv.devices) {
        addresses.insert(d.pci_address);
        names.insert(d.ibdev);
        next.push_back({on.contains(d.pci_address) ? d.pci_address : std::string(), d.ibdev,
                        d.function == DeviceFunction::VirtualFunction});
    }
    // Known before and not in `inv`: kept (missing), except VFs. One known by name only whose
    // name `inv` has is that device, known by its address from now on when it has one of its own
    // (the names-only list of an earlier nicd, or an address unreadable until now).
    for (const auto& k : devices_) {
        bool here =
            k.pci_address.empty() ? names.contains(k.name) : addresses.contains(k.pci_address);
        if (!here && !k.vf)
            next.push_back(k);
    }
    std::sort(next.begin(), next.end(), byAddressThenName);
    devices_ = std::move(next);
    last_.clear();
    for (const auto& d : inv.devices)
        last_.emplace_back(d.ibdev, d.pci_address);
    have_last_ = true;
    last_missing_ = findMissing(inv);
}

nlohmann::json KnownDevices::toJson() const
{
    auto out = nlohmann::json::array();
    for (const auto& k : devices_)
        out.push_back({{"pci_address", k.pci_address}, {"name", k.name}, {"vf", k.vf}});
    return out;
}

KnownDevices KnownDevices::fromJson(const nlohmann::json& j)
{
    KnownDevices r;
    for (const auto& e : j.get<nlohmann::json::array_t>()) {
        if (e.is_string()) // nicd before identity by hardware: names only
            r.devices_.push_back({"", e.get<std::string>(), false});
        else
            r.devices_.push_back({e.at("pci_address").get<std::string>(),
                                  e.at("name").get<std::string>(), e.at("vf").get<bool>()});
    }
    std::sort(r.devices_.begin(), r.devices_.end(), byAddressThenName);
    return r;
}

} // namespace nicd::health
