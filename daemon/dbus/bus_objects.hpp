// The D-Bus objects: thin adaptors over the generated glue that serve cached values (getters are
// pulled by sd-bus) and, on update(), emit one PropertiesChanged with the properties that changed.
// Device, port and plugin objects announce themselves with InterfacesAdded when created and
// InterfacesRemoved when destroyed. Loop thread only.
#pragma once

#include "dbus/bus_handlers.hpp"
#include "dbus/object_values.hpp"
#include "dbus/qos_reply.hpp"

#include <nicd/client/wire_values.hpp>

#include <io.nicd.Nicd1.Device.adaptor.h>
#include <io.nicd.Nicd1.Manager.adaptor.h>
#include <io.nicd.Nicd1.Plugin.adaptor.h>
#include <io.nicd.Nicd1.Port.adaptor.h>
#include <sdbus-c++/sdbus-c++.h>

#include <memory>

namespace nicd::dbus {

class ManagerObject final
    : public sdbus::AdaptorInterfaces<io::nicd::Nicd1::Manager_adaptor,
                                      sdbus::ObjectManager_adaptor, sdbus::Properties_adaptor> {
public:
    ManagerObject(sdbus::IConnection& connection, const BusHandlers& handlers,
                  std::shared_ptr<PendingReplies> pending, ManagerValues values);
    ~ManagerObject();

    void update(ManagerValues values);
    void emitEvent(const Event& e);

private:
    void Apply(sdbus::Result<QosRowsWire>&& result, bool dry_run) override;
    void Verify(sdbus::Result<QosRowsWire>&& result) override;
    void Reload() override;
    std::vector<EventWire> GetEvents(const uint64_t& since_seq) override;
    std::vector<sdbus::Struct<std::string, std::string, std::string, std::string>>
    GetConfiguration() override;
    uint32_t ClearCondition(const std::string& device, const std::string& code) override;
    std::string ForgetDevice(const std::string& device) override;
    std::vector<std::string> AcceptInventory() override;

    std::string Version() override { return v_.version; }
    std::string Health() override { return v_.health; }
    std::string NodeHealth() override { return v_.node_health; }
    uint32_t DeviceCount() override { return v_.device_count; }
    uint32_t PortCount() override { return v_.port_count; }
    uint32_t PluginCount() override { return v_.plugin_count; }
    uint32_t ConditionCount() override { return v_.condition_count; }
    std::vector<NodeConditionWire> Conditions() override;
    uint64_t LastEventSeq() override { return v_.last_event_seq; }
    uint64_t Cycle() override { return v_.cycle; }
    uint64_t LastCycleTimestamp() override { return v_.last_cycle_usec; }
    std::string ProvisionMode() override { return v_.provision_mode; }
    uint64_t LastApplyTimestamp() override { return v_.last_apply_usec; }
    std::string LastApplyResult() override { return v_.last_apply_result; }
    uint64_t LastReloadTimestamp() override { return v_.last_reload_usec; }
    std::string LastReloadResult() override { return v_.last_reload_result; }
    std::string LogLevel() override;
    void LogLevel(const std::string& level) override;

    const BusHandlers& handlers_;
    std::shared_ptr<PendingReplies> pending_;
    ManagerValues v_;
};

class DeviceObject final
    : public sdbus::AdaptorInterfaces<io::nicd::Nicd1::Device_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    DeviceObject(sdbus::IConnection& connection, const BusHandlers& handlers, std::string path,
                 DeviceValues values);
    ~DeviceObject();
    void update(DeviceValues values);
    const DeviceValues& values() const { return v_; }

private:
    std::string Name() override { return v_.name; }
    std::string PciAddress() override { return v_.pci_address; }
    std::string Driver() override { return v_.driver; }
    std::string Plugin() override { return v_.plugin; }
    std::string FirmwareVersion() override { return v_.firmware; }
    std::string BoardId() override { return v_.board_id; }
    std::string HcaType() override { return v_.hca_type; }
    std::string NodeGuid() override { return v_.node_guid; }
    int32_t NumaNode() override { return v_.numa_node; }
    std::string Role() override { return v_.role; }
    std::string RoleReason() override { return v_.role_reason; }
    std::string Function() override { return v_.function; }
    std::string BondMaster() override { return v_.bond_master; }
    std::vector<std::string> Netdevs() override { return v_.netdevs; }
    std::string Health() override { return v_.health; }
    std::vector<ConditionWire> Conditions() override;
    std::map<std::string, double> Temperatures() override { return v_.signals.temperatures; }
    std::map<std::string, double> TemperatureLimits() override
    {
        return v_.signals.temperature_limits;
    }
    PcieLinkWire PcieLink() override;
    std::vector<ReporterWire> HealthReporters() override;
    std::map<std::string, uint64_t> GetCounters() override;

    const BusHandlers& handlers_;
    DeviceValues v_;
};

class PortObject final
    : public sdbus::AdaptorInterfaces<io::nicd::Nicd1::Port_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    PortObject(sdbus::IConnection& connection, const BusHandlers& handlers,
               std::shared_ptr<PendingReplies> pending, std::string path, PortValues values);
    ~PortObject();
    void update(PortValues values);
    const PortValues& values() const { return v_; }

private:
    std::string Device() override { return v_.device; }
    uint32_t Number() override { return v_.number; }
    std::string State() override { return v_.state; }
    std::string PhysState() override { return v_.phys_state; }
    std::string LinkLayer() override { return v_.link_layer; }
    std::string Rate() override { return v_.rate; }
    std::string Netdev() override { return v_.netdev; }
    std::string OperState() override { return v_.operstate; }
    std::string Health() override { return v_.health; }
    std::vector<ConditionWire> Conditions() override;
    std::string QosStatus() override { return v_.qos_status; }
    std::map<std::string, std::string> QosDesired() override { return v_.qos_desired; }
    std::map<std::string, std::string> QosObserved() override { return v_.qos_observed; }
    std::map<std::string, bool> QosCompliant() override { return v_.qos_compliant; }
    std::string Congestion() override { return v_.congestion; }
    std::vector<UplinkWire> Uplinks() override;
    std::string Ready() override { return v_.ready; }
    std::vector<ReadyCheckWire> ReadyChecks() override;
    std::vector<PlaneWire> Planes() override;
    std::vector<NeighborWire> Neighbors() override;
    std::map<std::string, std::string> SwitchQos() override;
    void GetCounters(sdbus::Result<CountersWire>&& result) override;

    const BusHandlers& handlers_;
    std::shared_ptr<PendingReplies> pending_;
    PortValues v_;
};

class PluginObject final
    : public sdbus::AdaptorInterfaces<io::nicd::Nicd1::Plugin_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    PluginObject(sdbus::IConnection& connection, std::string path, PluginValues values);
    ~PluginObject();
    void update(PluginValues values);
    const PluginValues& values() const { return v_; }

private:
    std::string Name() override { return v_.name; }
    std::string File() override { return v_.file; }
    std::string Version() override { return v_.version; }
    std::string AbiVersion() override { return v_.abi_version; }
    std::string State() override { return v_.state; }
    std::string LastError() override { return v_.last_error; }
    uint64_t ConsecutiveFailures() override { return v_.consecutive_failures; }
    uint32_t DeviceCount() override { return v_.device_count; }

    PluginValues v_;
};

} // namespace nicd::dbus
