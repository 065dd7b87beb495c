// FEC, the margin before packets are lost (Ethernet uplinks; InfiniBand keeps the symbol-error
// rule):
//   fec_margin (degraded, replace_cable_or_transceiver): the pre-FEC BER between two FEC reads
//     — corrected bits (ethtool FEC statistics, else the PHY's rx_corrected_bits_phy) over the
//     bits the port's rate carries in that time — is above FecMarginFraction of what the active
//     FEC mode can correct. No packet is lost yet; the margin is running out.
//   fec_uncorrectable (degraded; fatal above FecUncorrectableFatal): uncorrectable blocks grew;
//     held kHoldSec after the last growth.
// A LAG's members are judged one by one and reported on the LAG device's port.
#pragma once

#include "health/rule_family.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::health {

// The pre-FEC BER the FEC `mode` ("RS", "BaseR", "LLRS") corrects on lanes of `lane_gbps`, and
// its name ("RS(544,514)"); {0, ""} when there is no FEC.
std::pair<double, std::string> fecBerLimit(std::string_view mode, std::optional<double> lane_gbps);

class FecRules : public RuleFamily {
public:
    static constexpr double kHoldSec = 600;

    const char* name() const override { return "fec"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
    void annotate(HealthReport& report) const override;

    void appendJson(std::string& out) const override;
    void restore(const nlohmann::json& j) override;
    void forget() override { tracks_.clear(); }
    void rename(const std::string& /*from*/, const std::string& /*to*/) override {} // by netdev

private:
    struct Track {
        double corrected = -1; // corrected bits at the last read; < 0: none yet
        double uncorrectable = -1;
        double at = 0;                                 // monotonic seconds of that read
        double ber = -1;                               // between the last two reads; < 0: not known
        double limit = 0;                              // the limit it was judged against
        std::vector<std::pair<double, double>> growth; // (time, uncorrectable blocks added)
        double held_until = 0;
    };
    std::map<std::string, Track> tracks_; // by netdev
};

} // namespace nicd::health
