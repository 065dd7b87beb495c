#include "state/state_keeper.hpp"

#include "health/health_engine.hpp"
#include "kernel_log/kernel_journal.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "loop/event_loop.hpp"
#include "paths/atomic_file.hpp"
#include "state/state_store.hpp"

#include <exception>
#include <utility>

namespace nicd::state {

StateKeeper::StateKeeper(const HostPaths& paths, const std::string& state_directory,
                         health::HealthEngine& health)
    : health_(health),
      store_(std::make_unique<StateStore>(paths.host(state_directory) / "state.json")),
      boot_id_(kernel_log::readBootId(paths.host("/proc/sys/kernel/random/boot_id")))
{
}

StateKeeper::~StateKeeper() = default;

// Within one boot, nicd carries on where it stopped: counter windows, conditions, the journal
// cursor. A new boot starts from a clean baseline, remembering only the hardware it had.
void StateKeeper::restore()
{
    for (const auto& stale : paths::removeStaleTemporaries(store_->file()))
        log::info({}, "removed {}, left by a nicd that stopped while writing it", stale.string());
    auto saved = store_->load();
    if (saved && saved->boot_id == boot_id_) {
        try {
            health_.restore(saved->health);
            saved_cursor_ = saved->journal_cursor;
            log::info({}, "state restored from {}", store_->file().string());
            return;
        } catch (const std::exception& e) {
            log::error({}, "state in {} is unusable ({}); starting afresh", store_->file().string(),
                       e.what());
        }
    }
    // Whatever the saved state was (another boot's, or unusable), its event numbers are not
    // given out again: a client asking GetEvents(since) with the last number it saw gets the
    // baseline and everything after it.
    if (saved)
        health_.continueSequence(saved->health);
    // What the hardware was (a NIC of the last boot that did not come back is missing) is the
    // one thing a new boot keeps.
    health_.baseline(saved ? "new boot " + boot_id_ + " (the saved state was for boot " +
                                 saved->boot_id + ")"
                           : "no saved state in " + store_->file().string(),
                     loop::realtimeSeconds(), saved ? saved->health : nlohmann::json());
}

void StateKeeper::save(const std::optional<std::string>& journal_cursor, bool force)
{
    constexpr uint64_t kPeriodUsec = 60'000'000ULL;
    constexpr uint64_t kRetryUsec = 10'000'000ULL;
    uint64_t now = loop::EventLoop::nowMonotonicUsec();
    if (!force && failures_.failing() && now - last_attempt_usec_ < kRetryUsec)
        return;
    if (!force && !dirty_ && now - last_save_usec_ < kPeriodUsec)
        return;
    last_attempt_usec_ = now;
    // As text, part by part: the engine's memory as one JSON tree is ~10 times its text (~26 MB
    // on a 512-device node), and was the daemon's peak of memory once a minute.
    std::string health;
    health_.appendJson(health);
    if (auto saved = store_->saveText(stateText(boot_id_, journal_cursor, health)); !saved) {
        dirty_ = true; // nothing written: still due
        failures_.failed(saved.error().message, now);
        return;
    }
    dirty_ = false;
    last_save_usec_ = now;
    failures_.succeeded(store_->file().string());
}

} // namespace nicd::state
