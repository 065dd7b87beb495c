#include "health/health_engine.hpp"

#include "log/log.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd::health {

namespace {
bool portUp(const Port& p)
{
    return p.state && *p.state == 4;
}

std::string portStateText(const Port& p)
{
    return fmt::format("state {}, physical state {}",
                       p.state_name.empty() ? "unknown" : p.state_name,
                       p.phys_state_name.empty() ? "unknown" : p.phys_state_name);
}
} // namespace

void HealthEngine::record(Event e, std::vector<Event>& out)
{
    e.seq = ++seq_;
    ++events_total_[toString(e.kind)];
    events_.push_back(e);
    while (events_.size() > std::max<uint32_t>(config_.health.event_ring_size, 1))
        events_.pop_front();
    out.push_back(std::move(e));
}

void HealthEngine::raise(Condition c, double now_real, std::vector<Event>& out)
{
    Key key{c.device, c.port, c.code};
    auto it = active_.find(key);
    if (it != active_.end()) {
        bool escalated = c.severity != it->second.severity;
        it->second.last_seen = now_real;
        it->second.message = c.message;
        it->second.severity = c.severity;
        if (!escalated)
            return;
    } else {
        c.first_seen = c.last_seen = now_real;
        active_.emplace(key, c);
    }
    const auto& a = active_.at(key);
    auto fields = log::Fields{.device = a.device, .port = a.port};
    if (a.severity == ConditionSeverity::Info)
        log::info(fields, "{}{}: {}", a.device, a.port ? fmt::format(" port {}", a.port) : "",
                  a.message);
    else
        log::warn(fields, "{} {}{}: {} ({}); {}", toString(a.severity), a.device,
                  a.port ? fmt::format(" port {}", a.port) : "", a.message, a.code, a.action);
    record({0, now_real, EventKind::Raised, a.severity, a.device, a.port, a.code, a.message}, out);
}

void HealthEngine::recover(const Key& key, const std::string& why, double now_real,
                           std::vector<Event>& out)
{
    auto it = active_.find(key);
    if (it == active_.end())
        return;
    const auto& c = it->second;
    log::info({.device = c.device, .port = c.port}, "recovered {}{}: {} ({})", c.device,
              c.port ? fmt::format(" port {}", c.port) : "", why, c.code);
    record({0, now_real, EventKind::Recovered, c.severity, c.device, c.port, c.code, why}, out);
    active_.erase(it);
}

bool HealthEngine::clear(const std::string& device, const std::string& code, double now_real)
{
    std::vector<Event> ignored;
    bool any = false;
    for (auto it = active_.begin(); it != active_.end();) {
        if (it->second.device == device && it->second.code == code) {
            record({0, now_real, EventKind::Cleared, it->second.severity, device, it->second.port,
                    code, "cleared by an operator"},
                   ignored);
            it = active_.erase(it);
            any = true;
        } else {
            ++it;
        }
    }
    return any;
}

std::vector<Event> HealthEngine::eventsSince(uint64_t seq) const
{
    std::vector<Event> out;
    for (const auto& e : events_)
        if (e.seq > seq)
            out.push_back(e);
    return out;
}

