#include "health/health_engine.hpp"

#include "health/congestion_rules.hpp"
#include "health/counter_checks.hpp"
#include "health/driver_rules.hpp"
#include "health/fec_rules.hpp"
#include "health/inventory_rules.hpp"
#include "health/json_integers.hpp"
#include "health/json_text.hpp"
#include "health/kernel_rules.hpp"
#include "health/neighbor_rules.hpp"
#include "health/optics_rules.hpp"
#include "health/readiness_rules.hpp"
#include "health/reporter_rules.hpp"
#include "health/temperature_rules.hpp"
#include "health/training_rules.hpp"
#include "log/log.hpp"
#include "model/device_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace nicd::health {

namespace {

template <class... Family> std::vector<std::unique_ptr<RuleFamily>> make()
{
    std::vector<std::unique_ptr<RuleFamily>> families;
    (families.push_back(std::make_unique<Family>()), ...);
    return families;
}

// Every rule family, in the order they judge a snapshot: a new family is one name here.
std::vector<std::unique_ptr<RuleFamily>> ruleFamilies()
{
    return make<LinkRules,        // link_rules.hpp
                CounterChecks,    // counter_checks.hpp
                DriverRules,      // driver_rules.hpp
                FecRules,         // fec_rules.hpp
                OpticsRules,      // optics_rules.hpp
                TemperatureRules, // temperature_rules.hpp
                ReporterRules,    // reporter_rules.hpp
                TrainingRules,    // training_rules.hpp
                CongestionRules,  // congestion_rules.hpp
                ReadinessRules,   // readiness_rules.hpp
                InventoryRules,   // inventory_rules.hpp
                NeighborRules,    // neighbor_rules.hpp
                KernelRules>();   // kernel_rules.hpp: holds run out after all else is judged
}

} // namespace

HealthEngine::HealthEngine(Config config)
    : config_(std::make_unique<Config>(std::move(config))),
      conditions_(config_->health.event_ring_size)
{
    auto families = ruleFamilies();
    for (auto& family : families)
        family->configure(*config_);
    adopt(std::move(families));
}

void HealthEngine::adopt(std::vector<std::unique_ptr<RuleFamily>> families)
{
    families_ = std::move(families);
    links_ = nullptr;
    for (auto& family : families_)
        if (auto* links = dynamic_cast<LinkRules*>(family.get()))
            links_ = links;
    if (links_ == nullptr)
        throw std::logic_error("the rule families lack LinkRules");
}

void HealthEngine::configure(const Config& config)
{
    *config_ = config;
    for (auto& family : families_)
        family->configure(*config_);
    conditions_.log().setCapacity(config_->health.event_ring_size);
}

std::vector<Event> HealthEngine::evaluate(Snapshot& snap, double now_mono, double now_real)
{
    std::vector<Event> out;
    followRenames(snap.inventory, now_real, out);
    for (const auto& d : snap.inventory.devices)
        roles_[d.ibdev] = d.role;
    // Ignored from now on ([daemon] IgnoreDevices=, a reload): what was said of a device no longer
    // stands, and nothing judges it again.
    if (!snap.inventory.ignored.empty())
        conditions_.recoverIf(
            [&](const Condition& c) {
                return std::any_of(snap.inventory.ignored.begin(), snap.inventory.ignored.end(),
                                   [&](const IgnoredDevice& ig) { return ig.ibdev == c.device; });
            },
            [](const Condition&) { return std::string("device ignored (IgnoreDevices=)"); },
            now_real, out);
    for (auto& family : families_)
        family->evaluate(snap, now_mono, now_real, conditions_, out);
    // Turned off by a reload: what the signals said no longer stands (nothing judges it again).
    if (!config_->signals.enable)
        conditions_.recoverIf(
            [](const Condition& c) { return c.source == ConditionSource::Signal; },
            [](const Condition&) {
                return std::string("pre-failure signals are off ([signals] Enable=no)");
            },
            now_real, out);
    report(snap);
    return out;
}

std::vector<Event> HealthEngine::betweenCycles(const Inventory& inv, double now_real,
                                               const FamilyHook& hook)
{
    std::vector<Event> out;
    followRenames(inv, now_real, out);
    for (auto& family : families_)
        hook(*family, out);
    return out;
}

std::vector<Event> HealthEngine::kernelLine(const KernelFinding& f, const Inventory& inv,
                                            double now_mono, double now_real)
{
    return betweenCycles(inv, now_real, [&](RuleFamily& family, std::vector<Event>& out) {
        family.kernelLine(f, inv, now_mono, now_real, conditions_, out);
    });
}

