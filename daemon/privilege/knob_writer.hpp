// nicd's knob writer: a child forked at start, while nicd is one thread and before it restricts
// its own writes (write_limits.hpp), that changes the knobs of knob_shapes.hpp for the daemon
// and nothing else (knob_files.hpp). It keeps the rights the daemon had when forked (the
// unit's), serves one request at a time from its end of a socket pair, and exits when the
// daemon's end closes or the daemon dies. The daemon's side is thread-safe: one request and its
// reply at a time. A writer that has gone is not started again (nicd, restricted, could not
// give a new one more than it has): knob changes fail, saying so, until nicd restarts.
#pragma once

#include "privilege/knob_protocol.hpp"
#include "text/result.hpp"

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

namespace nicd::privilege {

class KnobWriter {
public:
    // Forks the writer for `root`; an Error ("fork: <strerror>") when it cannot.
    static Result<std::unique_ptr<KnobWriter>> start(const std::filesystem::path& root,
                                                     bool simulated);
    ~KnobWriter(); // the writer sees its socket close, exits, and is reaped
    KnobWriter(const KnobWriter&) = delete;
    KnobWriter& operator=(const KnobWriter&) = delete;

    KnobReply submit(const KnobRequest& request);
    pid_t pid() const { return pid_; }
    const std::filesystem::path& root() const { return root_; }

private:
    KnobWriter(int sock, pid_t pid, std::filesystem::path root)
        : sock_(sock), pid_(pid), root_(std::move(root))
    {
    }
    KnobReply gone(int err);

    std::mutex mutex_;
    int sock_;
    pid_t pid_;
    std::filesystem::path root_;
    bool gone_ = false;
};

// The process's writer, installed once at start, before any thread runs; kept until the
// process exits (a call left behind on a wedged driver may still be in submit()).
void installKnobWriter(std::unique_ptr<KnobWriter> writer);
const KnobWriter* installedKnobWriter();

// A knob change for a plugin: through the installed writer when it serves `root`, else carried
// out in this process with the same checks (tests; no writer, and then no write limits either).
KnobReply changeKnob(const std::filesystem::path& root, bool simulated, const KnobRequest& request);

} // namespace nicd::privilege
