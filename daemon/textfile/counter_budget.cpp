#include "textfile/counter_budget.hpp"

#include "model/samples.hpp"

#include <fnmatch.h>

namespace nicd {

namespace {

struct Curated {
    const char* source;
    const char* name; // "{P}": each lossless priority
};

// The default set: 23 series on a RoCE port with one lossless priority. Why each is there:
// docs/metrics.md, "Which counters the textfile carries".
constexpr Curated kDefaultCounters[] = {
    // Link-level totals both ways (the PMA's own families; RoCE ports keep them too).
    {kSourceIbCounters, "port_rcv_data_bytes"},
    {kSourceIbCounters, "port_xmit_data_bytes"},
    {kSourceIbCounters, "port_rcv_packets"},
    {kSourceIbCounters, "port_xmit_packets"},
    // Link errors: nicd:port_link_errors:rate5m and the dashboard's "Link errors per second".
    {kSourceIbCounters, "symbol_error"},
    {kSourceIbCounters, "port_rcv_errors"},
    {kSourceIbCounters, "link_error_recovery"},
    {kSourceIbCounters, "link_downed"},
    {kSourceIbCounters, "local_link_integrity_errors"},
    {kSourceEthtool, "rx_crc_errors_phy"},
    // Drops and discards.
    {kSourceEthtool, "rx_discards_phy"},
    {kSourceEthtool, "tx_discards_phy"},
    {kSourceHwCounters, "out_of_buffer"},
    // RoCE transport: packets lost on the lossless priority, timeouts and retries exhausted.
    {kSourceHwCounters, "out_of_sequence"},
    {kSourceHwCounters, "local_ack_timeout_err"},
    {kSourceHwCounters, "rnr_nak_retry_err"},
    // ECN and CNPs, DCQCN at work on the lossless traffic: ECN-marked RoCE packets received and
    // the CNPs sent for them (notification point), CNPs handled (reaction point).
    {kSourceHwCounters, "np_ecn_marked_roce_packets"},
    {kSourceHwCounters, "np_cnp_sent"},
    {kSourceHwCounters, "rp_cnp_handled"},
    // PFC on the lossless priorities: pause frames and the time paused, both ways.
    {kSourceEthtool, "rx_prio{P}_pause"},
    {kSourceEthtool, "tx_prio{P}_pause"},
    {kSourceEthtool, "rx_prio{P}_pause_duration"},
    {kSourceEthtool, "tx_prio{P}_pause_duration"},
};

bool matches(std::string_view pattern, std::string_view name, uint8_t lossless)
{
    auto at = pattern.find("{P}");
    if (at == std::string_view::npos)
        return name == pattern;
    auto prefix = pattern.substr(0, at);
    auto suffix = pattern.substr(at + 3);
    if (name.size() != prefix.size() + 1 + suffix.size() || !name.starts_with(prefix) ||
        !name.ends_with(suffix))
        return false;
    char digit = name[prefix.size()];
    return digit >= '0' && digit <= '7' && (lossless & (1U << (digit - '0'))) != 0;
}

uint8_t maskOf(const std::vector<uint8_t>& priorities)
{
    uint8_t mask = 0;
    for (uint8_t p : priorities)
        if (p < 8)
            mask = static_cast<uint8_t>(mask | (1U << p));
    return mask;
}

} // namespace

bool inDefaultCounters(std::string_view source, std::string_view name, uint8_t lossless)
{
    for (const auto& c : kDefaultCounters)
        if (source == c.source && matches(c.name, name, lossless))
            return true;
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

bool CounterBudget::keeps(std::string_view source, const std::string& name, uint8_t lossless) const
{
    if (counters_.set == CounterSet::All ||
        (counters_.set == CounterSet::Default && inDefaultCounters(source, name, lossless)))
        return true;
    for (const auto& glob : counters_.extra)
        if (fnmatch(glob.c_str(), name.c_str(), 0) == 0)
            return true;
    return false;
}

} // namespace nicd
