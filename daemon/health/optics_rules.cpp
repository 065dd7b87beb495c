#include "health/optics_rules.hpp"

#include "health/verdicts.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

namespace nicd::health {

namespace {

struct Quantity {
    const char* name;  // "rx_power": the condition code's middle and the Optics*= key
    const char* label; // "RX power"
    std::optional<double> ModuleLane::*lane = nullptr; // per-lane quantities
};

constexpr Quantity kTemperature{"temperature", "temperature"};
constexpr Quantity kSupply{"supply", "supply voltage"};
constexpr Quantity kLaneQuantities[] = {
    {"tx_bias", "TX bias", &ModuleLane::tx_bias_amperes},
    {"tx_power", "TX power", &ModuleLane::tx_power_watts},
    {"rx_power", "RX power", &ModuleLane::rx_power_watts},
};

std::string display(std::string_view quantity, double v)
{
    if (quantity == "temperature")
        return fmt::format("{:.1f} °C", v);
    if (quantity == "supply")
        return fmt::format("{:.2f} V", v);
    if (quantity == "tx_bias")
        return fmt::format("{:.1f} mA", v * 1e3);
    if (v <= 0)
        return "no light (0 mW)";
    return fmt::format("{:.1f} dBm", 10 * std::log10(v * 1e3));
}

// One limit crossed: which side, and whether it is the alarm or the warning.
struct Crossing {
    bool high = false;
    bool alarm = false;
    double limit = 0;
};

std::optional<Crossing> crossing(double v, const DomThresholds& t)
{
    if (t.high_alarm && v > *t.high_alarm)
        return Crossing{true, true, *t.high_alarm};
    if (t.low_alarm && v < *t.low_alarm)
        return Crossing{false, true, *t.low_alarm};
    if (t.high_warning && v > *t.high_warning)
        return Crossing{true, false, *t.high_warning};
    if (t.low_warning && v < *t.low_warning)
        return Crossing{false, false, *t.low_warning};
    return std::nullopt;
}

DomThresholds limitsOf(const ModuleDom& dom, std::string_view quantity, const SignalConfig& sc)
{
    DomThresholds t = quantity == "temperature" ? dom.temperature
                      : quantity == "supply"    ? dom.supply
                      : quantity == "tx_bias"   ? dom.tx_bias
                      : quantity == "tx_power"  ? dom.tx_power
                                                : dom.rx_power;
    if (auto it = sc.optics_limits.find(std::string(quantity)); it != sc.optics_limits.end()) {
        const auto& o = it->second;
        for (auto level : {&DomThresholds::high_alarm, &DomThresholds::low_alarm,
                           &DomThresholds::high_warning, &DomThresholds::low_warning})
            if (o.*level)
                t.*level = o.*level;
    }
    return t;
}

class ModuleJudge {
public:
    ModuleJudge(const Uplink& up, const ModuleDom& dom, const SignalConfig& sc, Verdicts& v)
        : up_(up), dom_(dom), sc_(sc), v_(v)
    {
    }

    void judge()
    {
        if (dom_.temperature_celsius)
            check(kTemperature, "", *dom_.temperature_celsius);
        if (dom_.supply_volts)
            check(kSupply, "", *dom_.supply_volts);
        size_t used =
            up_.lanes ? std::min<size_t>(size_t(*up_.lanes), dom_.lanes.size()) : dom_.lanes.size();
        for (size_t i = 0; i < used; ++i) {
            const auto& lane = dom_.lanes[i];
            auto where = fmt::format(" lane {}", i + 1);
            for (const auto& q : kLaneQuantities) {
                if (std::string_view(q.name) == "rx_power" && !up_.active)
                    continue;
                if (lane.*q.lane)
                    check(q, where, *(lane.*q.lane));
            }
            if (lane.tx_fault)
                raise("optics_tx_fault", ConditionSeverity::Fatal,
                      fmt::format("{}{}: the transmitter reports a fault", up_.netdev, where),
                      Action::ReplaceCableOrTransceiver);
        }
    }

private:
    void check(const Quantity& q, const std::string& where, double value)
    {
        auto c = crossing(value, limitsOf(dom_, q.name, sc_));
        if (!c)
            return;
        std::string_view name = q.name;
        bool fatal = c->alarm && !c->high && name == "rx_power";
        raise(fmt::format("optics_{}_{}", q.name, c->high ? "high" : "low"),
              fatal ? ConditionSeverity::Fatal : ConditionSeverity::Degraded,
              fmt::format("{}{}: {} {} {} the module's {} {} {}", up_.netdev, where, q.label,
                          display(name, value), c->high ? "above" : "below",
                          c->high ? "high" : "low", c->alarm ? "alarm" : "warning",
                          display(name, c->limit)),
              name == "temperature" ? Action::CheckCooling : Action::ReplaceCableOrTransceiver,
              c->alarm);
    }

    // The worst crossing of a code wins (an alarm over a warning, then the first lane).
    void raise(const std::string& code, ConditionSeverity severity, std::string message,
               Action action, bool alarm = true)
    {
        if (auto it = rank_.find(code); it != rank_.end() && it->second >= alarm)
            return;
        rank_[code] = alarm;
        std::string advice =
            action == Action::CheckCooling
                ? "the transceiver runs outside its temperature range: check airflow and fans"
            : code == "optics_rx_power_low"
                ? "the light received is weak: clean or replace the fibre, or replace the "
                  "transceiver at this or the far end"
                : "the transceiver runs outside its own limits: replace it";
        v_.raise(signalCondition(code, severity, up_.ibdev, up_.port, std::move(message),
                                 std::move(advice), action));
    }

    const Uplink& up_;
    const ModuleDom& dom_;
    const SignalConfig& sc_;
    Verdicts& v_;
    std::map<std::string, bool> rank_; // code -> raised by an alarm
};

} // namespace

void OpticsRules::evaluate(const Snapshot& snap, double /*now_mono*/, double now_real,
                           ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    Verdicts v;
    for (const auto& up : snap.uplinks) {
        auto it = snap.modules.find(up.netdev);
        if (it == snap.modules.end() || !config.signals.enable)
            continue;
        v.judged(up.ibdev, up.port);
        if (it->second.has_dom)
            ModuleJudge(up, it->second, config.signals, v).judge();
    }
    v.apply(
        conditions, [](const std::string& code) { return code.starts_with("optics_"); },
        [](const Condition&) { return std::string("the module is back within its limits"); },
        now_real, out);
}

} // namespace nicd::health
