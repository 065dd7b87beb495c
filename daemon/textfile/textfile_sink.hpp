// The textfile as the daemon publishes it: each published snapshot is written when its pace says
// so ([textfile] IntervalMs=, write_pace.hpp), atomically, into a directory opened on descriptors
// (textfile_dir.hpp: made when missing, never reached through a link its owner could swap in),
// with the counters [textfile] Counters= allows (counter_budget.hpp); a run of failed writes is
// one logged problem (write_failures.hpp). Loop thread.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "model/snapshot.hpp"
#include "textfile/counter_budget.hpp"
#include "textfile/write_failures.hpp"
#include "textfile/write_pace.hpp"

#include <cstdint>
#include <filesystem>

namespace nicd::textfile {

class TextfileSink {
public:
    // Removes the temporaries a nicd that stopped while writing left beside the textfile.
    TextfileSink(const HostPaths& paths, const Config& config);

    // A reload: the new interval and counter budget; the next snapshot is written at once. A
    // Path= outside the directories nicd may write since it started keeps the old one (logged).
    void configure(const Config& config);

    // A published snapshot, at CLOCK_MONOTONIC `now_usec`: written when due; after a failed
    // write the next one is written whatever the interval.
    void publish(const Snapshot& snap, uint64_t now_usec);
    // Written now, whatever the pace (nicd --once). True when written or [textfile] Enable=no.
    bool write(const Snapshot& snap);

    bool enabled() const { return enabled_; }
    const std::filesystem::path& path() const { return path_; } // on the host (under --root)

private:
    const HostPaths& paths_;
    bool enabled_;
    std::filesystem::path path_;
    TextfilePace pace_;
    CounterBudget counters_;
    WriteFailures failures_{"textfile"};
};

} // namespace nicd::textfile
