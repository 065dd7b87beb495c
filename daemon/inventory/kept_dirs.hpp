// Directories of attribute files kept open from one pass over the inventory to the next (port
// and netdev state, read every cycle): a pass uses the ones it needs, opening those it has not
// seen, and finishing it closes the ones it did not use (a port or netdev that went away).
#pragma once

#include <nicd/plugin/sdk/counter_dir.h>

#include <map>
#include <memory>
#include <string>

namespace nicd::inventory {

class KeptDirs {
public:
    // `path_check_every`: see plugin::sdk::CounterDir (1 for directories that can be renamed
    // under their path, as netdevs are).
    explicit KeptDirs(unsigned path_check_every = plugin::sdk::CounterDir::kPathCheckEvery)
        : path_check_every_(path_check_every)
    {
    }

    // The directory at `path`, kept from an earlier pass or opened now; the same one for the
    // rest of the pass.
    plugin::sdk::CounterDir& use(const std::string& path);
    // `path` was used in this pass already (an inventory can name a netdev twice).
    bool used(const std::string& path) const;
    // Ends the pass: closes every directory it did not use.
    void finish();
    // The next pass looks every path up again (names may have changed).
    void checkPathsNext();

private:
    struct Entry {
        std::unique_ptr<plugin::sdk::CounterDir> dir;
        bool used = false;
    };
    std::map<std::string, Entry> dirs_;
    unsigned path_check_every_;
};

} // namespace nicd::inventory
