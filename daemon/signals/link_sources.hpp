// The pre-failure sources read on a port's uplink netdev (uplinks.hpp): FEC statistics (ethtool
// netlink FEC_GET with statistics; Ethernet only — InfiniBand ports keep the symbol-error rule)
// and the optical module's EEPROM (ethtool netlink MODULE_EEPROM_GET, page by page). Under
// --root both read the simulator's captures instead (capture_files.hpp).
#pragma once

#include "config/host_paths.hpp"
#include "model/signals.hpp"
#include "signals/keyed_source.hpp"

#include <memory>
#include <vector>

namespace nicd::signals {

class EthtoolNetlink;

// Where the slow sources look for their uplinks: every cycle's snapshot gets the uplinks of the
// last slow read (a LAG's members need a sysfs read of the bond: not in the fast cycle).
class UplinkSource : public Source {
public:
    UplinkSource(HostPaths paths, SourceTiming timing) : paths_(std::move(paths)), timing_(timing)
    {
    }
    std::string name() const override { return "uplinks"; }
    std::chrono::milliseconds interval() const override { return timing_.interval; }
    void read(const Inventory& inventory) override;
    void fill(Snapshot& snap) override { snap.uplinks = uplinks_; }

private:
    HostPaths paths_;
    SourceTiming timing_;
    std::vector<Uplink> uplinks_;
};

class FecSource : public KeyedSource<FecStats> {
public:
    FecSource(HostPaths paths, SourceTiming timing);

protected:
    std::vector<std::string> keysOf(const Inventory& inventory) override;
    ReadOne reader() override;
    void place(const std::map<std::string, FecStats>& values, Snapshot& snap) override
    {
        snap.fec = values;
    }

private:
    HostPaths paths_;
    std::shared_ptr<EthtoolNetlink> netlink_; // the real root only
};

class ModuleSource : public KeyedSource<ModuleDom> {
public:
    ModuleSource(HostPaths paths, SourceTiming timing);

protected:
    std::vector<std::string> keysOf(const Inventory& inventory) override;
    ReadOne reader() override;
    void place(const std::map<std::string, ModuleDom>& values, Snapshot& snap) override
    {
        snap.modules = values;
    }

private:
    HostPaths paths_;
    std::shared_ptr<EthtoolNetlink> netlink_;
};

} // namespace nicd::signals