void HealthEngine::evaluateLinks(const Snapshot& snap, double now_mono, double now_real,
                                 std::set<Key>& seen, std::vector<Event>& out)
{
    const auto& devices = snap.inventory.devices;
    for (const auto& d : devices) {
        if (d.role == DeviceRole::VirtualFunction)
            continue; // a VF's link is its PF's
        for (const auto& p : d.ports) {
            auto& mem = ports_[{d.ibdev, p.num}];
            bool up = portUp(p);
            if (mem.was_up && !up)
                mem.downs.push_back(now_mono);
            while (!mem.downs.empty() &&
                   mem.downs.front() < now_mono - config_.health.flap_window_sec)
                mem.downs.pop_front();
            mem.was_up = up;
            if (up) {
                mem.ever_up = true;
                recover({d.ibdev, p.num, "port_down"}, "port is up again", now_real, out);
                recover({d.ibdev, p.num, "port_never_up"}, "port came up", now_real, out);
            } else if (mem.ever_up) {
                seen.insert({d.ibdev, p.num, "port_down"});
                raise({"port_down", ConditionSeverity::Fatal, d.ibdev, p.num,
                       "port went down (" + portStateText(p) + ")",
                       "check the cable, transceiver and switch port; jobs using this port are "
                       "stalled",
                       0, 0},
                      now_real, out);
            } else {
                // Never up since nicd started: an uncabled or unused port is normal, unless the
                // configuration expects it up or every peer of the same model and role is up.
                auto ov = config_.devices.find(d.ibdev);
                bool expected = ov != config_.devices.end() && ov->second.expect_up.value_or(false);
                bool unused = ov != config_.devices.end() && ov->second.expect_up == false;
                size_t peers = 0;
                size_t peers_up = 0;
                for (const auto& o : devices) {
                    if (o.ibdev == d.ibdev || o.hca_type != d.hca_type || o.role != d.role)
                        continue;
                    for (const auto& op : o.ports)
                        if (op.link_layer == p.link_layer) {
                            ++peers;
                            peers_up += portUp(op) ? 1 : 0;
                        }
                }
                bool peers_all_up = !unused && peers > 0 && peers_up == peers;
                auto sev =
                    expected || peers_all_up ? ConditionSeverity::Fatal : ConditionSeverity::Info;
                std::string why =
                    expected ? "; [device:" + d.ibdev + "] ExpectUp=yes"
                    : peers_all_up
                        ? fmt::format("; all {} peer ports of the same model are up", peers)
                        : "";
                seen.insert({d.ibdev, p.num, "port_never_up"});
                raise({"port_never_up", sev, d.ibdev, p.num,
                       "port has not been up this boot (" + portStateText(p) + ")" + why,
                       "cable the port, or set ExpectUp=no if it is unused", 0, 0},
                      now_real, out);
            }
            // A RoCE port's netdev that was up and went down (seen first, through rtnetlink).
            for (const auto& nd : p.netdevs) {
                auto it = snap.netdevs.find(nd);
                if (it == snap.netdevs.end())
                    continue;
                bool nd_up = it->second.operstate == "up";
                auto& was = netdev_up_[nd];
                Key key{d.ibdev, p.num, "netdev_down." + nd};
                if (nd_up) {
                    was = true;
                    recover(key, nd + " is up again", now_real, out);
                } else if (was) {
                    seen.insert(key);
                    raise({std::get<2>(key), ConditionSeverity::Fatal, d.ibdev, p.num,
                           nd + " is " + it->second.operstate +
                               (it->second.carrier == false ? " (no carrier)" : ""),
                           "check the cable and switch port; RoCE traffic on this port has stopped",
                           0, 0},
                          now_real, out);
                }
            }
            if (mem.downs.size() >= config_.health.flap_count) {
                seen.insert({d.ibdev, p.num, "link_flapping"});
                raise({"link_flapping", ConditionSeverity::Degraded, d.ibdev, p.num,
                       fmt::format("link went down {} times within {} s", mem.downs.size(),
                                   config_.health.flap_window_sec),
                       "replace the cable or transceiver; check the switch port's error counters",
                       0, 0},
                      now_real, out);
            }
        }
    }
}

