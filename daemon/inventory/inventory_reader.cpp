#include "inventory/inventory_reader.hpp"

#include "inventory/sysfs_inventory.hpp"
#include "log/log.hpp"

#include <dirent.h>

#include <algorithm>
#include <chrono>

namespace nicd::inventory {

namespace {
std::vector<std::string> deviceNames(const std::filesystem::path& dir)
{
    std::vector<std::string> out;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d))
            if (e->d_name[0] != '.')
                out.emplace_back(e->d_name);
        ::closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}
} // namespace

void InventoryReader::refreshPortStates()
{
    auto refresh = [this](Port& p, const std::string& dir) {
        clearPortLinkState(p); // what cannot be read is absent
        port_dirs_.use(dir).forEach(
            [](std::string_view name) { return !isPortLinkAttribute(name); },
            [&p](std::string_view name, std::string_view text, int err) {
                if (err == 0)
                    setPortLinkAttribute(p, name, text);
            });
    };
    for (auto& d : cached_.devices) {
        for (auto& p : d.ports)
            refresh(p, d.sysfs_path + "/ports/" + std::to_string(p.num));
        // A plane's rate is its own (the SMI device beside the parent in the class directory).
        const auto cls = std::filesystem::path(d.sysfs_path).parent_path();
        for (auto& plane : d.planes)
            refresh(plane.port, (cls / plane.smi_device / "ports").string() + "/" +
                                    std::to_string(plane.port.num));
    }
    port_dirs_.finish(); // ports that went away close their files
}

bool InventoryReader::setIgnore(IgnoreList ignore)
{
    if (ignore == ignore_)
        return false;
    ignore_ = std::move(ignore);
    invalidated_ = true;
    return true;
}

void InventoryReader::sayIgnored()
{
    std::set<std::string> now;
    for (const auto& ig : cached_.ignored) {
        now.insert(ig.ibdev);
        if (!said_ignored_.contains(ig.ibdev))
            log::info({.device = ig.ibdev},
                      "{}{}: ignored (IgnoreDevices={}): nothing under it is read", ig.ibdev,
                      ig.pci_address.empty() ? "" : " at " + ig.pci_address, ig.matched);
    }
    said_ignored_ = std::move(now);
}

// The names a full walk leaves for the next read to compare with. A device listed before the walk
// but not found by it went away while the walk ran (a driver unbinding, or a reset: removed and
// back within milliseconds); taken as seen, the next listing (with it back) would match and the
// inventory would miss it until the next timed walk, holding a false device_missing for up to
// `full_every_sec`. Leaving it out makes the next read walk again. An entry the walk never finds
// (a dangling link) is left out once: if the next walk misses the same entries, they are taken as
// they are, so they do not make every read a full walk.
std::vector<std::string> InventoryReader::listedAndWalked(std::vector<std::string> listed)
{
    std::set<std::string_view> walked;
    for (const auto& d : cached_.devices) {
        walked.insert(d.ibdev);
        for (const auto& plane : d.planes) // an SMI sub-device was walked too
            walked.insert(plane.smi_device);
    }
    for (const auto& ig : cached_.ignored)
        walked.insert(ig.ibdev);
    std::vector<std::string> unfound;
    for (const auto& name : listed)
        if (!walked.contains(name))
            unfound.push_back(name);
    const bool again = !unfound.empty() && unfound != unfound_;
    unfound_ = std::move(unfound);
    if (again)
        std::erase_if(listed, [&](const std::string& n) { return !walked.contains(n); });
    return listed;
}

Inventory InventoryReader::read()
{
    auto names = deviceNames(paths_.sysClassInfiniband());
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    const bool due = ++since_full_ >= full_every_ && now - last_full_sec_ >= full_every_sec_;
    if (!have_ || names != names_ || invalidated_ || due) {
        cached_ = discoverInventory(paths_, ignore_);
        sayIgnored();
        names_ = listedAndWalked(std::move(names));
        since_full_ = 0;
        last_full_sec_ = now;
        invalidated_ = false;
        have_ = true;
        return cached_;
    }
    refreshPortStates();
    return cached_;
}

} // namespace nicd::inventory
