#include "journal/kernel_watch.hpp"

#include "health/health_engine.hpp"
#include "journal/kernel_journal.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "loop/worker.hpp"
#include "plugins/plugin_manager.hpp"

#include <cstring>
#include <exception>
#include <utility>

namespace nicd {

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

std::vector<std::string> KernelWatch::readLines()
{
    std::vector<std::string> lines;
    if (!journal_)
        return lines;
    journal_->read([&](const KernelLine& l) { lines.emplace_back(l.message); });
    return lines;
}

std::vector<std::string> KernelWatch::feedLockups(const std::vector<std::string>& lines)
{
    std::vector<std::string> found;
    for (const auto& l : lines)
        if (auto hit = lockups_.feed(l))
            found.push_back(*hit);
    return found;
}

KernelWatch::Findings KernelWatch::classify(const std::vector<std::string>& lines,
                                            const PluginManager& plugins)
{
    Findings f;
    for (const auto& line : lines) {
        plugin::v1::KernelLineMatch m;
        if (plugins.classifyKernelLine(line, m))
            f.matches.push_back(std::move(m));
    }
    return f;
}

KernelWatch::Findings KernelWatch::readAll(PluginManager& plugins)
{
    auto lines = readLines();
    auto f = classify(lines, plugins);
    f.lockups = feedLockups(lines);
    return f;
}

void KernelWatch::follow(EventLoop& loop, Worker& worker, PluginManager& plugins,
                         std::function<void(Findings)> found)
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
        source_ = EventSource(src);
    drain(); // this boot's lines so far, or those since the saved cursor
}

// New lines: soft lockups are recognised here, single lines by the plugins on the worker.
void KernelWatch::drain()
{
    auto lines = readLines();
    if (lines.empty())
        return;
    auto lockups = feedLockups(lines);
    worker_->submit([this, lines = std::move(lines), lockups = std::move(lockups),
                     cursor = journal_->cursor()] {
        auto f = std::make_shared<Findings>(classify(lines, *plugins_));
        f->lockups = lockups;
        f->cursor = cursor;
        loop_->post([this, f] { found_(std::move(*f)); });
    });
}

void KernelWatch::apply(const Findings& f, const Inventory& inventory, health::HealthEngine& health)
{
    for (const auto& m : f.matches)
        health.kernelLine(m, inventory, monotonicSeconds(), realtimeSeconds());
    for (const auto& evidence : f.lockups)
        health.driverSoftLockup(evidence, inventory, realtimeSeconds());
}

} // namespace nicd
