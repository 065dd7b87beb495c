// Discovery with memory: a full sysfs walk when the set of devices changes (and every
// `full_every` reads, to catch renames and re-bonding), otherwise only the port attributes that
// change at run time (state, phys_state, rate). A full walk costs ~60 file reads per device; the
// refresh reads 3 files per port, kept open from one read to the next (sdk::CounterDir).
#pragma once

#include "config/host_paths.hpp"
#include "inventory/kept_dirs.hpp"
#include "model/inventory.hpp"

#include <string>
#include <vector>

namespace nicd {

class InventoryReader {
public:
    explicit InventoryReader(HostPaths paths, unsigned full_every = 12)
        : paths_(std::move(paths)), full_every_(full_every)
    {
    }

    Inventory read();
    // The next read() walks everything (link or device events, reload).
    void invalidate() { since_full_ = full_every_; }

private:
    void refreshPortStates(); // state, phys_state and rate of every port of cached_, in place

    HostPaths paths_;
    unsigned full_every_;
    unsigned since_full_ = 0;
    bool have_ = false;
    std::vector<std::string> names_;
    Inventory cached_;
    KeptDirs port_dirs_; // ports/N of every port
};

} // namespace nicd
