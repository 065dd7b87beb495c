// Directories of attribute files kept open from one pass over the inventory to the next (port
// and netdev state, read every cycle): a pass uses the ones it needs, opening those it has not
// seen, and finishing it closes the ones it did not use (a port or netdev that went away).
#pragma once

#include <nicd/plugin/counter_dir.h>

#include <map>
#include <memory>
#include <string>

namespace nicd {

class KeptDirs {
public:
    // The directory at `path`, kept from an earlier pass or opened now; the same one for the
    // rest of the pass.
    plugin::sdk::CounterDir& use(const std::string& path);
    // `path` was used in this pass already (an inventory can name a netdev twice).
    bool used(const std::string& path) const;
    // Ends the pass: closes every directory it did not use.
    void finish();

private:
    struct Entry {
        std::unique_ptr<plugin::sdk::CounterDir> dir;
        bool used = false;
    };
    std::map<std::string, Entry> dirs_;
};

} // namespace nicd
