// Which counter series the textfile carries ([textfile] Counters=): by default the few a fleet
// graphs and alerts on (never a per-channel or per-queue statistic), or every statistic read, or
// none, plus statistic globs. Decided from a series' source and name (the IB PMA counters), what
// its plugin says it means (the plugins' series: plugin.h Meaning), and the lossless priorities
// of its device, once per layout and render: never per value. What is read, judged and served on
// D-Bus (GetCounters, nicctl counters) does not depend on it.
#pragma once

#include "config/config.hpp"
#include "model/samples.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace nicd::textfile {

class CounterBudget {
public:
    // Every statistic (Counters=all): what a render without a configuration writes.
    CounterBudget() = default;
    // [textfile] Counters=, with each device's lossless priorities ([provision] PfcPriorities=
    // and the [device:IBDEV] overrides).
    explicit CounterBudget(const Config& config);

    bool everything() const { return counters_.set == CounterSet::All; }
    bool nothing() const { return counters_.set == CounterSet::None && counters_.extra.empty(); }
    // The lossless priorities of `ibdev`: bit p set for priority p.
    uint8_t lossless(const std::string& ibdev) const;
    // Whether the series of `source` (kSourceIbCounters, kSourceHwCounters, kSourceEthtool or a
    // plugin's own) named `name`, meaning `meaning`, is written, on a device whose lossless
    // priorities are `lossless`.
    bool keeps(std::string_view source, const std::string& name, const SeriesMeaning& meaning,
               uint8_t lossless) const;

private:
    TextfileCounters counters_{CounterSet::All, {}};
    uint8_t lossless_ = 0;
    std::map<std::string, uint8_t, std::less<>> device_lossless_;
};

// Whether a statistic is in the curated default set (docs/metrics.md, "Which counters the
// textfile carries", says why each is there): an IB PMA counter by name, a plugin's by meaning,
// the per-priority ones on the lossless priorities only.
bool inDefaultCounters(std::string_view source, std::string_view name, const SeriesMeaning& m,
                       uint8_t lossless);

} // namespace nicd::textfile
