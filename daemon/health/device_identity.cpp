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

std::set<std::string> lagFunctions(const Inventory& inv)
{
    std::set<std::string> out;
    for (const auto& d : inv.devices)
        if (d.function == DeviceFunction::Lag)
            out.insert(d.bond_functions.begin(), d.bond_functions.end());
    return out;
}

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
    if (!have_last_ || inv.devices.size() != last_.size() ||
        lagFunctions(inv) != last_lag_functions_)
        return false;
    for (size_t i = 0; i < inv.devices.size(); ++i) {
        const auto& d = inv.devices[i];
        if (d.ibdev != last_[i].first || d.pci_address != last_[i].second ||
            !sameHardware(d, last_hardware_[i]))
            return false;
    }
    return true;
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

bool KnownDevices::movedCard(const KnownDevice& k, const Inventory& inv) const
{
    const auto* hw = k.earlier_boot ? hardware(k.pci_address) : nullptr;
    return hw && !hw->node_guid.empty() &&
           std::any_of(inv.devices.begin(), inv.devices.end(),
                       [&](const Device& d) { return d.node_guid == hw->node_guid; });
}

std::vector<KnownDevice> KnownDevices::findMissing(const Inventory& inv) const
{
    std::set<std::string> addresses = lagFunctions(inv), names;
    for (const auto& d : inv.devices) {
        addresses.insert(d.pci_address);
        names.insert(d.ibdev);
    }
    std::vector<KnownDevice> out;
    for (const auto& k : devices_)
        if (!k.vf &&
            !(k.pci_address.empty() ? names.contains(k.name) : addresses.contains(k.pci_address)) &&
            !movedCard(k, inv))
            out.push_back(k);
    return out;
}

void KnownDevices::forget(const std::vector<IgnoredDevice>& ignored)
{
    if (ignored.empty())
        return;
    auto erased = std::erase_if(devices_, [&](const KnownDevice& k) {
        bool gone = std::any_of(ignored.begin(), ignored.end(), [&](const IgnoredDevice& ig) {
            return k.pci_address.empty() ? k.name == ig.ibdev : k.pci_address == ig.pci_address;
        });
        if (gone)
            hardware_.erase(k.pci_address);
        return gone;
    });
    if (erased > 0)
        have_last_ = false; // what is missing changed
}

const DeviceHardware* KnownDevices::hardware(const std::string& pci_address) const
{
    auto it = hardware_.find(pci_address);
    return it == hardware_.end() ? nullptr : &it->second;
}

std::vector<KnownDevice> KnownDevices::forgetMissing(const std::string& device,
                                                     const Inventory& inv)
{
    std::vector<KnownDevice> out;
    for (const auto& k : findMissing(inv))
        if (device.empty() || k.name == device ||
            (!k.pci_address.empty() && k.pci_address == device))
            out.push_back(k);
    std::erase_if(devices_, [&](const KnownDevice& k) {
        return std::find(out.begin(), out.end(), k) != out.end();
    });
    for (const auto& k : out)
        if (!k.pci_address.empty())
            hardware_.erase(k.pci_address);
    if (!out.empty())
        have_last_ = false;
    return out;
}

std::vector<HardwareChange> KnownDevices::update(const Inventory& inv)
{
    if (sameAsLastUpdate(inv))
        return {};
    const auto on = ownAddresses(inv);
    const auto lag = lagFunctions(inv);
    std::set<std::string> addresses, names;
    std::vector<KnownDevice> next;
    std::vector<HardwareChange> changes;
    next.reserve(devices_.size() + inv.devices.size());
    for (const auto& d : inv.devices) {
        addresses.insert(d.pci_address);
        names.insert(d.ibdev);
        bool vf = d.function == DeviceFunction::VirtualFunction;
        bool own = on.contains(d.pci_address);
        next.push_back({own ? d.pci_address : std::string(), d.ibdev, vf});
        if (!own || vf)
            continue;
        auto now = hardwareOf(d);
        if (auto it = hardware_.find(d.pci_address); it != hardware_.end()) {
            auto k = std::find_if(devices_.begin(), devices_.end(), [&](const KnownDevice& x) {
                return x.pci_address == d.pci_address;
            });
            bool across_boot = k != devices_.end() && k->earlier_boot;
            for (auto& c : hardwareChanges(d.pci_address, it->second, now, across_boot))
                changes.push_back(std::move(c));
            it->second = std::move(now);
        } else {
            hardware_.emplace(d.pci_address, std::move(now));
        }
    }
    // Known before and not in `inv`: kept (missing, or present as a LAG's PF), except VFs. One
    // known by name only whose
    // name `inv` has is that device, known by its address from now on when it has one of its own
    // (the names-only list of an earlier nicd, or an address unreadable until now).
    for (const auto& k : devices_) {
        bool here =
            k.pci_address.empty() ? names.contains(k.name) : addresses.contains(k.pci_address);
        if (here || k.vf || movedCard(k, inv))
            continue;
        next.push_back(k);
        if (lag.contains(k.pci_address))
            next.back().earlier_boot = false; // seen this boot, in a LAG: present
    }
    std::sort(next.begin(), next.end(), byAddressThenName);
    devices_ = std::move(next);
    std::erase_if(hardware_, [&](const auto& entry) { // VFs that are gone, devices now shared
        return !std::any_of(devices_.begin(), devices_.end(), [&](const KnownDevice& k) {
            return !k.vf && k.pci_address == entry.first;
        });
    });
    last_.clear();
    last_hardware_.clear();
    last_lag_functions_ = lag;
    for (const auto& d : inv.devices) {
        last_.emplace_back(d.ibdev, d.pci_address);
        last_hardware_.push_back(hardwareOf(d));
    }
    have_last_ = true;
    last_missing_ = findMissing(inv);
    return changes;
}

nlohmann::json KnownDevices::toJson() const
{
    auto out = nlohmann::json::array();
    for (const auto& k : devices_) {
        nlohmann::json e{{"pci_address", k.pci_address},
                         {"name", k.name},
                         {"vf", k.vf},
                         {"earlier_boot", k.earlier_boot}};
        if (const auto* h = hardware(k.pci_address); h && !k.vf)
            addHardwareJson(e, *h);
        out.push_back(std::move(e));
    }
    return out;
}

KnownDevices KnownDevices::fromJson(const nlohmann::json& j)
{
    KnownDevices r;
    for (const auto& e : j.get<nlohmann::json::array_t>()) {
        if (e.is_string()) { // nicd before identity by hardware: names only
            r.devices_.push_back({"", e.get<std::string>(), false});
            continue;
        }
        KnownDevice k{e.at("pci_address").get<std::string>(), e.at("name").get<std::string>(),
                      e.at("vf").get<bool>(), e.value("earlier_boot", false)};
        if (!k.pci_address.empty() && !k.vf && e.contains("last_name"))
            r.hardware_[k.pci_address] = hardwareFromJson(e);
        r.devices_.push_back(std::move(k));
    }
    std::sort(r.devices_.begin(), r.devices_.end(), byAddressThenName);
    return r;
}

KnownDevices KnownDevices::fromEarlierBoot(const nlohmann::json& j)
{
    auto r = fromJson(j);
    std::erase_if(r.devices_, [](const KnownDevice& k) { return k.vf || k.pci_address.empty(); });
    std::erase_if(r.hardware_, [&](const auto& entry) {
        return std::none_of(r.devices_.begin(), r.devices_.end(),
                            [&](const KnownDevice& k) { return k.pci_address == entry.first; });
    });
    for (auto& k : r.devices_)
        k.earlier_boot = true;
    return r;
}

} // namespace nicd::health
