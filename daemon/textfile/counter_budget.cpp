#include "textfile/counter_budget.hpp"

#include "model/samples.hpp"

#include <fnmatch.h>

namespace nicd::textfile {

namespace {

// The default set: 23 series on a RoCE port with one lossless priority. Why each is there:
// docs/metrics.md, "Which counters the textfile carries". The IB PMA counters by name (IBTA's,
// every vendor's); the plugins' by what they mean (plugin.h Meaning), so that the set is the same
// for every vendor.
constexpr std::string_view kDefaultPmaCounters[] = {
    // Link-level totals both ways (the PMA's own families; RoCE ports keep them too).
    "port_rcv_data_bytes",
    "port_xmit_data_bytes",
    "port_rcv_packets",
    "port_xmit_packets",
    // Link errors: nicd:port_link_errors:rate5m and the dashboard's "Link errors per second".
    "symbol_error",
    "port_rcv_errors",
    "link_error_recovery",
    "link_downed",
    "local_link_integrity_errors",
};

struct Curated {
    Meaning meaning;
    bool per_priority; // kept on the lossless priorities only
};
constexpr Curated kDefaultMeanings[] = {
    // Link errors (with the PMA's above).
    {Meaning::RxCrcErrors, false},
    // Drops and discards.
    {Meaning::RxDiscards, false},
    {Meaning::TxDiscards, false},
    {Meaning::OutOfBuffer, false},
    // RoCE transport: packets lost on the lossless priority, timeouts and retries exhausted.
    {Meaning::OutOfSequence, false},
    {Meaning::LocalAckTimeout, false},
    {Meaning::RnrRetryExceeded, false},
    // ECN and CNPs (EcnMarked, CnpSent, CnpHandled) are not here: the congestion families carry
    // their rates over the verdict's window, the same for every vendor.
    // PFC on the lossless priorities: pause frames and the time paused, both ways.
    {Meaning::RxPauseFrames, true},
    {Meaning::TxPauseFrames, true},
    {Meaning::RxPauseDuration, true},
    {Meaning::TxPauseDuration, true},
};

uint8_t maskOf(const std::vector<uint8_t>& priorities)
{
    uint8_t mask = 0;
    for (uint8_t p : priorities)
        if (p < 8)
            mask = static_cast<uint8_t>(mask | (1U << p));
    return mask;
}

} // namespace

bool inDefaultCounters(std::string_view source, std::string_view name, const SeriesMeaning& m,
                       uint8_t lossless)
{
    if (source == kSourceIbCounters) {
        for (auto pma : kDefaultPmaCounters)
            if (name == pma)
                return true;
        return false;
    }
    for (const auto& c : kDefaultMeanings)
        if (c.meaning == m.meaning)
            return !c.per_priority || (m.priority < 8 && (lossless & (1U << m.priority)) != 0);
    return false;
}

CounterBudget::CounterBudget(const Config& config)
    : counters_(config.textfile.counters),
      lossless_(maskOf(config.provision.settings.pfc_priorities))
{
    for (const auto& [ibdev, device] : config.devices)
        if (device.pfc_priorities)
            device_lossless_[ibdev] = maskOf(*device.pfc_priorities);
}

uint8_t CounterBudget::lossless(const std::string& ibdev) const
{
    auto it = device_lossless_.find(ibdev);
    return it == device_lossless_.end() ? lossless_ : it->second;
}

bool CounterBudget::keeps(std::string_view source, const std::string& name,
                          const SeriesMeaning& meaning, uint8_t lossless) const
{
    if (counters_.set == CounterSet::All || (counters_.set == CounterSet::Default &&
                                             inDefaultCounters(source, name, meaning, lossless)))
        return true;
    for (const auto& glob : counters_.extra)
        if (fnmatch(glob.c_str(), name.c_str(), 0) == 0)
            return true;
    return false;
}

} // namespace nicd::textfile
