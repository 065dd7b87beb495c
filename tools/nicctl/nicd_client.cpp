#include "nicd_client.hpp"

#include <nicd/client/bus_connection.hpp>
#include <nicd/client/object_path.hpp>

#include <io.nicd.Nicd1.Device.proxy.h>
#include <io.nicd.Nicd1.Manager.proxy.h>
#include <io.nicd.Nicd1.Port.proxy.h>
#include <sdbus-c++/sdbus-c++.h>

namespace nicctl {

namespace {

using nicd::dbus::kBusName;
using nicd::dbus::kRootPath;

class ManagerProxy final
    : public sdbus::ProxyInterfaces<io::nicd::Nicd1::Manager_proxy, sdbus::ObjectManager_proxy> {
public:
    using EventHandler = std::function<void(const EventRow&)>;
    ManagerProxy(sdbus::IConnection& c, EventHandler on_event = {})
        : ProxyInterfaces(c, kBusName, kRootPath), on_event_(std::move(on_event))
    {
        registerProxy();
    }
    ~ManagerProxy() { unregisterProxy(); }

private:
    void onEvent(const uint64_t& seq, const uint64_t& time_usec, const std::string& kind,
                 const std::string& severity, const std::string& device, const uint32_t& port,
                 const std::string& code, const std::string& message,
                 const std::string& action) override
    {
        if (on_event_)
            on_event_({seq, time_usec, kind, severity, device, port, code, message, action});
    }
    void
    onInterfacesAdded(const sdbus::ObjectPath&,
                      const std::map<std::string, std::map<std::string, sdbus::Variant>>&) override
    {
    }
    void onInterfacesRemoved(const sdbus::ObjectPath&, const std::vector<std::string>&) override {}

    EventHandler on_event_;
};

template <typename Interface> class PlainProxy final : public sdbus::ProxyInterfaces<Interface> {
public:
    PlainProxy(sdbus::IConnection& c, std::string path)
        : sdbus::ProxyInterfaces<Interface>(c, kBusName, std::move(path))
    {
        this->registerProxy();
    }
    ~PlainProxy() { this->unregisterProxy(); }
};

} // namespace

NicdClient::NicdClient(const std::string& bus) : connection_(nicd::dbus::openBus(bus)) {}

NicdClient::~NicdClient() = default;

NodeView NicdClient::status()
{
    ManagerProxy manager(*connection_);
    // GetManagedObjects lists the objects below the manager, not the manager itself.
    auto node = nodeViewOf(manager.GetManagedObjects());
    node.version = manager.Version();
    node.health = manager.Health();
    node.node_health = manager.NodeHealth();
    node.provision_mode = manager.ProvisionMode();
    node.last_cycle_usec = manager.LastCycleTimestamp();
    node.last_reload_usec = manager.LastReloadTimestamp();
    node.last_reload_result = manager.LastReloadResult();
    addNodeConditions(node, manager.Conditions());
    return node;
}

std::vector<EventRow> NicdClient::events(uint64_t since_seq)
{
    ManagerProxy manager(*connection_);
    return bus::rowsOf(manager.GetEvents(since_seq));
}

std::vector<QosResultRow> NicdClient::verify()
{
    ManagerProxy manager(*connection_);
    return bus::rowsOf(manager.Verify());
}

std::vector<QosResultRow> NicdClient::apply(bool dry_run)
{
    ManagerProxy manager(*connection_);
    return bus::rowsOf(manager.Apply(dry_run));
}

uint32_t NicdClient::clearCondition(const std::string& device, const std::string& code)
{
    ManagerProxy manager(*connection_);
    return manager.ClearCondition(device, code);
}

std::string NicdClient::forgetDevice(const std::string& device)
{
    ManagerProxy manager(*connection_);
    return manager.ForgetDevice(device);
}

std::vector<std::string> NicdClient::acceptInventory()
{
    ManagerProxy manager(*connection_);
    return manager.AcceptInventory();
}

std::map<std::string, uint64_t> NicdClient::counters(const std::string& device, uint32_t port)
{
    if (port == 0) {
        PlainProxy<io::nicd::Nicd1::Device_proxy> d(*connection_, nicd::dbus::devicePath(device));
        return d.GetCounters();
    }
    PlainProxy<io::nicd::Nicd1::Port_proxy> p(*connection_, nicd::dbus::portPath(device, port));
    return p.GetCounters();
}

std::vector<std::array<std::string, 4>> NicdClient::configuration()
{
    ManagerProxy manager(*connection_);
    std::vector<std::array<std::string, 4>> out;
    for (const auto& row : manager.GetConfiguration())
        out.push_back({row.get<0>(), row.get<1>(), row.get<2>(), row.get<3>()});
    return out;
}

uint64_t NicdClient::lastCycleUsec()
{
    ManagerProxy manager(*connection_);
    return manager.LastCycleTimestamp();
}

std::string NicdClient::logLevel()
{
    ManagerProxy manager(*connection_);
    return manager.LogLevel();
}

void NicdClient::setLogLevel(const std::string& level)
{
    ManagerProxy manager(*connection_);
    manager.LogLevel(level);
}

void NicdClient::follow(uint64_t after_seq, const std::function<void(const EventRow&)>& on_event)
{
    uint64_t last = after_seq;
    ManagerProxy manager(*connection_, [&](const EventRow& e) {
        if (e.seq <= last)
            return;
        last = e.seq;
        on_event(e);
    });
    // Events raised between the caller's GetEvents and this subscription.
    for (const auto& e : events(last))
        if (e.seq > last) {
            last = e.seq;
            on_event(e);
        }
    connection_->enterEventLoop();
    throw sdbus::Error("org.freedesktop.DBus.Error.Disconnected", "the bus connection ended");
}

} // namespace nicctl
