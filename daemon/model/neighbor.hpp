// What the host's LLDP agent (lldpd) hears on each netdev: the switch port at the other end of
// each cable, as lldpd keeps it. Read each cycle by neighbor/neighbor_source.hpp, from lldpd
// through liblldpctl or, in a --root tree, from the simulator's twin (lldpcli's JSON); judged by
// the wiring and switch-QoS rules (health/), shown by the textfile, D-Bus and nicctl.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nicd {

using Oui = std::array<uint8_t, 3>;

// One organisationally specific TLV a neighbour sent, as lldpd hands it over: the OUI, the subtype
// and the information string after them.
struct OrgTlv {
    Oui oui{};
    uint8_t subtype = 0;
    std::vector<uint8_t> info;

    bool operator==(const OrgTlv&) const = default;
};

struct LldpNeighbor {
    std::string chassis_id;       // as lldpd prints it: "0c:42:a1:00:07:00", "leaf-07"
    std::string chassis_id_type;  // lldpd's words: "mac", "ip", "ifname", "local", ...
    std::string system_name;      // "leaf-07"; empty when the switch sends none
    std::string port_id;          // "swp12", "Ethernet12/1", or a MAC
    std::string port_id_type;     // "ifname", "local", "mac", ...
    std::string port_descr;       // "swp12"; empty when none
    std::string mgmt_address;     // the first management address; empty when none
    uint32_t ttl_seconds = 0;     // how long lldpd keeps it without a new frame
    std::vector<OrgTlv> org_tlvs; // the organisation TLVs lldpd did not decode itself (DCBX)

    // The switch as messages and nicctl name it: its system name, else its chassis ID.
    std::string switchName() const { return system_name.empty() ? chassis_id : system_name; }
    // Its port as people name it: the port ID, unless that is a MAC address (the switch then
    // names the port in its description), else the description.
    std::string portName() const
    {
        if ((port_id_type == "mac" || port_id.empty()) && !port_descr.empty())
            return port_descr;
        return port_id;
    }
    // "leaf-07 swp12", as condition messages say it.
    std::string label() const { return switchName() + " " + portName(); }

    bool operator==(const LldpNeighbor&) const = default;
};

struct NeighborReading {
    // Whether lldpd answered this cycle. When it did not, `unavailable` says why in words ("no
    // lldpd: /run/lldpd.socket: connection refused") and nothing about neighbours is known.
    bool available = false;
    std::string unavailable;
    // What lldpd hears, by netdev; a netdev that hears no neighbour has no entry.
    std::map<std::string, std::vector<LldpNeighbor>> by_netdev;
    // The netdevs lldpd listens on; nullopt when the source cannot tell (the simulator's twin):
    // then every netdev counts as listened on.
    std::optional<std::set<std::string>> listened;

    bool listensOn(const std::string& netdev) const
    {
        return available && (!listened || listened->contains(netdev));
    }
    const std::vector<LldpNeighbor>* neighborsOf(const std::string& netdev) const
    {
        auto it = by_netdev.find(netdev);
        return it == by_netdev.end() ? nullptr : &it->second;
    }
};

} // namespace nicd
