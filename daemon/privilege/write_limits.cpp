#include "privilege/write_limits.hpp"

#include "log/log.hpp"
#include "paths/beneath.hpp"
#include "privilege/knob_writer.hpp"

#include <algorithm>

namespace nicd::privilege {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> g_limited_to; // set once, with the limits, before any thread starts
bool g_limited = false;

std::string listed(const std::vector<WritableDir>& dirs)
{
    std::string s;
    for (const auto& d : dirs)
        s += (s.empty() ? "" : ", ") + d.path.string() + (d.open_only ? " (open only)" : "");
    return s;
}

bool beneath(const fs::path& dir, const fs::path& top)
{
    auto d = dir.lexically_normal();
    auto t = top.lexically_normal();
    auto [end, _] = std::mismatch(t.begin(), t.end(), d.begin(), d.end());
    return end == t.end() || (std::next(end) == t.end() && end->empty()); // "top/" too
}

} // namespace

std::vector<WritableDir> writableDirs(const HostPaths& paths, const Config& config)
{
    std::vector<WritableDir> out{{paths.host(config.daemon.state_directory)}};
    if (config.textfile.enable)
        out.push_back({paths.host(config.textfile.path).parent_path()});
    // The simulator's DCB files only where no symlink leads to them: a tree is data, and a link
    // would bind the rule (and the SDK's writes, which refuse it) to a directory elsewhere.
    if (!paths.simulated()) {
        out.push_back({"/dev/infiniband", true});
        return out;
    }
    if (auto rel = paths::resolveBeneath(paths.root(), "/run/nicd-sim/dcb");
        rel && *rel == "run/nicd-sim/dcb")
        out.push_back({paths.host("/run/nicd-sim/dcb")});
    return out;
}

WriteLimits limitWrites(const HostPaths& paths, const Config& config)
{
    WriteLimits out;
    out.writable = writableDirs(paths, config);
    // Landlock binds existing directories: make ours first (a state directory outside systemd's
    // StateDirectory=; the textfile's is the caller's, app/start_writes.hpp).
    std::error_code ec;
    fs::create_directories(paths.host(config.daemon.state_directory), ec);

    auto writer = KnobWriter::start(paths.root(), paths.simulated());
    if (!writer) {
        log::error({},
                   "no knob writer ({}): nicd writes QoS knobs itself and its writes are "
                   "limited by its unit's sandbox only",
                   writer.error().message);
        return out;
    }
    const pid_t pid = (*writer)->pid();
    installKnobWriter(std::move(*writer));
    out.writer = true;
    out.landlock = restrictWritesTo(out.writable);
    if (!out.landlock.enforced) {
        log::warn({},
                  "Landlock is not in force ({}): nicd's writes are limited by its unit's "
                  "sandbox only; QoS knobs change through the knob writer (pid {})",
                  out.landlock.why_not, pid);
        return out;
    }
    g_limited = true;
    std::vector<WritableDir> bound; // those that exist: a rule each
    for (const auto& d : out.writable)
        if (std::find(out.landlock.missing.begin(), out.landlock.missing.end(), d.path) ==
            out.landlock.missing.end()) {
            bound.push_back(d);
            g_limited_to.push_back(d.path);
        }
    log::info({},
              "writes limited by Landlock (ABI {}) to {}; QoS knobs change through the knob "
              "writer (pid {})",
              out.landlock.abi, bound.empty() ? std::string("nothing") : listed(bound), pid);
    return out;
}

bool writesLimited()
{
    return g_limited;
}

bool mayWriteBeneath(const fs::path& dir)
{
    if (!g_limited)
        return true;
    return std::any_of(g_limited_to.begin(), g_limited_to.end(),
                       [&](const fs::path& top) { return beneath(dir, top); });
}

} // namespace nicd::privilege
