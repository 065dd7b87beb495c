// Kernel driver errors, from the journal into health. New lines are read on the loop (their
// cursor goes to the state file) with the device journald's trusted fields say each is about
// (trusted_fields.hpp); a line whose origin the kernel would not write, and the kernel's reports
// about user programs, go no further. The plugins classify single lines, and multi-line reports
// through the window the daemon runs over them (report_window.hpp), on the worker, in order (a
// report spans batches); what they found comes back to the loop to be judged against the
// inventory.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "kernel_log/report_window.hpp"
#include "loop/event_loop.hpp"
#include "model/inventory.hpp"
#include "model/kernel_finding.hpp"
#include "model/kernel_origin.hpp"

#include <nicd/plugin/plugin.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nicd::loop {
class Worker;
}
namespace nicd::plugins {
class PluginManager;
}

namespace nicd::kernel_log {

class KernelJournal;

class KernelWatch {
public:
    using Findings = KernelFindings;

    // `cursor`: where the last run stopped in this boot (nullopt: the boot's beginning).
    KernelWatch(HostPaths paths, std::string boot_id, std::optional<std::string> cursor);
    ~KernelWatch();
    KernelWatch(const KernelWatch&) = delete;
    KernelWatch& operator=(const KernelWatch&) = delete;

    // Opens the journal unless [journal] Enable=no; a journal that cannot be opened is logged
    // and not watched (the daemon carries on).
    void open(const JournalConfig& config);

    // --once: every new line, classified here and now.
    Findings readAll(plugins::PluginManager& plugins);
    // The daemon: follows the journal on `loop`, classifies on `worker`, and calls `found` on
    // the loop with what each batch of new lines held (in order; an empty batch too: it moves
    // the cursor). Reads what is new at once.
    void follow(loop::EventLoop& loop, loop::Worker& worker, plugins::PluginManager& plugins,
                std::function<void(Findings)> found);
    // The daemon judged `f` (its lines count as read in the state file from now on).
    void applied(const Findings& f);

    // Where judging stopped (persist it with the health state it led to): --once, the journal's
    // cursor; following, the cursor of the last batch applied(), so that a line read but not
    // yet judged when the state is saved is read again after a restart, not lost; the one given
    // when closed.
    std::optional<std::string> cursor() const;

    // A kernel line and where it came from, as read.
    struct Record {
        std::string message;
        KernelOrigin origin;
        plugin::v1::KernelRecord view() const { return {message, origin.subsystem, origin.device}; }
    };

private:
    // The new entries' records worth judging; `entries`: how many entries were read.
    std::vector<Record> readRecords(size_t* entries = nullptr);
    // Classifies `records` (single lines and the reports they continue); worker thread.
    Findings classify(const std::vector<Record>& records, const plugins::PluginManager& plugins);
    void drain();

    HostPaths paths_;
    std::string boot_id_;
    std::optional<std::string> cursor_;
    std::optional<std::string> applied_cursor_; // following: of the last batch judged
    bool following_ = false;
    std::unique_ptr<KernelJournal> journal_;
    KernelReportWindow reports_; // worker thread: batches are classified in order
    loop::EventSource source_;
    loop::EventLoop* loop_ = nullptr;
    loop::Worker* worker_ = nullptr;
    plugins::PluginManager* plugins_ = nullptr;
    std::function<void(Findings)> found_;
};

} // namespace nicd::kernel_log
