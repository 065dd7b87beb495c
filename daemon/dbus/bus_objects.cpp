#include "dbus/bus_objects.hpp"

#include "dbus/bus_errors.hpp"
#include "dbus/root_caller.hpp"
#include "log/log.hpp"
#include "text/printable.hpp"

#include <nicd/client/object_path.hpp>

#include <cmath>

namespace nicd::dbus {

namespace {

// Signals on a broken connection fail; the objects go away regardless.
template <typename Fn> void emitQuietly(const char* what, Fn&& fn)
{
    try {
        fn();
    } catch (const std::exception& e) {
        log::debug({}, "D-Bus: {} not sent: {}", what, e.what());
    }
}

template <typename Object, typename Values>
void updateObject(Object& o, Values& current, Values next, const char* iface)
{
    auto changed = changedProperties(current, next);
    current = std::move(next);
    if (!changed.empty())
        emitQuietly("PropertiesChanged", [&] { o.emitPropertiesChangedSignal(iface, changed); });
}

// Inside a catch block: answers a reply the handler did not take with the exception's error.
void failPending(PendingReply& reply, const char* method)
{
    if (!reply.pending())
        return;
    auto err = currentExceptionAsError(method);
    reply.fail(errorKindOf(err), err.getMessage());
}

std::map<std::string, uint64_t> countersFrom(const BusHandlers& handlers, const std::string& device,
                                             uint32_t port)
{
    return guarded("GetCounters", [&] {
        if (!handlers.counters)
            throw MethodFailure("NotSupported", "GetCounters is not available");
        return handlers.counters(device, port);
    });
}

EventRow eventRowOf(const Event& e)
{
    return {
        e.seq,  usecOf(e.time),    toString(e.kind),     toString(e.severity), printable(e.device),
        e.port, printable(e.code), printable(e.message), toString(e.action)};
}

} // namespace

ManagerObject::ManagerObject(sdbus::IConnection& connection, const BusHandlers& handlers,
                             std::shared_ptr<PendingReplies> pending, ManagerValues values)
    : AdaptorInterfaces(connection, kRootPath), handlers_(handlers), pending_(std::move(pending)),
      v_(std::move(values))
{
    registerAdaptor();
}

ManagerObject::~ManagerObject()
{
    unregisterAdaptor();
}

void ManagerObject::update(ManagerValues values)
{
    updateObject(*this, v_, std::move(values), io::nicd::Nicd1::Manager_adaptor::INTERFACE_NAME);
}

void ManagerObject::emitEvent(const Event& e)
{
    emitQuietly("Event", [&] {
        auto r = eventRowOf(e);
        Manager_adaptor::emitEvent(r.seq, r.time_usec, r.kind, r.severity, r.device, r.port, r.code,
                                   r.message, r.action);
    });
}

void ManagerObject::Apply(sdbus::Result<QosRowsWire>&& result, bool dry_run)
{
    if (auto refused = refuseUnlessRoot(getObject(), "Apply")) {
        result.returnError(*refused);
        return;
    }
    if (!handlers_.apply) {
        result.returnError(sdbus::Error(errorName("NotSupported"), "Apply is not available"));
        return;
    }
    QosReply reply(pending_, pending_->add(std::move(result)));
    try {
        handlers_.apply(dry_run, std::move(reply));
    } catch (...) {
        failPending(reply, "Apply"); // the handler threw before taking the reply
    }
}

void ManagerObject::Verify(sdbus::Result<QosRowsWire>&& result)
{
    if (!handlers_.verify) {
        result.returnError(sdbus::Error(errorName("NotSupported"), "Verify is not available"));
        return;
    }
    QosReply reply(pending_, pending_->add(std::move(result)));
    try {
        handlers_.verify(std::move(reply));
    } catch (...) {
        failPending(reply, "Verify");
    }
}

void ManagerObject::Reload()
{
    if (auto refused = refuseUnlessRoot(getObject(), "Reload"))
        throw *refused;
    guarded("Reload", [&] {
        if (!handlers_.reload)
            throw MethodFailure("NotSupported", "Reload is not available");
        handlers_.reload();
    });
}

std::vector<EventWire> ManagerObject::GetEvents(const uint64_t& since_seq)
{
    return guarded("GetEvents", [&] {
        if (!handlers_.events)
            throw MethodFailure("NotSupported", "GetEvents is not available");
        std::vector<EventWire> out;
        for (const auto& e : handlers_.events(since_seq))
            out.push_back(wireOf(eventRowOf(e)));
        return out;
    });
}

uint32_t ManagerObject::ClearCondition(const std::string& device, const std::string& code)
{
    if (auto refused = refuseUnlessRoot(getObject(), "ClearCondition"))
        throw *refused;
    return guarded("ClearCondition", [&] {
        if (!handlers_.clear_condition)
            throw MethodFailure("NotSupported", "ClearCondition is not available");
        if (device.empty() || code.empty())
            throw MethodFailure("InvalidArgument", "ClearCondition needs a device and a code");
        return handlers_.clear_condition(device, code);
    });
}

std::string ManagerObject::ForgetDevice(const std::string& device)
{
    if (auto refused = refuseUnlessRoot(getObject(), "ForgetDevice"))
        throw *refused;
    return guarded("ForgetDevice", [&] {
        if (!handlers_.forget_device)
            throw MethodFailure("NotSupported", "ForgetDevice is not available");
        if (device.empty())
            throw MethodFailure("InvalidArgument", "ForgetDevice needs a device name or PCI "
                                                   "address");
        return printable(handlers_.forget_device(device));
    });
}

std::vector<std::string> ManagerObject::AcceptInventory()
{
    if (auto refused = refuseUnlessRoot(getObject(), "AcceptInventory"))
        throw *refused;
    return guarded("AcceptInventory", [&] {
        if (!handlers_.accept_inventory)
            throw MethodFailure("NotSupported", "AcceptInventory is not available");
        std::vector<std::string> out;
        for (const auto& name : handlers_.accept_inventory())
            out.push_back(printable(name));
        return out;
    });
}

std::vector<sdbus::Struct<std::string, std::string, std::string, std::string>>
ManagerObject::GetConfiguration()
{
    return guarded("GetConfiguration", [&] {
        if (!handlers_.configuration)
            throw MethodFailure("NotSupported", "GetConfiguration is not available");
        std::vector<sdbus::Struct<std::string, std::string, std::string, std::string>> out;
        for (const auto& [section, key, value, source] : handlers_.configuration())
            out.emplace_back(printable(section), printable(key), printable(value),
                             printable(source));
        return out;
    });
}

std::string ManagerObject::LogLevel()
{
    return handlers_.log_level ? handlers_.log_level() : std::string();
}

void ManagerObject::LogLevel(const std::string& level)
{
    if (auto refused = refuseUnlessRoot(getObject(), "setting LogLevel"))
        throw *refused;
    guarded("LogLevel", [&] {
        if (!handlers_.set_log_level)
            throw MethodFailure("NotSupported", "LogLevel cannot be set");
        handlers_.set_log_level(level);
    });
    emitQuietly("PropertiesChanged", [&] {
        emitPropertiesChangedSignal(io::nicd::Nicd1::Manager_adaptor::INTERFACE_NAME, {"LogLevel"});
    });
}

std::vector<NodeConditionWire> ManagerObject::Conditions()
{
    std::vector<NodeConditionWire> out;
    out.reserve(v_.conditions.size());
    for (const auto& c : v_.conditions)
        out.push_back(nodeConditionWireOf(c));
    return out;
}

DeviceObject::DeviceObject(sdbus::IConnection& connection, const BusHandlers& handlers,
                           std::string path, DeviceValues values)
    : AdaptorInterfaces(connection, std::move(path)), handlers_(handlers), v_(std::move(values))
{
    registerAdaptor();
    emitQuietly("InterfacesAdded", [&] {
        emitInterfacesAddedSignal({std::string(io::nicd::Nicd1::Device_adaptor::INTERFACE_NAME)});
    });
}

DeviceObject::~DeviceObject()
{
    emitQuietly("InterfacesRemoved", [&] {
        emitInterfacesRemovedSignal({std::string(io::nicd::Nicd1::Device_adaptor::INTERFACE_NAME)});
    });
    unregisterAdaptor();
}

void DeviceObject::update(DeviceValues values)
{
    updateObject(*this, v_, std::move(values), io::nicd::Nicd1::Device_adaptor::INTERFACE_NAME);
}

std::vector<ConditionWire> DeviceObject::Conditions()
{
    return wireOf(v_.conditions);
}

PcieLinkWire DeviceObject::PcieLink()
{
    return wireOf(v_.signals.pcie);
}

std::vector<ReporterWire> DeviceObject::HealthReporters()
{
    return wireOf(v_.signals.reporters);
}

std::map<std::string, uint64_t> DeviceObject::GetCounters()
{
    return countersFrom(handlers_, v_.name, 0);
}

PortObject::PortObject(sdbus::IConnection& connection, const BusHandlers& handlers,
                       std::shared_ptr<PendingReplies> pending, std::string path, PortValues values)
    : AdaptorInterfaces(connection, std::move(path)), handlers_(handlers),
      pending_(std::move(pending)), v_(std::move(values))
{
    registerAdaptor();
    emitQuietly("InterfacesAdded", [&] {
        emitInterfacesAddedSignal({std::string(io::nicd::Nicd1::Port_adaptor::INTERFACE_NAME)});
    });
}

PortObject::~PortObject()
{
    emitQuietly("InterfacesRemoved", [&] {
        emitInterfacesRemovedSignal({std::string(io::nicd::Nicd1::Port_adaptor::INTERFACE_NAME)});
    });
    unregisterAdaptor();
}

void PortObject::update(PortValues values)
{
    updateObject(*this, v_, std::move(values), io::nicd::Nicd1::Port_adaptor::INTERFACE_NAME);
}

std::vector<ConditionWire> PortObject::Conditions()
{
    return wireOf(v_.conditions);
}

std::vector<UplinkWire> PortObject::Uplinks()
{
    return wireOf(v_.uplinks);
}

std::vector<ReadyCheckWire> PortObject::ReadyChecks()
{
    return wireOf(v_.ready_checks);
}

std::vector<PlaneWire> PortObject::Planes()
{
    return wireOf(v_.planes);
}

std::vector<NeighborWire> PortObject::Neighbors()
{
    return wireOf(v_.neighbors);
}

std::map<std::string, std::string> PortObject::SwitchQos()
{
    return v_.switch_qos;
}

void PortObject::GetCounters(sdbus::Result<CountersWire>&& result)
{
    if (!handlers_.port_counters) {
        result.returnError(sdbus::Error(errorName("NotSupported"), "GetCounters is not available"));
        return;
    }
    CountersReply reply(pending_, pending_->add(std::move(result)));
    try {
        handlers_.port_counters(v_.device, v_.number, std::move(reply));
    } catch (...) {
        failPending(reply, "GetCounters");
    }
}

PluginObject::PluginObject(sdbus::IConnection& connection, std::string path, PluginValues values)
    : AdaptorInterfaces(connection, std::move(path)), v_(std::move(values))
{
    registerAdaptor();
    emitQuietly("InterfacesAdded", [&] {
        emitInterfacesAddedSignal({std::string(io::nicd::Nicd1::Plugin_adaptor::INTERFACE_NAME)});
    });
}

PluginObject::~PluginObject()
{
    emitQuietly("InterfacesRemoved", [&] {
        emitInterfacesRemovedSignal({std::string(io::nicd::Nicd1::Plugin_adaptor::INTERFACE_NAME)});
    });
    unregisterAdaptor();
}

void PluginObject::update(PluginValues values)
{
    updateObject(*this, v_, std::move(values), io::nicd::Nicd1::Plugin_adaptor::INTERFACE_NAME);
}

} // namespace nicd::dbus
