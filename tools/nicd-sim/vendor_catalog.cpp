#include "vendor_catalog.hpp"

#include "bnxt_catalog.hpp"
#include "ethtool_catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace nicd::sim {

namespace {

// A ConnectX-7 (MT4129) on mlx5_core, as the simulator has always built it.
const VendorCatalog kMlx5Catalog{
    .name = kMlx5,
    .driver = "mlx5_core",
    .pci_vendor = "0x15b3",
    .pci_device = "0x1021",
    .vf_pci_device = "0x101e", // MT4126, ConnectX family virtual function
    .ib_prefix = "mlx5_",
    .hca_type = "MT4129",
    .board_id = "MT_0000000838",
    .hw_rev = "", // not written: the mlx5 tree predates it
    .node_desc = "",
    .healthy_firmware = "28.41.1000",
    .drifted_firmware = "28.39.1002",
    .outdated_firmware = "28.37.1014",
    .hwmon_name = "mlx5",
    .fatal_reporter = "fw_fatal",
    // The NVIDIA network operator's driver container (plugins/mlx5 names it too).
    .driver_ready_file = "/run/mellanox/drivers/.driver-ready",
    .rdma_aux_device = "", // mlx5_ib binds mlx5_core.rdma.N, but the tree predates it
    .rdma_aux_driver = "",
    .vf_hca_type = "MT4126",
    .hwmon_sensors = HwmonSensors::AsicLabelAndHighest,
    .health_reporters = HealthReporters::FirmwareAndQueues,
    .ecn_sysfs = true,
    .firmware_dcbx = false,
    .counters = {.ecn_marked = "np_ecn_marked_roce_packets",
                 .cnp_sent = "np_cnp_sent",
                 .cnp_handled = "rp_cnp_handled",
                 .rx_pause = "rx_prio3_pause",
                 .rx_pause_duration = "rx_prio3_pause_duration",
                 .rx_pause_transition = "rx_prio3_pause_transition",
                 .tx_pause = "tx_prio3_pause",
                 .tx_pause_duration = "tx_prio3_pause_duration",
                 .storm_warning = "tx_pause_storm_warning_events",
                 .out_of_sequence = "out_of_sequence",
                 .link_down_events = "link_down_events_phy",
                 .corrected_bits = "rx_corrected_bits_phy"},
    .hw_counters = &hwCounters,
    .ethtool = &mlx5eStatistics,
    .ethtool_statistic = &mlx5eStatistic,
    .channel_total = &channelTotal,
    .driver_events = &mlx5DriverEvents,
};

// A Broadcom BCM57608 (Thor2, 400G) PF on bnxt_en with bnxt_re, as Linux 6.18 shows it
// (research notes §1): bnxt_re_register_ib() sets node_desc to BNXT_RE_DESC " HCA"; the 6.18
// sysfs (commit 72d0b87e "Update sysfs entries with appropriate data") prints hca_type as the
// PCI device ID, hw_rev as the PCI revision and board_id as the VPD part number. The part
// number, revision and firmware versions are made up in the formats the driver prints
// (fw_ver: "%d.%d.%d.%d", bnxt_re_query_fw_str).
const VendorCatalog kBnxtCatalog{
    .name = kBnxt,
    .driver = "bnxt_en",
    .pci_vendor = "0x14e4",
    .pci_device = "0x1760",
    .vf_pci_device = "",
    .ib_prefix = "bnxt_re",
    .hca_type = "0x1760",
    .board_id = "BCM957608-P2200GQF00",
    .hw_rev = "0x11",
    .node_desc = "Broadcom NetXtreme-C/E RoCE Driver HCA",
    .healthy_firmware = "230.0.157.0",
    .drifted_firmware = "229.1.123.0",
    .outdated_firmware = "228.0.146.0",
    .hwmon_name = "bnxt_en",
    .fatal_reporter = "fw", // v5.16+: one reporter (bnxt_devlink.c, bnxt_dl_fw_reporters_create)
    .driver_ready_file = "",
    .rdma_aux_device = "bnxt_en.rdma",
    .rdma_aux_driver = "bnxt_re.rdma",
    .vf_hca_type = "",
    .hwmon_sensors = HwmonSensors::FirmwareThresholds,
    .health_reporters = HealthReporters::FirmwareOnly,
    .ecn_sysfs = false,
    .firmware_dcbx = true,
    .counters = {.ecn_marked = "np_ecn_marked_roce_packets",
                 .cnp_sent = "np_cnp_pkts",
                 .cnp_handled = "rp_cnp_handled",
                 .rx_pause = "rx_pfc_ena_frames_pri3",
                 .rx_pause_duration = "pfc_pri3_rx_duration_us",
                 .rx_pause_transition = "pfc_pri3_rx_transitions",
                 .tx_pause = "tx_pfc_ena_frames_pri3",
                 .tx_pause_duration = "pfc_pri3_tx_duration_us",
                 .storm_warning = "continuous_roce_pause_events",
                 .out_of_sequence = "out_of_sequence",
                 .link_down_events = "link_down_events",
                 .corrected_bits = "rx_corrected_bits"}, // bnxt_get_fec_stats reads it
    .hw_counters = &bnxtHwCounters,
    .ethtool = &bnxtEthtoolStatistics,
    .ethtool_statistic = &bnxtEthtoolStatistic,
    .channel_total = &bnxtRingTotal,
    .driver_events = &bnxtDriverEvents,
};

// Every vendor the simulator builds: the one list (kVendors names them in the same order).
constexpr std::array<const VendorCatalog*, kVendors.size()> kCatalogs{&kMlx5Catalog, &kBnxtCatalog};

} // namespace

const VendorCatalog& vendorCatalog(std::string_view name)
{
    for (const auto* c : kCatalogs)
        if (name == c->name)
            return *c;
    throw SimError(
        fmt::format("unknown NIC vendor '{}' (known: {})", name, fmt::join(kVendors, ", ")));
}

std::string vendorOfPciFunction(std::string_view vendor_file)
{
    while (!vendor_file.empty() && (vendor_file.back() == '\n' || vendor_file.back() == ' '))
        vendor_file.remove_suffix(1);
    for (const auto* c : kCatalogs)
        if (vendor_file == c->pci_vendor)
            return c->name;
    return kDefaultVendor;
}

std::vector<std::string> parseVendors(std::string_view list)
{
    std::vector<std::string> out;
    while (true) {
        auto comma = list.find(',');
        auto name = list.substr(0, comma);
        vendorCatalog(name); // throws for an unknown (or empty) name
        if (std::find(out.begin(), out.end(), name) != out.end())
            throw SimError(fmt::format("--vendor names {} twice", name));
        out.emplace_back(name);
        if (comma == std::string_view::npos)
            return out;
        list.remove_prefix(comma + 1);
    }
}

CounterSpec counterSpec(const std::string& vendor, const std::string& group,
                        const std::string& name)
{
    const auto& catalog = vendorCatalog(vendor);
    auto find = [&](const std::vector<CounterSpec>& list) -> const CounterSpec* {
        for (const auto& c : list)
            if (name == c.name)
                return &c;
        return nullptr;
    };
    const CounterSpec* spec = group == "counters"      ? find(ibCounters())
                              : group == "hw_counters" ? find(catalog.hw_counters(true))
                                                       : catalog.ethtool_statistic(name);
    return spec ? *spec : CounterSpec{"", 0, 64, Overflow::Saturate};
}

} // namespace nicd::sim
