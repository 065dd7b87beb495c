#include "inventory/inventory_reader.hpp"

#include "inventory/sysfs_inventory.hpp"
#include "log/log.hpp"

#include <dirent.h>

#include <algorithm>
#include <chrono>

namespace nicd {

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
    for (auto& d : cached_.devices)
        for (auto& p : d.ports) {
            clearPortLinkState(p); // what cannot be read is absent
            port_dirs_.use(d.sysfs_path + "/ports/" + std::to_string(p.num))
                .forEach([](std::string_view name) { return !isPortLinkAttribute(name); },
                         [&p](std::string_view name, std::string_view text, int err) {
                             if (err == 0)
                                 setPortLinkAttribute(p, name, text);
                         });
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

Inventory InventoryReader::read()
{
    auto names = deviceNames(paths_.sysClassInfiniband());
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    const bool due = ++since_full_ >= full_every_ && now - last_full_sec_ >= full_every_sec_;
    if (!have_ || names != names_ || invalidated_ || due) {
        cached_ = discoverInventory(paths_, ignore_);
        sayIgnored();
        names_ = std::move(names);
        since_full_ = 0;
        last_full_sec_ = now;
        invalidated_ = false;
        have_ = true;
        return cached_;
    }
    refreshPortStates();
    return cached_;
}

} // namespace nicd
