// The nicd object tree on one connection. publish() is called once per cycle on the loop thread:
// it creates and removes device, port and plugin objects (InterfacesAdded/Removed through the
// ObjectManager at /io/nicd/Nicd1), updates the cached values, emits at most one
// PropertiesChanged per object with only what changed (counters never signal), and sends an
// Event signal for every health event newer than the last one sent. It does not own the bus
// name: BusService requests it once the first tree is published.
//
// Destroy the publisher before its connection: pending Apply/Verify calls are answered with
// io.nicd.Nicd1.Error.Disconnected and their messages released.
#pragma once

#include "dbus/bus_handlers.hpp"
#include "dbus/bus_objects.hpp"
#include "dbus/object_values.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace nicd::dbus {

class BusPublisher {
public:
    BusPublisher(sdbus::IConnection& connection, const BusHandlers& handlers);
    ~BusPublisher();
    BusPublisher(const BusPublisher&) = delete;
    BusPublisher& operator=(const BusPublisher&) = delete;

    void publish(TreeValues tree);

private:
    template <typename Object, typename Values>
    std::unique_ptr<Object> makeObject(const std::string& path, const Values& values);
    template <typename Object, typename Values>
    void sync(std::map<std::string, std::unique_ptr<Object>>& objects,
              std::map<std::string, Values>& wanted);
    void emitNewEvents(uint64_t last_seq);

    sdbus::IConnection& connection_;
    const BusHandlers& handlers_;
    std::shared_ptr<PendingReplies> pending_;
    std::unique_ptr<ManagerObject> manager_;
    std::map<std::string, std::unique_ptr<DeviceObject>> devices_;
    std::map<std::string, std::unique_ptr<PortObject>> ports_;
    std::map<std::string, std::unique_ptr<PluginObject>> plugins_;
    std::optional<uint64_t> last_event_sent_;
};

} // namespace nicd::dbus
