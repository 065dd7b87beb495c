#include "health/link_rules.hpp"

#include "health/boot_grace.hpp"
#include "health/json_integers.hpp"
#include "model/device_keys.hpp"

#include <fmt/format.h>

namespace nicd::health {

namespace {
constexpr int kStateDown = 1;
constexpr int kPhysPolling = 2;
constexpr int kPhysDisabled = 3;
constexpr int kPhysTraining = 4;
constexpr int kPhysLinkUp = 5;
constexpr int kPhysErrorRecovery = 6;

// The physical link trained: something is plugged in and answering.
bool trained(const Port& p)
{
    return p.phys_state && (*p.phys_state == kPhysLinkUp || *p.phys_state == kPhysTraining ||
                            *p.phys_state == kPhysErrorRecovery);
}

bool hardDown(const Port& p)
{
    return (p.state && *p.state == kStateDown) ||
           (p.phys_state && (*p.phys_state == kPhysDisabled || *p.phys_state == kPhysPolling));
}

Condition linkCondition(std::string code, ConditionSeverity sev, const std::string& device,
                        uint32_t port, std::string message, std::string advice, Action action)
{
    Condition c;
    c.code = std::move(code);
    c.severity = sev;
    c.source = ConditionSource::Link;
    c.device = device;
    c.port = port;
    c.message = std::move(message);
    c.advice = std::move(advice);
    c.action = action;
    return c;
}

// device_missing of `k`: within a boot a function that left the bus comes back with a reboot;
// a NIC of the last boot that did not come back in this one needs hands on the card.
Condition missingCondition(const KnownDevice& k, const DeviceHardware* hw)
{
    Condition c;
    c.code = "device_missing";
    c.severity = ConditionSeverity::Fatal;
    c.source = ConditionSource::Device;
    c.device = k.name;
    if (k.earlier_boot) {
        std::string was = hw && !hw->name.empty() && hw->name != k.name ? " as " + hw->name : "";
        std::string what = hw ? describeHardware(*hw) : "";
        c.message = fmt::format("RDMA device present at the last boot{} (PCI {}{}) is absent in "
                                "this one",
                                was, k.pci_address, what.empty() ? "" : ", " + what);
        c.advice = "reseat the NIC (its firmware or PCIe link did not come up); after a "
                   "deliberate removal: nicctl forget " +
                   k.name + " (where nicd is not running: nicd --once --forget " + k.name + ")";
        c.action = Action::ReseatNic;
        return c;
    }
    c.message = k.pci_address.empty() || k.pci_address == k.name
                    ? "RDMA device disappeared"
                    : "RDMA device disappeared (PCI " + k.pci_address + ")";
    c.advice = "check the driver (dmesg), the PCIe link and the NIC; a reset or replacement "
               "may be needed";
    c.action = Action::RebootNode;
    return c;
}

// Whether a link-rule code belongs to LinkRules (what it may recover when the cause is gone).
bool isLinkCode(const std::string& code)
{
    return code == "port_down" || code == "port_not_active" || code == "port_never_up" ||
           code == "link_flapping" || code == "link_drop" || code.starts_with("netdev_down.") ||
           code.starts_with("ipoib_down.") || code == "card_ports_fewer";
}
} // namespace

void LinkRules::evaluatePort(const Snapshot& snap, const Device& d, const Port& p,
                             const Config& config, double now_mono, double now_real,
                             std::set<ConditionKey>& seen, ConditionSet& conditions,
                             std::vector<Event>& out)
{
    const auto& hc = config.health;
    auto& mem = ports_[{d.ibdev, p.num}];
    auto keep = [&](const std::string& code) { seen.insert({d.ibdev, p.num, code}); };

    if (!p.state) {
        // Unreadable state: no evidence either way. Keep whatever is active for this port.
        for (const auto& [key, c] : conditions.active())
            if (c.device == d.ibdev && c.port == p.num && isLinkCode(c.code))
                seen.insert(key);
        return;
    }

    const bool netdev_down = judgeNetdevs(snap, d, p, now_mono, now_real, seen, conditions, out);

    const bool up = p.active() && !netdev_down;
    mem.observe(up, now_mono, hc);
    // A drop candidate: down after being up, and not switched off on this side (Disabled: ip link
    // set down, or the driver), where no cable or switch port is to blame.
    bool drop_candidate = false;

    if (p.active()) {
        mem.ever_up = true;
        conditions.recover({d.ibdev, p.num, "port_down"}, "port is up again", now_real, out);
        conditions.recover({d.ibdev, p.num, "port_not_active"}, "port is active", now_real, out);
        conditions.recover({d.ibdev, p.num, "port_never_up"}, "port came up", now_real, out);
    } else if (trained(p) && !hardDown(p)) {
        keep("port_not_active");
        conditions.raise(
            linkCondition("port_not_active", ConditionSeverity::Degraded, d.ibdev, p.num,
                          "the link is up but the port is not active (" + describeState(p) + ")",
                          p.link_layer == "InfiniBand"
                              ? "check the subnet manager (it has not activated this port)"
                              : "check the driver and firmware (dmesg)",
                          p.link_layer == "InfiniBand" ? Action::CheckSwitchPort
                                                       : Action::ResetNic),
            now_real, out);
    } else if (mem.ever_up) {
        drop_candidate = !p.phys_state || *p.phys_state != kPhysDisabled;
        keep("port_down");
        conditions.raise(linkCondition("port_down", ConditionSeverity::Fatal, d.ibdev, p.num,
                                       "port went down (" + describeState(p) + ")",
                                       "check the cable, transceiver and switch port; jobs "
                                       "using this port are stalled",
                                       Action::CheckCable),
                         now_real, out);
    } else {
        // Not up since boot: an uncabled or unused port is normal, unless the configuration
        // expects it up or every peer of the same model and role is up.
        auto ov = config.devices.find(d.ibdev);
        bool expected = ov != config.devices.end() && ov->second.expect_up == true;
        bool unused = ov != config.devices.end() && ov->second.expect_up == false;
        size_t peers = 0;
        size_t peers_up = 0;
        for (const auto& o : snap.inventory.devices) {
            if (o.ibdev == d.ibdev || o.hca_type != d.hca_type || o.board_id != d.board_id ||
                o.function != d.function || o.role != d.role)
                continue;
            for (const auto& op : o.ports)
                if (op.link_layer == p.link_layer) {
                    ++peers;
                    peers_up += op.active() ? 1 : 0;
                }
        }
        bool peers_all_up = !unused && peers > 0 && peers_up == peers;
        auto sev = expected || peers_all_up ? ConditionSeverity::Fatal : ConditionSeverity::Info;
        std::string why = expected ? "; [device:" + d.ibdev + "] ExpectUp=yes"
                          : peers_all_up
                              ? fmt::format("; all {} peer ports of the same model are up", peers)
                              : "";
        keep("port_never_up");
        conditions.raise(
            linkCondition("port_never_up", sev, d.ibdev, p.num,
                          "port has not been up this boot (" + describeState(p) + ")" + why,
                          "cable the port, or set ExpectUp=no if it is unused",
                          sev == ConditionSeverity::Info ? Action::None : Action::CheckCable),
            now_real, out);
    }

    const PortJudgement j{d, p, mem, up, now_mono, now_real, seen, conditions, out};
    judgeFlapping(j, hc);
    judgeDrop(j, hc, drop_candidate, linkDownCounts(snap, d.ibdev, p.num));
}

void LinkRules::evaluate(const Snapshot& snap, double now_mono, double now_real,
                         ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    std::set<ConditionKey> seen;
    known_.forget(snap.inventory.ignored); // ignoring is not removal: never missing
    std::set<std::string> gone;
    for (const auto& k : known_.missing(snap.inventory)) {
        if (k.earlier_boot && inBootGrace(now_mono))
            continue; // not probed yet, perhaps (boot_grace.hpp)
        gone.insert(k.name);
        conditions.raise(missingCondition(k, known_.hardware(k.pci_address)), now_real, out);
        // Its ports' conditions stay as they were: the device being gone says more.
        for (const auto& [key, cond] : conditions.active())
            if (cond.device == k.name && isLinkCode(cond.code))
                seen.insert(key);
    }
    conditions.recoverIf(
        [&](const Condition& c) { return c.code == "device_missing" && !gone.contains(c.device); },
        [](const Condition&) { return std::string("device is back"); }, now_real, out);
    for (const auto& change : known_.update(snap.inventory))
        conditions.changed(change.device, change.code, change.message, now_real, out);

    for (const auto& d : snap.inventory.devices) {
        if (d.function == DeviceFunction::VirtualFunction)
            continue; // a VF's link is its PF's
        for (const auto& p : d.ports)
            evaluatePort(snap, d, p, config, now_mono, now_real, seen, conditions, out);
    }
    judgeCards(snap, config, now_real, seen, conditions, out);

    // Link conditions whose cause is gone: a port that no longer exists, flapping that aged out.
    conditions.recoverIf(
        [&](const Condition& c) { return isLinkCode(c.code) && !seen.contains(keyOf(c)); },
        [](const Condition& c) {
            return c.code == "link_flapping" ? std::string("link stable again")
                                             : std::string("condition no longer applies");
        },
        now_real, out);
}

void LinkRules::rename(const std::string& from, const std::string& to)
{
    moveDeviceKeys(ports_, from, to);
    known_.rename(from, to);
}

void LinkRules::cleared(const std::string& device, const std::string& code)
{
    for (auto& [key, mem] : ports_) {
        if (key.first != device)
            continue;
        if (code == "link_flapping")
            mem.forgetFlaps();
        else if (code == "link_drop")
            mem.drop_back_at.reset();
    }
}

void LinkRules::forget()
{
    ports_.clear();
    netdev_up_.clear();
    ipoib_not_up_since_.clear();
    ipoib_judged_.clear();
    known_ = {};
}

void LinkRules::appendJson(std::string& out) const
{
    auto ports = nlohmann::json::array();
    for (const auto& [k, m] : ports_) {
        auto j = m.toJson();
        j["device"] = k.first;
        j["port"] = k.second;
        ports.push_back(std::move(j));
    }
    appendJsonText(out, {{"known_devices", known_.toJson()},
                         {"netdev_up", netdev_up_},
                         {"ports", std::move(ports)}});
}

void LinkRules::restore(const nlohmann::json& j)
{
    // Parsed aside first: a document that throws leaves this object as it was.
    auto known = KnownDevices::fromJson(j.at("known_devices"));
    auto netdev_up = j.at("netdev_up").get<std::map<std::string, bool>>();
    std::map<PortKey, PortHistory> ports;
    for (const auto& p : j.at("ports"))
        ports[{p.at("device").get<std::string>(), getIntegers<uint32_t>(p.at("port"))}] =
            PortHistory::fromJson(p);
    known_ = std::move(known);
    netdev_up_ = std::move(netdev_up);
    ports_ = std::move(ports);
}

} // namespace nicd::health
