#include "kernel_log/kernel_watch.hpp"

#include "kernel_log/kernel_journal.hpp"
#include "kernel_log/trusted_fields.hpp"
#include "kernel_log/user_reports.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "loop/worker.hpp"
#include "plugins/plugin_manager.hpp"
#include "text/printable.hpp"

#include <cstring>
#include <exception>
#include <utility>

namespace nicd::kernel_log {

KernelWatch::KernelWatch(HostPaths paths, std::string boot_id, std::optional<std::string> cursor)
    : paths_(std::move(paths)), boot_id_(std::move(boot_id)), cursor_(std::move(cursor))
{
}

KernelWatch::~KernelWatch() = default;

void KernelWatch::open(const JournalConfig& config)
{
    if (!config.enable)
        return;
    try {
        journal_ = std::make_unique<KernelJournal>(paths_.root(), boot_id_, cursor_);
    } catch (const std::exception& e) {
        log::warn({}, "kernel driver errors are not watched: {}", e.what());
    }
}

std::optional<std::string> KernelWatch::cursor() const
{
    if (!journal_)
        return cursor_;
    return following_ ? applied_cursor_ : journal_->cursor();
}

void KernelWatch::applied(const Findings& f)
{
    if (f.cursor)
        applied_cursor_ = f.cursor;
}

std::vector<KernelWatch::Record> KernelWatch::readRecords(size_t* entries)
{
    std::vector<Record> records;
    if (!journal_)
        return records;
    size_t n = journal_->read([&](const KernelLine& l) {
        auto origin = parseKernelOrigin(l.kernel_device, l.kernel_subsystem);
        if (!origin) {
            log::debug({},
                       "kernel line with an origin the kernel does not write ({} {}), not "
                       "judged",
                       printable(l.kernel_device), printable(l.kernel_subsystem));
            return;
        }
        if (origin->deviceLess() && isUserProgramReport(l.message))
            return;
        records.push_back({std::string(l.message), std::move(*origin)});
    });
    if (entries != nullptr)
        *entries = n;
    return records;
}

KernelFindings KernelWatch::classify(const std::vector<Record>& records,
                                     const plugins::PluginManager& plugins)
{
    Findings f;
    for (const auto& r : records) {
        KernelFinding k;
        if (plugins.classifyKernelRecord(r.view(), k.match)) {
            k.origin = r.origin;
            f.matches.push_back(std::move(k));
        }
        KernelReportFinding report;
        if (reports_.feed(r.view()) &&
            plugins.classifyKernelReport(reports_.report(), report.plugin, report.match)) {
            reports_.close();
            f.reports.push_back(std::move(report));
        }
    }
    return f;
}

KernelFindings KernelWatch::readAll(plugins::PluginManager& plugins)
{
    auto records = readRecords();
    return classify(records, plugins);
}

void KernelWatch::follow(loop::EventLoop& loop, loop::Worker& worker,
                         plugins::PluginManager& plugins, std::function<void(Findings)> found)
{
    if (!journal_)
        return;
    loop_ = &loop;
    worker_ = &worker;
    following_ = true;
    applied_cursor_ = journal_->cursor(); // where reading starts: nothing read yet
    plugins_ = &plugins;
    found_ = std::move(found);
    sd_event_source* src = nullptr;
    int r = sd_event_add_io(
        loop.get(), &src, journal_->fd(), static_cast<uint32_t>(journal_->events()),
        [](sd_event_source*, int, uint32_t, void* self) -> int {
            auto* watch = static_cast<KernelWatch*>(self);
            watch->journal_->process();
            watch->drain();
            return 0;
        },
        this);
    if (r < 0)
        log::warn({}, "kernel log not followed live: {}", std::strerror(-r));
    else
        source_ = loop::EventSource(src);
    drain(); // this boot's lines so far, or those since the saved cursor
}

// New lines (an empty batch too: it moves the cursor), classified by the plugins on the worker.
void KernelWatch::drain()
{
    size_t entries = 0;
    auto records = readRecords(&entries);
    if (entries == 0)
        return;
    worker_->submit([this, records = std::move(records), cursor = journal_->cursor()] {
        auto f = std::make_shared<Findings>(classify(records, *plugins_));
        f->cursor = cursor;
        loop_->post([this, f] { found_(std::move(*f)); });
    });
}

} // namespace nicd::kernel_log
