// Who runs on a root: nicd takes an exclusive flock(2) on <root>/run/nicd/nicd.lock, the daemon
// for its lifetime and nicd --once for its one cycle, so that a second nicd on the same root
// (a --once beside a running daemon, a daemon started twice) does not rewrite the first one's
// state, textfile and QoS. The file holds the holder's pid, for the message. The lock goes with
// the process (a kill -9 included); the knob writer does not inherit it (it closes every other
// descriptor). Taken in main before the writes are limited: /run/nicd is not among them.
//
// Beside it, <root>/run/nicd/heartbeat: the wall-clock time (whole seconds, one line) at which
// the daemon last finished a cycle, rewritten in place after each one. It is the liveness source
// of the DaemonSet's probe (deploy/image/nicd-liveness): only nicd writes there (root's 0755
// directory), where the textfile's directory is node_exporter's group's to write.
#pragma once

#include "config/host_paths.hpp"
#include "paths/fd.hpp"

#include <string>

namespace nicd::app {

class RunLock {
public:
    enum class Outcome {
        Held,       // this process holds it
        HeldByPeer, // another nicd holds it: `holder()` says which
        Unavailable // the run directory or the file could not be made or opened: `why()`
    };

    // Tries once; never waits.
    static RunLock take(const HostPaths& paths);

    Outcome outcome() const { return outcome_; }
    // "pid 1234" of the process that holds it (HeldByPeer; "another process" when the file names
    // none).
    const std::string& holder() const { return holder_; }
    const std::string& why() const { return why_; }
    const std::string& path() const { return path_; }

    // Rewrites the heartbeat with `realtime_seconds`; nothing when it could not be opened.
    void beat(double realtime_seconds) const;

private:
    paths::Fd fd_;
    paths::Fd heartbeat_;
    Outcome outcome_ = Outcome::Unavailable;
    std::string holder_;
    std::string why_;
    std::string path_;
};

} // namespace nicd::app
