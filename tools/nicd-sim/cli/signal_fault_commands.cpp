// inject DIR fec-degrade|optics-rx-low|asic-hot|fw-fatal|pcie-downtrain|pcie-path-downtrain|
//            rate-downtrain|fw-drift|fw-old DEV, and each one's <fault>-clear DEV.
#include "cli/registry.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
[[maybe_unused]] static const bool nicd_sim_signal_faults = registerToggleFaults(
    {
        {"fec-degrade", "corrected FEC bits climb to a pre-FEC BER of half the RS(544,514) limit",
         &sim::fecDegrade},
        {"optics-rx-low", "the module's lane 1 receives below its low RX power warning",
         &sim::opticsRxLow},
        {"asic-hot", "the ASIC temperature (hwmon temp1) goes 3 °C above its critical threshold",
         &sim::asicHot},
        {"fw-fatal", "the fw_fatal devlink health reporter (bnxt: fw) goes to error",
         &sim::fwFatal},
        {"pcie-downtrain", "the PCIe link trains at 16.0 GT/s x8 instead of 32.0 GT/s x16",
         &sim::pcieDowntrain},
        {"pcie-path-downtrain",
         "the link between the NIC's PCIe switch and its root port trains at 16.0 GT/s x8 "
         "(HGX profiles)",
         &sim::pciePathDowntrain},
        {"rate-downtrain", "port 1 trains at 200 Gb/sec (2X NDR) instead of 400",
         &sim::rateDowntrain},
        {"fw-drift", "fw_ver becomes 28.39.1002 (bnxt: 229.1.123.0), unlike every other card",
         &sim::fwDrift},
        {"fw-old",
         "every card of the device's board runs 28.37.1014 (bnxt: 228.0.146.0): the node missed "
         "a firmware rollout",
         &sim::fwOld},
    },
    200);

} // namespace nicd::sim::cli
