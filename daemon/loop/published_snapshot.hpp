// The last published snapshot, owned by the loop: a cycle replaces it, and every change between
// cycles (kernel findings, a link or health-reporter event, a QoS round's reports, an operator's
// clear or forget) goes through amend(): applied to it, judged, published. Stages read it through
// get() and hand back what they produced; none holds it writable. Publishes between cycles are
// paced (loop/pacer.hpp): at once unless a burst of them just went out. Loop thread.
#pragma once

#include "loop/event_loop.hpp"
#include "loop/pacer.hpp"
#include "model/snapshot.hpp"

#include <functional>
#include <optional>

namespace nicd::loop {

class PublishedSnapshot {
public:
    // How a change is judged: not at all (QoS reports), the conditions as they stand reported
    // again (kernel findings, an operator's clear), or evaluated afresh on a copy without the
    // samples (a link or reporter event: counters are judged on fresh reads only).
    enum class Judge { None, Report, Evaluate };
    // When a change goes out: with the next publish, paced, or now.
    enum class Publish { WithNext, Paced, Now };
    struct Stages {
        std::function<void(Snapshot&)> evaluate;      // roles and health, a full judgement
        std::function<void(Snapshot&)> report;        // the health as it stands
        std::function<void(const Snapshot&)> publish; // the sinks: textfile and D-Bus
    };

    explicit PublishedSnapshot(Stages stages) : stages_(std::move(stages)) {}

    // Paced publishes wait on an alarm of `loop`; before this every publish goes out at once.
    void attach(EventLoop& loop);

    const std::optional<Snapshot>& get() const { return last_; }
    // A cycle's snapshot, judged: published now and kept (the previous one is freed).
    void replace(Snapshot snap);
    // `change` applied to the last snapshot, then judged and published as asked. False, and
    // nothing done, before the first cycle.
    bool amend(const std::function<void(Snapshot&)>& change, Judge judge, Publish when);

private:
    void publish();

    Stages stages_;
    std::optional<Snapshot> last_;
    Pacer pacer_{4, 250'000};           // publishes between cycles: 4 at once, then 4/s
    EventLoop::Alarm* alarm_ = nullptr; // a paced publish waiting for its token
    bool pending_ = false;
};

} // namespace nicd::loop