std::vector<Event> HealthEngine::kernelReport(const KernelReportFinding& f, const Inventory& inv,
                                              double now_mono, double now_real)
{
    return betweenCycles(inv, now_real, [&](RuleFamily& family, std::vector<Event>& out) {
        family.kernelReport(f, inv, now_mono, now_real, conditions_, out);
    });
}

void HealthEngine::kernelFindings(const KernelFindings& f, const Inventory& inv, double now_mono,
                                  double now_real)
{
    for (const auto& m : f.matches)
        kernelLine(m, inv, now_mono, now_real);
    for (const auto& r : f.reports)
        kernelReport(r, inv, now_mono, now_real);
}

void HealthEngine::followRenames(const Inventory& inv, double now_real, std::vector<Event>& out)
{
    auto renames = links_->knownDevices().renames(inv);
    if (renames.empty())
        return;
    // Every old name to a placeholder first (no device name holds a '/'), then to its new name:
    // names that swap or shift along a chain never meet.
    auto placeholder = [](const DeviceRename& r) { return "/renaming/" + r.pci_address; };
    for (const auto& r : renames)
        moveDevice(r.from, placeholder(r));
    for (const auto& r : renames) {
        moveDevice(placeholder(r), r.to);
        conditions_.renamed(r.to,
                            r.gone ? fmt::format("{} (PCI {}) is gone and {} names another device "
                                                 "now: what was known of it stays under {}",
                                                 r.from, r.pci_address, r.from, r.to)
                                   : fmt::format("{} (PCI {}) is now {}: its conditions, counters "
                                                 "and history follow it",
                                                 r.from, r.pci_address, r.to),
                            now_real, out);
    }
}

void HealthEngine::moveDevice(const std::string& from, const std::string& to)
{
    conditions_.moveDevice(from, to);
    moveDeviceKeys(roles_, from, to);
    for (auto& family : families_)
        family->rename(from, to);
    if (rename_listener_)
        rename_listener_(from, to);
}

size_t HealthEngine::clear(const std::string& device, const std::string& code, double now_real)
{
    std::vector<Event> ignored;
    for (auto& family : families_)
        family->cleared(device, code);
    return conditions_.clear(device, code, now_real, ignored);
}

std::vector<KnownDevice> HealthEngine::forgetMissing(const std::string& device,
                                                     const Inventory& inv, double now_real)
{
    auto forgotten = links_->forgetMissing(device, inv);
    std::vector<Event> ignored;
    for (const auto& k : forgotten) {
        std::set<std::string> codes;
        for (const auto& [key, c] : conditions_.active())
            if (c.device == k.name)
                codes.insert(c.code);
        for (const auto& code : codes)
            conditions_.clear(k.name, code, now_real, ignored);
        roles_.erase(k.name);
    }
    return forgotten;
}

void HealthEngine::report(Snapshot& snap) const
{
    auto& r = snap.health;
    r = {};
    for (const auto& d : snap.inventory.devices) {
        r.devices[d.ibdev] = Health::Healthy;
        for (const auto& p : d.ports)
            r.ports[{d.ibdev, p.num}] = Health::Healthy;
    }
    // Every port condition names the switch port at the other end of the cable, where lldpd
    // hears one (the wiring and switch codes name it themselves).
    const auto switch_ports = portNeighborLabels(snap);
    for (const auto& [key, c] : conditions_.active()) {
        r.conditions.push_back(c);
        if (auto sw = switch_ports.find({c.device, c.port});
            c.port != 0 && sw != switch_ports.end() && c.source != ConditionSource::Neighbor)
            r.conditions.back().message += " (switch port " + sw->second + ")";
        if (c.device.empty())
            continue; // the node's own (inventory_short.compute): nodeHealth weighs it
        auto h = healthOf(c.severity);
        auto& dev = r.devices[c.device];
        dev = std::max(dev, h);
        if (c.port != 0) {
            auto& port = r.ports[{c.device, c.port}];
            port = std::max(port, h);
        }
    }
    r.node = nodeHealth(snap.inventory, r);
    r.events_total = conditions_.log().totals();
    r.last_event_seq = conditions_.log().lastSeq();
    for (const auto& family : families_)
        family->annotate(r);
}

