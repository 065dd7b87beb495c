// Discovery with memory: a full sysfs walk when the set of devices changes, after link events
// (invalidate()), and now and then to catch what no event announces under --root (a simulated
// node's re-bonding, its firmware changed in place): every `full_every` reads and `full_every_sec`
// seconds, whichever comes later (so 60 s at the default 5 s poll, 30 s at a 1 s one). Otherwise
// only the port attributes that change at run time (state, phys_state, rate). A full walk costs
// ~60 file reads per device; the refresh reads 3 files per port, kept open from one read to the
// next (sdk::CounterDir).
#pragma once

#include "config/host_paths.hpp"
#include "inventory/ignore_list.hpp"
#include "inventory/kept_dirs.hpp"
#include "model/inventory.hpp"

#include <set>
#include <string>
#include <vector>

namespace nicd::inventory {

class InventoryReader {
public:
    explicit InventoryReader(HostPaths paths, unsigned full_every = 12, double full_every_sec = 30)
        : paths_(std::move(paths)), full_every_(full_every), full_every_sec_(full_every_sec)
    {
    }

    Inventory read();
    // The next read() walks everything (link or device events, reload).
    void invalidate() { invalidated_ = true; }
    // [daemon] IgnoreDevices= (at start and on reload): the devices it names are left out from
    // the next read() on, each said once in the log. True when the list changed.
    bool setIgnore(IgnoreList ignore);

private:
    void refreshPortStates(); // state, phys_state and rate of every port of cached_, in place
    void sayIgnored();        // logs the devices newly ignored by the last full walk
    std::vector<std::string> listedAndWalked(std::vector<std::string> listed);

    HostPaths paths_;
    unsigned full_every_;
    double full_every_sec_;
    unsigned since_full_ = 0;
    double last_full_sec_ = 0; // CLOCK_MONOTONIC of the last full walk
    bool invalidated_ = false;
    bool have_ = false;
    std::vector<std::string> names_;
    std::vector<std::string> unfound_; // listed, but not found by the last full walk
    Inventory cached_;
    KeptDirs port_dirs_; // ports/N of every port
    IgnoreList ignore_;
    std::set<std::string> said_ignored_; // ignored devices already logged
};

} // namespace nicd::inventory
