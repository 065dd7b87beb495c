// The answer to a pending Manager.Apply, Manager.Verify or Port.GetCounters call. The call's
// sdbus::Result stays in a PendingReplies store owned by the publisher (it must die before its
// connection); a QosReply or CountersReply is a move-only ticket to it. Answer once, on the loop
// thread. A reply whose connection is gone does nothing; one dropped unanswered answers
// io.nicd.Nicd1.Error.Internal.
#pragma once

#include <nicd/client/object_values.hpp>
#include <nicd/client/wire_values.hpp>

#include <sdbus-c++/MethodResult.h>
#include <sdbus-c++/Types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nicd::dbus {

using CountersWire = std::map<std::string, uint64_t>;

class PendingReplies {
public:
    uint64_t add(sdbus::Result<QosRowsWire>&& result);
    uint64_t add(sdbus::Result<CountersWire>&& result);
    void succeed(uint64_t id, const std::vector<QosResultRow>& rows);
    void succeed(uint64_t id, const CountersWire& counters);
    void fail(uint64_t id, const std::string& kind, const std::string& message);
    void failAll(const std::string& kind, const std::string& message);
    size_t size() const { return results_.size() + counters_.size(); }

private:
    std::map<uint64_t, sdbus::Result<QosRowsWire>> results_;
    std::map<uint64_t, sdbus::Result<CountersWire>> counters_;
    uint64_t next_id_ = 1;
};

// A ticket to one pending call; QosReply and CountersReply say what it answers.
class PendingReply {
public:
    PendingReply() = default;
    PendingReply(std::weak_ptr<PendingReplies> store, uint64_t id)
        : store_(std::move(store)), id_(id)
    {
    }
    PendingReply(PendingReply&& o) noexcept : store_(std::move(o.store_)), id_(o.id_) { o.id_ = 0; }
    PendingReply& operator=(PendingReply&& o) noexcept;
    PendingReply(const PendingReply&) = delete;
    PendingReply& operator=(const PendingReply&) = delete;
    ~PendingReply();

    // kind: see bus_errors.hpp ("Busy", "Failed", errorKindOf(status.code), ...).
    void fail(const std::string& kind, const std::string& message);
    bool pending() const { return id_ != 0 && !store_.expired(); }

protected:
    template <typename Answer> void answer(const Answer& a)
    {
        if (auto s = store_.lock(); s && id_ != 0)
            s->succeed(id_, a);
        id_ = 0;
    }

private:
    std::weak_ptr<PendingReplies> store_;
    uint64_t id_ = 0;
};

class QosReply : public PendingReply {
public:
    using PendingReply::PendingReply;
    void succeed(const std::vector<QosResultRow>& rows) { answer(rows); }
};

class CountersReply : public PendingReply {
public:
    using PendingReply::PendingReply;
    void succeed(const CountersWire& counters) { answer(counters); }
};

} // namespace nicd::dbus
