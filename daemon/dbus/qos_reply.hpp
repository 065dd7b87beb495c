// The answer to a pending Manager.Apply or Manager.Verify call. The call's sdbus::Result stays in
// a PendingReplies store owned by the publisher (it must die before its connection); a QosReply
// is a move-only ticket to it. Answer once, on the loop thread. A reply whose connection is gone
// does nothing; one dropped unanswered answers io.nicd.Nicd1.Error.Internal.
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

class PendingReplies {
public:
    uint64_t add(sdbus::Result<QosRowsWire>&& result);
    void succeed(uint64_t id, const std::vector<QosResultRow>& rows);
    void fail(uint64_t id, const std::string& kind, const std::string& message);
    void failAll(const std::string& kind, const std::string& message);
    size_t size() const { return results_.size(); }

private:
    std::map<uint64_t, sdbus::Result<QosRowsWire>> results_;
    uint64_t next_id_ = 1;
};

class QosReply {
public:
    QosReply() = default;
    QosReply(std::weak_ptr<PendingReplies> store, uint64_t id) : store_(std::move(store)), id_(id)
    {
    }
    QosReply(QosReply&& o) noexcept : store_(std::move(o.store_)), id_(o.id_) { o.id_ = 0; }
    QosReply& operator=(QosReply&& o) noexcept;
    QosReply(const QosReply&) = delete;
    QosReply& operator=(const QosReply&) = delete;
    ~QosReply();

    void succeed(const std::vector<QosResultRow>& rows);
    // kind: see bus_errors.hpp ("Busy", "Failed", errorKindOf(status.code), ...).
    void fail(const std::string& kind, const std::string& message);
    bool pending() const { return id_ != 0 && !store_.expired(); }

private:
    std::weak_ptr<PendingReplies> store_;
    uint64_t id_ = 0;
};

} // namespace nicd::dbus
