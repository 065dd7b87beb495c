// The congestion verdict of RoCE ports (health/congestion_rules.hpp) over the last window.
#include "textfile/render.hpp"

#include <string>
#include <tuple>

namespace nicd::textfile {

namespace {

constexpr const char* kStates[] = {"unknown",  "idle",        "ecn_working",
                                   "pfc_only", "pause_storm", "lossy"};

} // namespace

void renderCongestionMetrics(const Snapshot& snap, bool all, MetricWriter& w)
{
    const auto& c = snap.health.congestion;
    w.family("nicd_port_congestion_state", MetricType::Gauge,
             "Which layer carries the port's congestion over the last window, value 1 for the "
             "state that holds: idle, ecn_working (DCQCN at work), pfc_only (pauses without ECN), "
             "pause_storm, lossy (drops on the lossless priority), unknown (no window yet); "
             "Counters=all: the other states too, 0.");
    for (const auto& [key, r] : c)
        for (const char* state : kStates)
            if (all || r.state == state)
                w.sample(
                    {{"device", key.first}, {"port", std::to_string(key.second)}, {"state", state}},
                    r.state == state ? 1.0 : 0.0);
    w.family("nicd_port_paused_ratio", MetricType::Gauge,
             "Share of the window the lossless priorities were paused: direction=rx, the peer "
             "paused our sending; tx, we paused the peer.");
    for (const auto& [key, r] : c) {
        auto port = std::to_string(key.second);
        w.sample({{"device", key.first}, {"port", port}, {"direction", "rx"}}, r.rx_paused_ratio);
        w.sample({{"device", key.first}, {"port", port}, {"direction", "tx"}}, r.tx_paused_ratio);
    }
    using Field = double CongestionReport::*;
    for (const auto& [name, field, help, always] :
         {std::tuple<const char*, Field, const char*, bool>{
              "nicd_port_ecn_marked_packets_per_second", &CongestionReport::ecn_marked_per_second,
              "ECN-marked RoCE packets received per second over the window.", true},
          {"nicd_port_cnp_sent_per_second", &CongestionReport::cnp_sent_per_second,
           "CNPs the notification point sent per second over the window.", true},
          {"nicd_port_cnp_handled_per_second", &CongestionReport::cnp_handled_per_second,
           "CNPs the reaction point handled (rate cuts) per second over the window.", true},
          {"nicd_port_congestion_window_seconds", &CongestionReport::window_seconds,
           "The time the verdict's window covers (up to [health] CongestionWindowSec=); "
           "Counters=all only.",
           false}}) {
        w.family(name, MetricType::Gauge, help);
        if (!all && !always)
            continue;
        for (const auto& [key, r] : c)
            w.sample({{"device", key.first}, {"port", std::to_string(key.second)}}, r.*field);
    }
}

} // namespace nicd::textfile
