#include "config/prefailure_keys.hpp"

#include <cmath>

namespace nicd::config {

namespace {

Result<void> setBool(bool& field, std::string_view v)
{
    return assign(field, parseBool(v));
}

// One Optics<Quantity><Level>= key: the threshold `level` of `quantity`, written in `unit`
// ("dBm" is stored in watts, mA in amperes).
struct OpticsQuantity {
    const char* key;  // "RxPower"
    const char* name; // "rx_power" (SignalConfig::optics_limits)
    const char* unit; // "dBm", "C", "V", "mA"
    double min;
    double max;
};

constexpr OpticsQuantity kOpticsQuantities[] = {
    {"Temperature", "temperature", "C", -60, 150}, {"Supply", "supply", "V", 0, 10},
    {"TxBias", "tx_bias", "mA", 0, 1000},          {"TxPower", "tx_power", "dBm", -60, 30},
    {"RxPower", "rx_power", "dBm", -60, 30},
};

using Level = std::optional<double> DomThresholds::*;
constexpr std::pair<const char*, Level> kLevels[] = {
    {"HighAlarm", &DomThresholds::high_alarm},
    {"LowAlarm", &DomThresholds::low_alarm},
    {"HighWarning", &DomThresholds::high_warning},
    {"LowWarning", &DomThresholds::low_warning},
};

double toSi(const OpticsQuantity& q, double v)
{
    std::string_view unit = q.unit;
    if (unit == "dBm")
        return 1e-3 * std::pow(10.0, v / 10.0);
    if (unit == "mA")
        return v / 1000.0;
    return v;
}

void addOpticsKeys(Keys<SignalConfig>& keys)
{
    for (const auto& q : kOpticsQuantities)
        for (const auto& [level_name, level] : kLevels) {
            // Captured by copy-init: clang before 16 cannot capture a structured binding.
            auto setter = [q, level = level](SignalConfig& c, std::string_view v) -> Result<void> {
                if (trim(v).empty()) { // the module's own threshold again
                    c.optics_limits[q.name].*level = std::nullopt;
                    return {};
                }
                auto n = parseDecimal(v, q.min, q.max);
                if (!n)
                    return Error{n.error().message + " (" + q.unit + ")"};
                c.optics_limits[q.name].*level = toSi(q, *n);
                return {};
            };
            keys.emplace_back(std::string("Optics") + q.key + level_name, setter);
        }
}

} // namespace

const Keys<SignalConfig>& prefailureKeys()
{
    static const Keys<SignalConfig> keys = [] {
        Keys<SignalConfig> k{
            {"Enable", [](auto& c, auto v) { return setBool(c.enable, v); }},
            {"IntervalSec",
             [](auto& c, auto v) {
                 auto n = parseNumber<uint32_t>(v, 1, 86400);
                 return assign(c.interval_ms, n ? Result<uint32_t>(*n * 1000) : n);
             }},
            {"FecMarginFraction",
             [](auto& c, auto v) {
                 return assign(c.fec_margin_fraction, parseDecimal(v, 1e-6, 1));
             }},
            {"FecBerLimit",
             [](auto& c, auto v) -> Result<void> {
                 if (trim(v).empty()) { // the FEC mode's own limit
                     c.fec_ber_limit = std::nullopt;
                     return {};
                 }
                 auto n = parseDecimal(v, 1e-18, 0.5);
                 if (!n)
                     return n.error();
                 c.fec_ber_limit = *n;
                 return {};
             }},
            {"FecUncorrectableFatal",
             [](auto& c, auto v) { return assign(c.fec_uncorrectable_fatal, parseRate(v)); }},
            {"AsicCritCelsius",
             [](auto& c, auto v) -> Result<void> {
                 if (trim(v).empty()) { // the sensor's own temp*_crit
                     c.asic_crit_celsius = std::nullopt;
                     return {};
                 }
                 auto n = parseDecimal(v, 0, 200);
                 if (!n)
                     return n.error();
                 c.asic_crit_celsius = *n;
                 return {};
             }},
            {"PcieTraining", [](auto& c, auto v) { return setBool(c.pcie_training, v); }},
            {"PortRatePeers", [](auto& c, auto v) { return setBool(c.port_rate_peers, v); }},
            {"FirmwarePeers", [](auto& c, auto v) { return setBool(c.firmware_peers, v); }},
            {"FirmwareResetSec",
             [](auto& c, auto v) {
                 auto n = parseNumber<uint32_t>(v, 1, 3600);
                 return assign(c.firmware_reset_ms, n ? Result<uint32_t>(*n * 1000) : n);
             }},
        };
        addOpticsKeys(k);
        return k;
    }();
    return keys;
}

} // namespace nicd::config
