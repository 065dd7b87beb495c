// What differs between the NIC vendors the simulator builds, in one table per vendor, so that the
// tree builder, the ticks and the faults pick by a device's vendor instead of naming one: the PCI
// identity, the RDMA device's sysfs attributes, the hw_counters and ethtool statistics (each
// vendor's own catalog file: counter_catalog.cpp and ethtool_catalog.cpp for mlx5,
// bnxt_catalog.cpp for bnxt), the statistics a fault moves, hwmon and devlink health.
#pragma once

#include "counter_catalog.hpp"
#include "driver_events.hpp"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim {

inline constexpr const char* kMlx5 = "mlx5";
inline constexpr const char* kBnxt = "bnxt";
inline constexpr std::array<const char*, 2> kVendors{kMlx5, kBnxt};
// What a node's state file means when it names no vendor (one made before vendors were known).
inline constexpr const char* kDefaultVendor = kMlx5;
// The vendor of what only one vendor's NICs are in the simulator's nodes: the default node's
// InfiniBand port and RoCE LAG (mlx5_bond_N), and every NIC of a GPU node (the ConnectX its
// platform ships).
inline constexpr const char* kInfinibandVendor = kMlx5;
inline constexpr const char* kLagVendor = kMlx5;
inline constexpr const char* kGpuNodeVendor = kMlx5;

// The hwmon sensors the driver exposes beside temp1_input and temp1_crit.
enum class HwmonSensors {
    AsicLabelAndHighest, // mlx5: temp1_label "asic", temp1_highest
    FirmwareThresholds,  // bnxt: temp1_max, temp1_emergency and their alarms (bnxt_hwrm_temp_query)
};

// The devlink health reporters of a PF.
enum class HealthReporters {
    FirmwareAndQueues, // mlx5: fw, fw_fatal, vnic on the function; tx, rx on its port
    FirmwareOnly,      // bnxt (v5.16+, bnxt_dl_fw_reporters_create): one "fw"
};

// The statistics the congestion scenarios and the link and FEC faults move, by the name this
// vendor's driver gives each (ethtool -S or hw_counters/).
struct FaultCounters {
    const char* ecn_marked;          // ECN-marked RoCE packets received
    const char* cnp_sent;            // CNPs sent (notification point)
    const char* cnp_handled;         // CNPs received (reaction point)
    const char* rx_pause;            // PFC pause frames received on the lossless priority (3)
    const char* rx_pause_duration;   // ... and how long they held the port, in microseconds
    const char* rx_pause_transition; // ... and how often the pause state changed
    const char* tx_pause;            // PFC pause frames sent on priority 3
    const char* tx_pause_duration;
    const char* storm_warning; // the driver's pause-storm evidence (mlx5's warning event; bnxt
                               // has only the firmware's continuous-pause event)
    const char* out_of_sequence;
    const char* link_down_events; // the port's link-down count in ethtool -S
    const char* corrected_bits;   // pre-FEC corrected bits in ethtool -S
};

struct VendorCatalog {
    const char* name;   // mlx5, bnxt: what `create --vendor` and state.json say
    const char* driver; // the PCI function's driver: mlx5_core, bnxt_en
    const char* pci_vendor;
    const char* pci_device;    // of a PF: 0x1021 ConnectX-7, 0x1760 BCM57608
    const char* vf_pci_device; // of a VF; empty: the simulator builds no VF
    const char* ib_prefix;     // the RDMA device's name before its number: mlx5_, bnxt_re
    const char* hca_type;
    const char* board_id;
    const char* hw_rev;
    const char* node_desc; // empty: the hostname and the device's name, as mlx5 sets it
    const char* healthy_firmware;
    const char* drifted_firmware;  // what fw-drift sets
    const char* outdated_firmware; // what fw-old sets: below both, a rollout ago
    const char* hwmon_name;
    const char* fatal_reporter; // the devlink health reporter fw-fatal puts in error
    // The file the vendor's driver deployment creates once the driver is loaded (what the
    // vendor's plugin names: PluginTraits::driver_ready_file); empty: none.
    const char* driver_ready_file;
    // The auxiliary device the RDMA driver binds to under the PCI function ("bnxt_en.rdma.N")
    // and that driver's name on the auxiliary bus; empty: the RDMA device hangs off the
    // function itself.
    const char* rdma_aux_device;
    const char* rdma_aux_driver;
    const char* vf_hca_type; // the RDMA device of a VF; empty: the simulator builds no VF
    HwmonSensors hwmon_sensors;
    HealthReporters health_reporters;
    bool ecn_sysfs;     // MOFED's per-priority ecn/ tree (bnxt's congestion control is debugfs)
    bool firmware_dcbx; // a fresh port's DCB is the firmware DCBX agent's (freshBnxtDcb)
    FaultCounters counters;
    // ports/N/hw_counters, with ib_core's lifespan.
    const std::vector<CounterSpec>& (*hw_counters)(bool roce);
    // ethtool -S of a PF's (or a VF's) netdev with `channels` channels or rings, in order.
    const std::vector<CounterSpec>& (*ethtool)(bool physical_function, unsigned channels);
    // The spec of one ethtool statistic by name; nullptr for a name the driver does not print or
    // one whose value is its channel's share of a total (channel_total).
    const CounterSpec* (*ethtool_statistic)(std::string_view name);
    // The software total a per-channel statistic is a share of; empty when it is none.
    std::string (*channel_total)(std::string_view name);
    // What `inject kernel-line` makes the driver print (driver_events.hpp).
    const std::vector<DriverEvent>& (*driver_events)();
};

// The vendor named `name` (kMlx5, kBnxt); throws SimError naming the known ones.
const VendorCatalog& vendorCatalog(std::string_view name);
// The vendor whose PCI vendor ID a function's `vendor` file holds ("0x14e4\n": bnxt); mlx5 for
// any other (the simulator's default, as a node nicd-sim made before vendors were known).
std::string vendorOfPciFunction(std::string_view vendor_file);
// "mlx5,bnxt" -> {mlx5, bnxt}: each known, none twice, at least one; throws SimError otherwise.
std::vector<std::string> parseVendors(std::string_view list);

// The spec of a counter in a group ("counters", "hw_counters", "ethtool") of a device of `vendor`;
// an unknown name (and a per-channel statistic) is a 64-bit saturating counter with rate 0.
CounterSpec counterSpec(const std::string& vendor, const std::string& group,
                        const std::string& name);

} // namespace nicd::sim
