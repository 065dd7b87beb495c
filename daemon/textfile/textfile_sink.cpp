#include "textfile/textfile_sink.hpp"

#include "log/log.hpp"
#include "loop/event_loop.hpp"
#include "paths/atomic_file.hpp"
#include "privilege/write_limits.hpp"
#include "textfile/render.hpp"
#include "textfile/textfile_dir.hpp"

namespace nicd::textfile {

TextfileSink::TextfileSink(const HostPaths& paths, const Config& config)
    : paths_(paths), enabled_(config.textfile.enable), path_(paths.host(config.textfile.path)),
      pace_(config.textfile.interval_ms), counters_(config)
{
    // In the directory as nicd writes it (a link a group member planted is refused there).
    if (!enabled_)
        return;
    if (auto dir = openTextfileDir(path_.parent_path()); dir.fd)
        for (const auto& stale : paths::removeStaleTemporariesAt(dir.fd->get(), path_))
            log::info({}, "removed {}, left by a nicd that stopped while writing it",
                      stale.string());
}

void TextfileSink::configure(const Config& config)
{
    auto path = paths_.host(config.textfile.path);
    if (config.textfile.enable && !privilege::mayWriteBeneath(path.parent_path()))
        log::warn({},
                  "[textfile] Path={} is outside the directories nicd may write since it started: "
                  "takes effect after a restart",
                  config.textfile.path);
    else {
        enabled_ = config.textfile.enable;
        path_ = std::move(path);
    }
    pace_.setInterval(config.textfile.interval_ms);
    pace_.forceNext();
    counters_ = CounterBudget(config);
}

void TextfileSink::publish(const Snapshot& snap, uint64_t now_usec)
{
    if (!pace_.due(snap, now_usec))
        return;
    pace_.written(snap, now_usec);
    if (!write(snap))
        pace_.forceNext(); // tried again after the next cycle
}

bool TextfileSink::write(const Snapshot& snap)
{
    if (!enabled_)
        return true;
    auto render = [this, &snap](const paths::ChunkWriter& write) {
        renderTextfileTo(snap, write, counters_);
    };
    // Installed before node_exporter (or pointed at a new place): the directory is made.
    auto dir = openTextfileDir(path_.parent_path());
    for (const auto& made : dir.created)
        log::info({}, "created the textfile directory {} (mode 0755)", made.string());
    auto written = dir.fd ? paths::writeFileAtomicallyAt(dir.fd->get(), path_, render,
                                                         paths::Durability::Cache, 0644)
                          : Result<void>(dir.fd.error());
    if (!written) {
        failures_.failed(written.error().message, loop::EventLoop::nowMonotonicUsec());
        return false;
    }
    failures_.succeeded(path_.string());
    return true;
}

} // namespace nicd::textfile
