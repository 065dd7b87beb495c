// What each RoCE port hears in LLDP (Snapshot::neighbors, neighbor/), judged:
//   wiring.unexpected_neighbor (degraded, check_cable): the port's neighbour is not the switch
//     port the wiring map ([health] WiringMap=) expects; or, map or not, the port hears two
//     neighbours, or two compute ports of the node hear the same switch port;
//   wiring.no_neighbor (degraded, check_cable): a port the map names is up, lldpd runs and
//     listens on it, and it has heard no LLDP for three TTLs (its last neighbour's, else the
//     longest any port of the node hears now, else lldpd's default 120 s);
//   lldp_firmware_agent (info): an up port that hears nothing while its plugin says the NIC's
//     firmware runs DCBX there (plugin ABI 1.8, QosReport::lldp_agent): the host then may never
//     hear the switch;
//   qos.switch_mismatch (degraded, check_switch_port): the switch's PFC, ETS or Application
//     Priority TLVs disagree with the RoCE QoS nicd provisioned and read back on the port
//     (neighbor/switch_qos_compare.hpp).
// Without lldpd nothing is judged (the source says so once) and the family's conditions hold as
// they were. VFs and RoCE LAG devices are left out: lldpd hears a LAG's members, not its bond.
#pragma once

#include "health/rule_family.hpp"

#include <map>
#include <string>
#include <utility>

namespace nicd::health {

// "leaf-07 swp12" of every (ibdev, port) that hears exactly one neighbour; "leaf-07 swp12 and
// leaf-08 swp3" of one that hears two. What nicctl and the conditions' messages show.
std::map<std::pair<std::string, uint32_t>, std::string> portNeighborLabels(const Snapshot& snap);

class NeighborRules : public RuleFamily {
public:
    static constexpr uint32_t kDefaultTtlSeconds = 120; // lldpd's tx-interval 30 s × hold 4
    static constexpr uint32_t kTtlsUnheard = 3;

    const char* name() const override { return "neighbors"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
    // The quiet timers live in memory: after a restart a quiet port waits three TTLs again.
    void appendJson(std::string& out) const override { out += "{}"; }
    void restore(const nlohmann::json& /*j*/) override {}
    void forget() override { ports_.clear(); }
    void rename(const std::string& from, const std::string& to) override
    {
        moveDeviceKeys(ports_, from, to);
    }

private:
    struct PortMemory {
        double quiet_since = -1; // monotonic: since when the port, up, has heard nothing
        uint32_t last_ttl = 0;   // the TTL of what it last heard
    };
    std::map<std::pair<std::string, uint32_t>, PortMemory> ports_;
};

} // namespace nicd::health
