// What the daemon knows about one plugin it tried to load.
#pragma once

#include <cstdint>
#include <string>

namespace nicd {

enum class PluginState : uint8_t {
    Failed,   // could not be loaded: dlopen, missing symbol, ABI or descriptor mismatch
    Disabled, // loaded, but create() or init() failed; the daemon runs on without it
    Running,  // loaded and initialised
    Degraded, // running, but its last polls failed
};

struct PluginStatus {
    std::string name; // from the descriptor, or the file name when the descriptor was unusable
    std::string file; // full path of the .so
    std::string version;
    uint32_t abi_major = 0;
    uint32_t abi_minor = 0;
    PluginState state = PluginState::Failed;
    std::string last_error; // precise reason, empty when none
    uint64_t consecutive_failures = 0;
    uint32_t devices = 0; // devices it has claimed
};

const char* toString(PluginState state);

} // namespace nicd