// Fatal when a compute device is fatal; degraded when anything is not healthy. A device that
// vanished is weighed by the role it had; one never seen counts as compute (its loss may be the
// training fabric's). A condition of the node itself counts as its severity says (a short
// compute inventory is fatal, a short storage one degraded).
Health HealthEngine::nodeHealth(const Inventory& inv, const HealthReport& r) const
{
    Health node = Health::Healthy;
    for (const auto& c : r.conditions)
        if (c.device.empty())
            node = std::max(node, healthOf(c.severity));
    for (const auto& [device, h] : r.devices) {
        if (h == Health::Healthy)
            continue;
        std::optional<Role> role;
        if (const auto* d = inv.find(device))
            role = d->role;
        else if (auto it = roles_.find(device); it != roles_.end())
            role = it->second;
        const bool compute = !role || *role == Role::Compute;
        node = std::max(node, h == Health::Fatal && compute ? Health::Fatal : Health::Degraded);
    }
    return node;
}

void HealthEngine::appendJson(std::string& out) const
{
    // The keys in the order a JSON object of nlohmann's (a std::map) dumps them.
    std::map<std::string, std::function<void(std::string&)>> parts{
        {"version", [](std::string& o) { appendJsonText(o, kStateVersion); }},
        {"events", [this](std::string& o) { appendJsonText(o, conditions_.log().toJson()); }},
        {"conditions", [this](std::string& o) { appendJsonText(o, conditions_.toJson()); }},
        {"roles",
         [this](std::string& o) {
             auto roles = nlohmann::json::object();
             for (const auto& [device, role] : roles_)
                 roles[device] = toString(role);
             appendJsonText(o, roles);
         }},
    };
    for (const auto& family : families_) {
        const RuleFamily* f = family.get();
        if (!parts.emplace(f->name(), [f](std::string& o) { f->appendJson(o); }).second)
            throw std::logic_error(std::string("two parts of the health state are called ") +
                                   f->name());
    }
    out += '{';
    bool first = true;
    for (const auto& [key, append] : parts) {
        appendJsonComma(out, first);
        appendJsonKey(out, key);
        append(out);
    }
    out += '}';
}

void HealthEngine::restore(const nlohmann::json& j)
{
    int version = getIntegers<int>(j.at("version"));
    if (version != kStateVersion)
        throw std::runtime_error("health state version " + std::to_string(version) +
                                 " (this nicd reads " + std::to_string(kStateVersion) + ")");
    // Everything is read into new objects before any of this engine's is replaced.
    auto log = EventLog::fromJson(j.at("events"), config_->health.event_ring_size);
    auto active = ConditionSet::conditionsFromJson(j.at("conditions"));
    std::map<std::string, Role> roles;
    if (auto it = j.find("roles"); it != j.end())
        for (const auto& [device, name] : it->items())
            if (auto role = parseRole(name.get<std::string>()))
                roles[device] = *role;
    auto families = ruleFamilies();
    for (auto& family : families) {
        family->configure(*config_);
        if (auto it = j.find(family->name()); it != j.end())
            family->restore(*it);
    }
    conditions_.restore(std::move(active), std::move(log));
    roles_ = std::move(roles);
    adopt(std::move(families));
}

void HealthEngine::baseline(const std::string& why, double now_real, const nlohmann::json& earlier)
{
    KnownDevices hardware;
    if (earlier.is_object())
        try {
            hardware = KnownDevices::fromEarlierBoot(earlier.at("links").at("known_devices"));
        } catch (const std::exception& e) {
            log::warn({},
                      "the hardware of the last boot cannot be read from the saved state "
                      "({}): a NIC that did not come back is not known",
                      e.what());
        }
    uint64_t seq = conditions_.log().lastSeq();
    conditions_ = ConditionSet(config_->health.event_ring_size);
    conditions_.log().continueAfter(seq); // numbers are never reused
    for (auto& family : families_)
        family->forget();
    roles_.clear();
    for (const auto& k : hardware.devices()) // a NIC that stays away is weighed by its role
        if (const auto* hw = hardware.hardware(k.pci_address); hw && hw->role)
            roles_[k.name] = *hw->role;
    links_->rememberEarlierBoot(std::move(hardware));
    std::vector<Event> ignored;
    conditions_.baseline(why, now_real, ignored);
}

void HealthEngine::continueSequence(const nlohmann::json& saved) noexcept
{
    try {
        conditions_.log().continueAfter(getIntegers<uint64_t>(saved.at("events").at("last_seq")));
    } catch (const std::exception&) {
        // No usable sequence: numbering goes on from where it is.
    }
}

} // namespace nicd::health