void HealthEngine::evaluateCounters(const Snapshot& snap, double now_mono, double now_real,
                                    std::set<Key>& seen, std::vector<Event>& out)
{
    for (const auto& ds : snap.samples) {
        for (const auto& s : ds.samples) {
            auto rule = ruleFor(s.name, ds.ibdev, config_);
            if (!rule || s.kind != SampleKind::Counter)
                continue;
            double t = s.source == std::string(kSourceIbCounters) && ds.pma_monotonic_usec
                           ? static_cast<double>(ds.pma_monotonic_usec) / 1e6
                           : now_mono;
            std::string key = ds.ibdev + "|" + std::to_string(s.port) + "|" + s.source + "|" +
                              s.netdev + "|" + s.name;
            Key ckey{ds.ibdev, s.port,
                     "counter." + s.name + (s.netdev.empty() ? "" : "." + s.netdev)};
            auto& h = counters_[key];
            if (h.last_time < 0) { // first sight: the baseline
                h.last_value = s.value;
                h.last_time = t;
                h.points.emplace_back(t, 0);
                continue;
            }
            if (active_.contains(ckey))
                seen.insert(ckey);
            if (t <= h.last_time)
                continue; // not read again since (PMA counters between PMA reads)
            auto step = counterStep(h.last_value, s.value);
            h.last_value = s.value;
            h.last_time = t;
            if (step.reset) {
                // Driver reload or admin clear: a new baseline, and whatever it said is over.
                h.points.clear();
                h.points.emplace_back(t, h.cumulative);
                recover(ckey, s.name + " was reset", now_real, out);
                seen.erase(ckey);
                continue;
            }
            h.cumulative += step.increase;
            // At most ~20 points per window: a per-hour rule polled every 5 s would otherwise
            // keep 720 (the reference moves in steps of window/20, 5 % of the window).
            size_t n = h.points.size();
            if (n >= 2 && t - h.points[n - 2].first < rule->window_sec / 20)
                h.points.back() = {t, h.cumulative};
            else
                h.points.emplace_back(t, h.cumulative);
            // Keep one point at or before the window's start as the reference.
            while (h.points.size() > 2 && h.points[1].first <= t - rule->window_sec)
                h.points.pop_front();
            const auto& ref = h.points.front();
            double span = std::max(t - ref.first, 1e-9);
            double allowed = rule->threshold * std::max(span, rule->window_sec) / rule->window_sec;
            uint64_t grew = h.cumulative - ref.second;
            if (static_cast<double>(grew) > allowed) {
                seen.insert(ckey);
                raise({std::get<2>(ckey), rule->severity, ds.ibdev, s.port,
                       fmt::format("{}{} grew by {} in {:.0f} s ({}): {}", s.name,
                                   s.netdev.empty() ? "" : " on " + s.netdev, grew, span,
                                   describeThreshold(*rule), rule->meaning),
                       rule->action, 0, 0},
                      now_real, out);
            } else if (active_.contains(ckey)) {
                seen.erase(ckey);
                recover(ckey,
                        fmt::format("{} back under its threshold ({})", s.name,
                                    describeThreshold(*rule)),
                        now_real, out);
            }
        }
    }
}

// A driver that does not answer: a read through it missed its deadline, or every read of the
// device failed for DriverFailCycles cycles in a row.
void HealthEngine::evaluateDrivers(const Snapshot& snap, double now_real, std::vector<Event>& out)
{
    for (const auto& ds : snap.samples) {
        Key key{ds.ibdev, 0, "driver_unresponsive"};
        auto& failing = failing_cycles_[ds.ibdev];
        failing = ds.samples.empty() && !ds.errors.empty() ? failing + 1 : 0;
        std::string why = ds.unresponsive;
        if (why.empty() && failing >= config_.health.driver_fail_cycles)
            why = fmt::format("every read failed for {} cycles (last: {})", failing,
                              ds.errors.front().message);
        if (!why.empty())
            raise({"driver_unresponsive", ConditionSeverity::Fatal, ds.ibdev, 0,
                   "the driver does not answer: " + why,
                   "drain the node; reset the NIC (or reboot); replace it if it recurs", 0, 0},
                  now_real, out);
        else
            recover(key, "the driver answers again", now_real, out);
    }
}

