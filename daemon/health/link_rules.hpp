// Link rules per port and device, from IB port state, netdev operstate and the known-device list:
//   port_down        fatal: a port that was up (this boot) is DOWN, or its physical link is
//                    Disabled or Polling
//   port_not_active  degraded: the physical link is up (cabled, trained) but the port is not
//                    ACTIVE (INIT/ARMED: no subnet manager has activated it)
//   port_never_up    a port not up since boot and not trained: info (unprovisioned and uncabled
//                    ports exist); fatal where [device:X] ExpectUp=yes, or where every peer port
//                    (same hca_type, board_id, role and link layer on other devices) is up.
//                    ExpectUp=no keeps it info.
//   netdev_down.<if> fatal: an Ethernet (RoCE) port's netdev that was up is no longer up
//                    (rtnetlink is faster than the IB state)
//   ipoib_down.<if>  degraded: an InfiniBand port is ACTIVE while its IPoIB netdev, admin up,
//                    is not up (never was, or no longer is) for 30 s: its broadcast
//                    group or P_Key, the subnet manager's (link_netdevs.cpp)
//   card_ports_fewer degraded: a card of several ports, some up, with ports not up this boot
//                    while a peer card (same board, model, role, port count) has all up
//                    (card_ports.cpp)
//   link_flapping    degraded: FlapCount or more flaps within FlapWindowSec (FlapMode=: every
//                    up->down transition, or gpud's down-and-back); holds until the port has been
//                    up FlapClearSec since it last came back, or (FlapClearSec=0) until an
//                    operator clears it (link_history.hpp)
//   link_drop        fatal: a port that was up is down, not switched off (physical state not
//                    Disabled), and its link-down counters have not moved for DropSec: the link
//                    never trained again. Beside port_down, which says the moment it went down;
//                    holds DropHoldSec after the port is active again
//   device_missing   fatal: hardware seen before (this boot, persisted) is gone: no device on
//                    its PCI address any more (device_identity.hpp; a rename is no loss),
//                    raised on its last name, action reboot_node; a NIC of the last boot that
//                    did not come back in this one is the same, action reseat_nic, until it
//                    returns or an operator forgets it (forgetMissing). VFs are not tracked:
//                    SR-IOV reconfiguration adds and removes them; nor are devices
//                    IgnoreDevices= names (forgotten: ignoring is not removal).
//   firmware_changed, board_changed  events (kind changed) when a known device is seen with
//                    another firmware or board (device_hardware.hpp)
// A port whose state could not be read keeps its conditions and history (a transient read error
// is no link event). Conditions recover when their cause is gone ("port is up again", "device
// is back", "link stable for 600 s"); an operator's clear of link_flapping or link_drop forgets
// the flaps or the hold (cleared()).
#pragma once

#include "health/device_identity.hpp"
#include "health/link_history.hpp"
#include "health/rule_family.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace nicd::health {

class LinkRules : public RuleFamily {
public:
    const char* name() const override { return "links"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;

    const KnownDevices& knownDevices() const { return known_; }
    // A new boot starts from the last boot's hardware (KnownDevices::fromEarlierBoot).
    void rememberEarlierBoot(KnownDevices known) { known_ = std::move(known); }
    // Operator action (KnownDevices::forgetMissing).
    std::vector<KnownDevice> forgetMissing(const std::string& device, const Inventory& inv)
    {
        return known_.forgetMissing(device, inv);
    }
    // The device's hardware is now called `to` (HealthEngine::followRenames).
    void rename(const std::string& from, const std::string& to) override;
    // An operator cleared link_flapping (its flaps are forgotten) or link_drop (its hold ends).
    void cleared(const std::string& device, const std::string& code) override;

    void appendJson(std::string& out) const override;
    void restore(const nlohmann::json& j) override;
    // Everything, the known devices too (a new boot gives them back: rememberEarlierBoot).
    void forget() override;

private:
    using PortKey = std::pair<std::string, uint32_t>;
    // What evaluatePort hands the judgements of a port over time.
    struct PortJudgement {
        const Device& d;
        const Port& p;
        PortHistory& mem;
        bool up;
        double now_mono;
        double now_real;
        std::set<ConditionKey>& seen;
        ConditionSet& conditions;
        std::vector<Event>& out;
    };

    void evaluatePort(const Snapshot& snap, const Device& d, const Port& p, const Config& config,
                      double now_mono, double now_real, std::set<ConditionKey>& seen,
                      ConditionSet& conditions, std::vector<Event>& out);
    // The port's netdevs (link_netdevs.cpp): netdev_down.<if> and ipoib_down.<if>; true when a
    // RoCE netdev that was up is down (the port counts as down for flaps and drops).
    bool judgeNetdevs(const Snapshot& snap, const Device& d, const Port& p, double now_mono,
                      double now_real, std::set<ConditionKey>& seen, ConditionSet& conditions,
                      std::vector<Event>& out);
    // Cards cabled in part (card_ports.cpp): card_ports_fewer.
    void judgeCards(const Snapshot& snap, const Config& config, double now_real,
                    std::set<ConditionKey>& seen, ConditionSet& conditions,
                    std::vector<Event>& out);
    void judgeFlapping(const PortJudgement& j, const HealthConfig& hc);
    void judgeDrop(const PortJudgement& j, const HealthConfig& hc, bool candidate,
                   const LinkDownCounts& counts);

    std::map<PortKey, PortHistory> ports_;
    std::map<std::string, bool> netdev_up_; // netdevs seen up
    // IPoIB netdevs admin up but not up on an ACTIVE port, since when (CLOCK_MONOTONIC s).
    std::map<std::string, double> ipoib_not_up_since_;
    std::set<std::string> ipoib_judged_; // IPoIB netdevs looked at since nicd started
    KnownDevices known_;
};

} // namespace nicd::health
