// What nicd's own process may write, settled once at start while it is one thread (main; the
// sandbox probe the same way). The knob writer is forked first and keeps the rights nicd was
// given (the unit's); then nicd restricts its own writes with Landlock to
//   - its state directory ([daemon] StateDirectory=), made first when missing, and the
//     textfile's ([textfile] Path=), which the caller makes (app/start_writes.hpp);
//   - on a simulated root, the simulator's DCB files (run/nicd-sim/dcb), which stand in for
//     rtnetlink there (Landlock restricts files, not netlink);
//   - on a real root, /dev/infiniband, only to open the verbs devices (ibv_open_device opens
//     them read-write): nothing is made or removed there.
// Nothing under /sys or configfs: QoS knobs change through the writer, which takes only their
// shapes (knob_shapes.hpp). Where Landlock is not available nicd says so once, and the unit's
// sandbox is all there is. docs/security.md says why.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "privilege/landlock.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace nicd::privilege {

// The directories nicd writes with this configuration (pure).
std::vector<WritableDir> writableDirs(const HostPaths& paths, const Config& config);

struct WriteLimits {
    bool writer = false; // QoS knobs change through the knob writer process
    LandlockResult landlock;
    std::vector<WritableDir> writable;
};

// Makes the state directory, starts the writer, restricts this process; logs what it did.
WriteLimits limitWrites(const HostPaths& paths, const Config& config);

// True once this process's writes are limited by Landlock.
bool writesLimited();

// False when this process's writes are limited and `dir` is not beneath a directory it may
// write (a reload that moves the textfile elsewhere takes effect at the next start).
bool mayWriteBeneath(const std::filesystem::path& dir);

} // namespace nicd::privilege