void HealthEngine::evaluateDevices(const Snapshot& snap, double now_real, std::set<Key>& seen,
                                   std::vector<Event>& out)
{
    std::set<std::string> present;
    for (const auto& d : snap.inventory.devices)
        present.insert(d.ibdev);
    for (const auto& name : known_devices_) {
        if (present.contains(name)) {
            recover({name, 0, "device_missing"}, "device is back", now_real, out);
        } else {
            seen.insert({name, 0, "device_missing"});
            raise({"device_missing", ConditionSeverity::Fatal, name, 0, "RDMA device disappeared",
                   "check the driver (dmesg), the PCIe link and the NIC; a reset or replacement "
                   "may be needed",
                   0, 0},
                  now_real, out);
        }
    }
    known_devices_.insert(present.begin(), present.end());
}

std::vector<Event> HealthEngine::evaluate(Snapshot& snap, double now_mono, double now_real)
{
    std::vector<Event> out;
    std::set<Key> seen;
    evaluateDevices(snap, now_real, seen, out);
    evaluateLinks(snap, now_mono, now_real, seen, out);
    evaluateCounters(snap, now_mono, now_real, seen, out);
    evaluateDrivers(snap, now_real, out);
    // Link conditions whose cause is gone (a port that no longer exists, flapping that aged out).
    for (auto it = active_.begin(); it != active_.end();) {
        const auto& code = std::get<2>(it->first);
        bool link = code == "port_down" || code == "port_never_up" || code == "link_flapping" ||
                    code.starts_with("netdev_down.");
        if (link && !seen.contains(it->first)) {
            auto key = it->first;
            ++it;
            recover(key,
                    code == "link_flapping" ? "link stable again" : "condition no longer applies",
                    now_real, out);
        } else {
            ++it;
        }
    }
    for (auto it = kernel_expiry_.begin(); it != kernel_expiry_.end();) {
        if (it->second <= now_mono) {
            auto key = it->first;
            it = kernel_expiry_.erase(it);
            recover(
                key,
                fmt::format("no repeat within KernelHoldSec={}", config_.health.kernel_hold_sec),
                now_real, out);
        } else {
            ++it;
        }
    }
    publish(snap);
    return out;
}

namespace {
const Device* deviceForKernelLine(const plugin::v1::KernelLineMatch& m, const Inventory& inv)
{
    if (!m.pci_address.empty()) {
        for (const auto& d : inv.devices)
            if (d.pci_address == m.pci_address)
                return &d;
        // An upstream port (AER, DPC): the device below it in the PCI hierarchy. The LAG device
        // and the PF share a function; prefer the one that is not a VF.
        const std::string part = "/" + m.pci_address + "/";
        for (const auto& d : inv.devices)
            if (d.role != DeviceRole::VirtualFunction && d.pci_path.find(part) != std::string::npos)
                return &d;
    }
    if (!m.netdev.empty())
        for (const auto& d : inv.devices) {
            if (d.bond_master == m.netdev)
                return &d;
            for (const auto& p : d.ports)
                for (const auto& nd : p.netdevs)
                    if (nd == m.netdev)
                        return &d;
        }
    return nullptr;
}
} // namespace

