// `inject rename`: the device gets a new name, as udev's rdma_rename gives it after boot
// (rdma-core's persistent naming, `rdma dev set DEV name NEW`). The kernel renames the device's
// sysfs directory and its /sys/class/infiniband link; its PCI function, netdevs and counters stay
// as they were.
#include "beneath.hpp"
#include "node_state.hpp"
#include "readiness_twins.hpp"
#include "sim.hpp"

#include <algorithm>

namespace nicd::sim {

namespace {

// Every kernel RDMA device name is made of these (DESIGN.md §7): the simulator gives no other.
bool validName(const std::string& name)
{
    return !name.empty() && name.size() < 64 &&
           std::all_of(name.begin(), name.end(), [](unsigned char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_';
           });
}

// Counter keys are "<dev>|...": those of `from` become those of `to`.
template <typename T>
void renameKeys(std::map<std::string, T>& keyed, const std::string& from, const std::string& to)
{
    std::map<std::string, T> out;
    for (auto& [key, value] : keyed)
        out[key.starts_with(from + "|") ? to + key.substr(from.size()) : key] = std::move(value);
    keyed = std::move(out);
}

} // namespace

void rename(const fs::path& root, const std::string& dev, const std::string& new_name)
{
    if (!validName(new_name))
        throw SimError("'" + new_name +
                       "' is not an RDMA device name (1 to 63 letters, digits or underscores)");
    LockedNode st(root);
    auto& d = st->device(dev);
    if (d.removed)
        throw SimError(dev + " is removed (nicd-sim inject DIR restore " + dev + ")");
    if (d.stalled) // its saved values are kept by file path: unstall first
        throw SimError(dev + " is stalled (nicd-sim inject DIR unstall " + dev + " first)");
    const auto class_dir = root / "sys/class/infiniband";
    std::error_code ec;
    if (st->devices.contains(new_name) || fs::exists(fs::symlink_status(class_dir / new_name, ec)))
        throw SimError(new_name + " is already the name of a device");
    const auto to_dir = fs::path(d.ib_dir).parent_path() / new_name;
    // At every moment one of the two names leads to the device: the new link first (dangling
    // until the directory is renamed), the old one last.
    relativeSymlink(root / to_dir, class_dir / new_name);
    renameBeneath(root, root / d.ib_dir, root / to_dir); // no link in the tree followed
    unlinkBeneath(root, class_dir / dev);
    renameVerbsDevice(root, root / to_dir, dev, new_name);

    SimDevice moved = d;
    moved.name = new_name;
    moved.ib_dir = to_dir.string();
    st->devices.erase(dev);
    st->devices[new_name] = std::move(moved);
    renameKeys(st->rates, dev, new_name);
    renameKeys(st->carry, dev, new_name);
    renameKeys(st->wrap32, dev, new_name);
    st.save();
}

} // namespace nicd::sim
