#include "dbus/bus_publisher.hpp"

#include "log/log.hpp"

#include <type_traits>

namespace nicd::dbus {

BusPublisher::BusPublisher(sdbus::IConnection& connection, const BusHandlers& handlers)
    : connection_(connection), handlers_(handlers), pending_(std::make_shared<PendingReplies>()),
      manager_(std::make_unique<ManagerObject>(connection, handlers_, pending_, ManagerValues{}))
{
}

BusPublisher::~BusPublisher()
{
    pending_->failAll("Disconnected", "nicd lost its bus connection before the answer was ready");
    // Children first, so each InterfacesRemoved still has its ObjectManager.
    ports_.clear();
    devices_.clear();
    plugins_.clear();
    manager_.reset();
}

template <typename Object, typename Values>
std::unique_ptr<Object> BusPublisher::makeObject(const std::string& path, const Values& values)
{
    if constexpr (std::is_constructible_v<Object, sdbus::IConnection&, const BusHandlers&,
                                          std::shared_ptr<PendingReplies>, std::string, Values>)
        return std::make_unique<Object>(connection_, handlers_, pending_, path, values);
    else if constexpr (std::is_constructible_v<Object, sdbus::IConnection&, const BusHandlers&,
                                               std::string, Values>)
        return std::make_unique<Object>(connection_, handlers_, path, values);
    else
        return std::make_unique<Object>(connection_, path, values);
}

template <typename Object, typename Values>
void BusPublisher::sync(std::map<std::string, std::unique_ptr<Object>>& objects,
                        std::map<std::string, Values>& wanted)
{
    for (auto it = objects.begin(); it != objects.end();) {
        auto w = wanted.find(it->first);
        if (w == wanted.end() || identityChanged(it->second->values(), w->second))
            it = objects.erase(it);
        else
            ++it;
    }
    for (auto& [path, values] : wanted) {
        auto it = objects.find(path);
        if (it == objects.end())
            objects.emplace(path, makeObject<Object>(path, values));
        else
            it->second->update(std::move(values)); // each object keeps its values: no copy
    }
}

void BusPublisher::publish(TreeValues tree)
{
    // Removals of ports before their device, additions of devices before their ports.
    for (auto it = ports_.begin(); it != ports_.end();) {
        if (!tree.ports.count(it->first))
            it = ports_.erase(it);
        else
            ++it;
    }
    sync(devices_, tree.devices);
    sync(ports_, tree.ports);
    sync(plugins_, tree.plugins);
    manager_->update(std::move(tree.manager));
    emitNewEvents(tree.manager.last_event_seq);
}

void BusPublisher::emitNewEvents(uint64_t last_seq)
{
    // The first tree sets the starting point: history is for GetEvents, signals are for news.
    if (!last_event_sent_ || !handlers_.events) {
        last_event_sent_ = last_seq;
        return;
    }
    if (last_seq <= *last_event_sent_)
        return;
    try {
        for (const auto& e : handlers_.events(*last_event_sent_))
            manager_->emitEvent(e);
    } catch (const std::exception& e) {
        log::warn({}, "D-Bus: reading events to signal failed: {}", e.what());
    }
    last_event_sent_ = last_seq;
}

} // namespace nicd::dbus