std::vector<Event> HealthEngine::kernelLine(const plugin::v1::KernelLineMatch& m,
                                            const Inventory& inv, double now_mono, double now_real)
{
    std::vector<Event> out;
    const Device* d = deviceForKernelLine(m, inv);
    if (d == nullptr) {
        ++kernel_unmapped_;
        log::debug({}, "kernel error {} for a device nicd does not know ({}{}), counted only",
                   m.code, m.pci_address, m.netdev);
        return out;
    }
    Key key{d->ibdev, 0, "kernel." + m.code};
    ++kernel_counts_[{d->ibdev, m.code}];
    auto& hits = kernel_hits_[key];
    hits.push_back(now_mono);
    while (!hits.empty() && hits.front() < now_mono - config_.health.kernel_repeat_window_sec)
        hits.pop_front();
    bool fatal = m.severity == plugin::v1::Severity::Fatal;
    std::string message = m.message;
    if (!fatal && hits.size() >= config_.health.kernel_repeat_count) {
        fatal = true;
        message += fmt::format(" ({} times within {} s)", hits.size(),
                               config_.health.kernel_repeat_window_sec);
    }
    if (config_.health.kernel_hold_sec > 0)
        kernel_expiry_[key] = now_mono + config_.health.kernel_hold_sec;
    else
        kernel_expiry_.erase(key);
    raise({std::get<2>(key), fatal ? ConditionSeverity::Fatal : ConditionSeverity::Degraded,
           d->ibdev, 0, message + (m.netdev.empty() ? "" : " on " + m.netdev), m.action, 0, 0},
          now_real, out);
    return out;
}

std::vector<Event> HealthEngine::driverSoftLockup(const std::string& evidence, const Inventory& inv,
                                                  double now_real)
{
    std::vector<Event> out;
    for (const auto& d : inv.devices)
        if (d.driver == "mlx5_core" && d.role != DeviceRole::VirtualFunction)
            raise({"kernel.driver_soft_lockup", ConditionSeverity::Fatal, d.ibdev, 0,
                   "kernel soft lockup: " + evidence,
                   "drain and reboot the node; the mlx5 driver is wedged", 0, 0},
                  now_real, out);
    return out;
}

void HealthEngine::publish(Snapshot& snap) const
{
    auto& r = snap.health;
    r = {};
    for (const auto& d : snap.inventory.devices) {
        r.devices[d.ibdev] = Health::Healthy;
        for (const auto& p : d.ports)
            r.ports[{d.ibdev, p.num}] = Health::Healthy;
    }
    for (const auto& [key, c] : active_) {
        r.conditions.push_back(c);
        auto h = healthOf(c.severity);
        auto& dev = r.devices[c.device];
        dev = std::max(dev, h);
        if (c.port != 0) {
            auto& port = r.ports[{c.device, c.port}];
            port = std::max(port, h);
        }
    }
    r.events_total = events_total_;
    r.kernel_errors = kernel_counts_;
    r.kernel_errors_unmapped = kernel_unmapped_;
    r.last_event_seq = seq_;
}

} // namespace nicd::health

