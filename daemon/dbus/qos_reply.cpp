#include "dbus/qos_reply.hpp"

#include "dbus/bus_errors.hpp"
#include "log/log.hpp"
#include "text/printable.hpp"

namespace nicd::dbus {

uint64_t PendingReplies::add(sdbus::Result<QosRowsWire>&& result)
{
    uint64_t id = next_id_++;
    results_.emplace(id, std::move(result));
    return id;
}

void PendingReplies::succeed(uint64_t id, const std::vector<QosResultRow>& rows)
{
    auto node = results_.extract(id);
    if (node.empty())
        return;
    QosRowsWire wire;
    wire.reserve(rows.size());
    for (const auto& r : rows)
        wire.push_back(wireOf(QosResultRow{printable(r.device), r.port, printable(r.setting),
                                           printable(r.desired), printable(r.observed), r.compliant,
                                           r.changed, printable(r.error)}));
    try {
        node.mapped().returnResults(wire);
    } catch (const std::exception& e) {
        log::warn({}, "D-Bus: cannot send a QoS reply: {}", e.what());
    }
}

uint64_t PendingReplies::add(sdbus::Result<CountersWire>&& result)
{
    uint64_t id = next_id_++;
    counters_.emplace(id, std::move(result));
    return id;
}

void PendingReplies::succeed(uint64_t id, const CountersWire& counters)
{
    auto node = counters_.extract(id);
    if (node.empty())
        return;
    try {
        node.mapped().returnResults(counters);
    } catch (const std::exception& e) {
        log::warn({}, "D-Bus: cannot send a counters reply: {}", e.what());
    }
}

void PendingReplies::fail(uint64_t id, const std::string& kind, const std::string& message)
{
    const auto error = [&](auto& result) {
        try {
            result.returnError(sdbus::Error(errorName(kind), printable(message)));
        } catch (const std::exception& e) {
            log::warn({}, "D-Bus: cannot send an error reply: {}", e.what());
        }
    };
    if (auto node = results_.extract(id); !node.empty())
        error(node.mapped());
    else if (auto counters = counters_.extract(id); !counters.empty())
        error(counters.mapped());
}

void PendingReplies::failAll(const std::string& kind, const std::string& message)
{
    while (!results_.empty())
        fail(results_.begin()->first, kind, message);
    while (!counters_.empty())
        fail(counters_.begin()->first, kind, message);
}

PendingReply& PendingReply::operator=(PendingReply&& o) noexcept
{
    if (this != &o) {
        if (pending())
            fail("Internal", "the request was dropped");
        store_ = std::move(o.store_);
        id_ = o.id_;
        o.id_ = 0;
    }
    return *this;
}

PendingReply::~PendingReply()
{
    if (pending())
        fail("Internal", "the request was dropped without an answer");
}

void PendingReply::fail(const std::string& kind, const std::string& message)
{
    if (auto s = store_.lock(); s && id_ != 0)
        s->fail(id_, kind, message);
    id_ = 0;
}

} // namespace nicd::dbus
