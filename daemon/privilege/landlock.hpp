// Landlock (Linux 5.13 and later): the process restricts its own writes, for good, to the
// directories it names; it, its threads started later and its children can then create, write,
// truncate, rename, link or remove nothing elsewhere (nor mount anything), whatever their uid
// or capabilities. Reads, execution, ioctls and sockets are left as they were: the unit
// restricts those. Call it while the process has one thread (Landlock binds the calling thread
// and the threads and processes it starts from then on).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nicd::privilege {

struct WritableDir {
    std::filesystem::path path;
    // Only existing files may be opened for writing (device nodes): nothing made or removed.
    bool open_only = false;
};

struct LandlockResult {
    int abi = 0; // the kernel's Landlock ABI version; 0: none
    bool enforced = false;
    std::string why_not;                        // when not enforced
    std::vector<std::filesystem::path> missing; // named, absent: no rule, nothing written there
};

// The access rights a write needs that Landlock ABI `abi` knows (0 when it knows none).
uint64_t writeAccessFor(int abi);

LandlockResult restrictWritesTo(const std::vector<WritableDir>& dirs);

} // namespace nicd::privilege