namespace nicd::health {

namespace {
nlohmann::json keyJson(const std::tuple<std::string, uint32_t, std::string>& k)
{
    return {std::get<0>(k), std::get<1>(k), std::get<2>(k)};
}
std::tuple<std::string, uint32_t, std::string> keyFrom(const nlohmann::json& j)
{
    return {j.at(0).get<std::string>(), j.at(1).get<uint32_t>(), j.at(2).get<std::string>()};
}
} // namespace

nlohmann::json HealthEngine::toJson() const
{
    nlohmann::json j;
    j["seq"] = seq_;
    j["events_total"] = events_total_;
    j["known_devices"] = known_devices_;
    j["netdev_up"] = netdev_up_;
    j["kernel_unmapped"] = kernel_unmapped_;
    auto& counters = j["counters"] = nlohmann::json::object();
    for (const auto& [k, h] : counters_)
        counters[k] = {{"last_value", h.last_value},
                       {"last_time", h.last_time},
                       {"cumulative", h.cumulative},
                       {"points", h.points}};
    auto& ports = j["ports"] = nlohmann::json::array();
    for (const auto& [k, m] : ports_)
        ports.push_back({{"device", k.first},
                         {"port", k.second},
                         {"ever_up", m.ever_up},
                         {"was_up", m.was_up},
                         {"downs", m.downs}});
    auto& conds = j["conditions"] = nlohmann::json::array();
    for (const auto& [k, c] : active_)
        conds.push_back({{"code", c.code},
                         {"severity", static_cast<int>(c.severity)},
                         {"device", c.device},
                         {"port", c.port},
                         {"message", c.message},
                         {"action", c.action},
                         {"first_seen", c.first_seen},
                         {"last_seen", c.last_seen}});
    auto& kh = j["kernel_hits"] = nlohmann::json::array();
    for (const auto& [k, times] : kernel_hits_)
        kh.push_back({{"key", keyJson(k)}, {"times", times}});
    auto& ke = j["kernel_expiry"] = nlohmann::json::array();
    for (const auto& [k, t] : kernel_expiry_)
        ke.push_back({{"key", keyJson(k)}, {"at", t}});
    auto& kc = j["kernel_counts"] = nlohmann::json::array();
    for (const auto& [k, n] : kernel_counts_)
        kc.push_back({k.first, k.second, n});
    return j;
}

void HealthEngine::restore(const nlohmann::json& j)
{
    HealthEngine fresh(config_); // parse everything before touching this object
    fresh.seq_ = j.at("seq").get<uint64_t>();
    fresh.events_total_ = j.at("events_total").get<std::map<std::string, uint64_t>>();
    fresh.known_devices_ = j.at("known_devices").get<std::set<std::string>>();
    fresh.netdev_up_ = j.at("netdev_up").get<std::map<std::string, bool>>();
    fresh.kernel_unmapped_ = j.at("kernel_unmapped").get<uint64_t>();
    for (const auto& [k, h] : j.at("counters").items()) {
        CounterHistory c;
        c.last_value = h.at("last_value").get<uint64_t>();
        c.last_time = h.at("last_time").get<double>();
        c.cumulative = h.at("cumulative").get<uint64_t>();
        c.points = h.at("points").get<std::deque<std::pair<double, uint64_t>>>();
        fresh.counters_[k] = std::move(c);
    }
    for (const auto& p : j.at("ports")) {
        PortMemory m;
        m.ever_up = p.at("ever_up").get<bool>();
        m.was_up = p.at("was_up").get<bool>();
        m.downs = p.at("downs").get<std::deque<double>>();
        fresh.ports_[{p.at("device").get<std::string>(), p.at("port").get<uint32_t>()}] =
            std::move(m);
    }
    for (const auto& c : j.at("conditions")) {
        Condition x;
        x.code = c.at("code").get<std::string>();
        x.severity = static_cast<ConditionSeverity>(c.at("severity").get<int>());
        x.device = c.at("device").get<std::string>();
        x.port = c.at("port").get<uint32_t>();
        x.message = c.at("message").get<std::string>();
        x.action = c.at("action").get<std::string>();
        x.first_seen = c.at("first_seen").get<double>();
        x.last_seen = c.at("last_seen").get<double>();
        fresh.active_[{x.device, x.port, x.code}] = std::move(x);
    }
    for (const auto& h : j.at("kernel_hits"))
        fresh.kernel_hits_[keyFrom(h.at("key"))] = h.at("times").get<std::deque<double>>();
    for (const auto& e : j.at("kernel_expiry"))
        fresh.kernel_expiry_[keyFrom(e.at("key"))] = e.at("at").get<double>();
    for (const auto& c : j.at("kernel_counts"))
        fresh.kernel_counts_[{c.at(0).get<std::string>(), c.at(1).get<std::string>()}] =
            c.at(2).get<uint64_t>();
    *this = std::move(fresh);
}

void HealthEngine::baseline(const std::string& why, double now_real)
{
    uint64_t seq = seq_;
    auto totals = events_total_;
    *this = HealthEngine(config_);
    seq_ = seq; // sequence numbers are never reused
    events_total_ = std::move(totals);
    std::vector<Event> ignored;
    record({0, now_real, EventKind::Baseline, ConditionSeverity::Info, "", 0, "baseline", why},
           ignored);
    log::info({}, "health baseline: {}", why);
}

} // namespace nicd::health
