#include "tree_builder.hpp"

#include "counter_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd::sim {

TreeBuilder::TreeBuilder(fs::path root) : root_(std::move(root)), sys_(root_ / "sys") {}

fs::path TreeBuilder::pciFunction(const PciPlan& plan)
{
    auto host_bridge = "pci" + plan.root_port.substr(0, 7); // pci0000:19
    auto port_dir = sys_ / "devices" / host_bridge / plan.root_port;
    if (!fs::exists(port_dir / "vendor")) { // the root port itself, as lspci would see it
        fs::create_directories(port_dir);
        writeText(root_, port_dir / "vendor", "0x8086\n");
        writeText(root_, port_dir / "device", "0x352a\n");
        writeText(root_, port_dir / "class", "0x060400\n");
        writeText(root_, port_dir / "max_link_speed", "32.0 GT/s PCIe\n");
        writeText(root_, port_dir / "max_link_width", "16\n");
    }
    for (const auto& bridge : plan.switch_ports) { // a Broadcom PEX890xx Gen5 switch's ports
        port_dir /= bridge;
        if (fs::exists(port_dir / "vendor"))
            continue;
        fs::create_directories(port_dir);
        writeText(root_, port_dir / "vendor", "0x1000\n");
        writeText(root_, port_dir / "device", "0xc030\n");
        writeText(root_, port_dir / "class", "0x060400\n");
        for (const char* link : {"current_link_speed", "max_link_speed"})
            writeText(root_, port_dir / link, "32.0 GT/s PCIe\n");
        for (const char* link : {"current_link_width", "max_link_width"})
            writeText(root_, port_dir / link, "16\n");
    }
    auto dir = port_dir / plan.bdf;
    fs::create_directories(dir);
    auto driver_dir = sys_ / "bus/pci/drivers" / plan.driver;
    fs::create_directories(driver_dir);
    relativeSymlink(driver_dir, dir / "driver");
    relativeSymlink(dir, driver_dir / plan.bdf);
    relativeSymlink(dir, sys_ / "bus/pci/devices" / plan.bdf);
    relativeSymlink(sys_ / "bus/pci", dir / "subsystem");
    writeText(root_, dir / "numa_node", std::to_string(plan.numa_node) + "\n");
    writeText(root_, dir / "vendor", plan.vendor + "\n");
    writeText(root_, dir / "device", plan.device + "\n");
    writeText(root_, dir / "class", plan.pci_class + "\n");
    writeText(root_, dir / "current_link_speed", "32.0 GT/s PCIe\n");
    writeText(root_, dir / "current_link_width", "16\n");
    writeText(root_, dir / "max_link_speed", "32.0 GT/s PCIe\n");
    writeText(root_, dir / "max_link_width", "16\n");
    return dir;
}

fs::path TreeBuilder::hwmon(const fs::path& pci_dir, const std::string& vendor)
{
    auto name = fmt::format("hwmon{}", next_hwmon_++);
    auto dir = pci_dir / "hwmon" / name;
    fs::create_directories(dir);
    writeText(root_, dir / "name", std::string(vendorCatalog(vendor).hwmon_name) + "\n");
    writeText(root_, dir / "temp1_input", fmt::format("{}\n", kAsicHealthyMillidegrees));
    writeText(root_, dir / "temp1_crit", fmt::format("{}\n", kAsicCritMillidegrees));
    if (vendorCatalog(vendor).hwmon_sensors == HwmonSensors::FirmwareThresholds) { // made up
        writeText(root_, dir / "temp1_max", fmt::format("{}\n", kAsicCritMillidegrees - 10000));
        writeText(root_, dir / "temp1_emergency",
                  fmt::format("{}\n", kAsicCritMillidegrees + 5000));
        for (const char* alarm : {"temp1_max_alarm", "temp1_crit_alarm", "temp1_emergency_alarm"})
            writeText(root_, dir / alarm, "0\n");
    } else {
        writeText(root_, dir / "temp1_label", "asic\n");
        writeText(root_, dir / "temp1_highest",
                  fmt::format("{}\n", kAsicHealthyMillidegrees + 3000));
    }
    relativeSymlink(pci_dir, dir / "device");
    relativeSymlink(dir, sys_ / "class/hwmon" / name);
    return dir;
}

fs::path TreeBuilder::gpu(const std::string& bdf, const std::string& root_port, int numa_node,
                          const std::string& device_id, std::vector<std::string> switch_ports)
{
    return pciFunction({bdf, root_port, "nvidia", "0x10de", device_id, "0x030200", numa_node,
                        std::move(switch_ports)});
}

fs::path TreeBuilder::netdev(const fs::path& pci_dir, const NetdevPlan& p)
{
    auto dir = pci_dir / "net" / p.name;
    fs::create_directories(dir);
    int ifindex = next_ifindex_++;
    auto mac = fmt::format("b8:3f:d2:5a:{:02x}:{:02x}", (ifindex >> 8) & 0xff, ifindex & 0xff);
    auto address = p.infiniband
                       ? fmt::format("00:00:10:87:fe:80:00:00:00:00:00:00:b8:3f:d2:03:00:5a:{:02x}:"
                                     "{:02x}",
                                     (ifindex >> 8) & 0xff, ifindex & 0xff)
                       : mac;
    writeText(root_, dir / "address", address + "\n");
    writeText(root_, dir / "addr_len", p.infiniband ? "20\n" : "6\n");
    writeText(root_, dir / "type", p.infiniband ? "32\n" : "1\n");
    writeText(root_, dir / "ifindex", std::to_string(ifindex) + "\n");
    writeText(root_, dir / "iflink", std::to_string(ifindex) + "\n");
    writeText(root_, dir / "dev_id", "0x0\n");
    writeText(root_, dir / "dev_port", std::to_string(p.dev_port) + "\n");
    writeText(root_, dir / "mtu", p.infiniband ? "4092\n" : "9000\n");
    writeText(root_, dir / "flags", "0x1003\n"); // IFF_UP | IFF_BROADCAST | IFF_MULTICAST
    writeText(root_, dir / "tx_queue_len", "1000\n");
    writeText(root_, dir / "operstate", p.up ? "up\n" : "down\n");
    writeText(root_, dir / "carrier", p.up ? "1\n" : "0\n");
    writeText(root_, dir / "carrier_changes", p.up ? "2\n" : "1\n");
    writeText(root_, dir / "speed", p.up ? std::to_string(p.speed_mbps) + "\n" : "-1\n");
    writeText(root_, dir / "duplex", p.up ? "full\n" : "unknown\n");
    if (!p.phys_port_name.empty())
        writeText(root_, dir / "phys_port_name", p.phys_port_name + "\n");
    relativeSymlink(pci_dir, dir / "device");
    relativeSymlink(sys_ / "class/net", dir / "subsystem");
    relativeSymlink(dir, sys_ / "class/net" / p.name);
    return dir;
}

fs::path TreeBuilder::ibDevice(const fs::path& pci_dir, const std::string& name,
                               const std::string& hca, const std::vector<PortPlan>& ports,
                               const std::string& gid_netdev, const std::string& board_id,
                               const std::string& vendor)
{
    const auto& catalog = vendorCatalog(vendor);
    auto dir = pci_dir / "infiniband" / name;
    fs::create_directories(dir);
    int guid = next_guid_++;
    relativeSymlink(pci_dir, dir / "device");
    relativeSymlink(sys_ / "class/infiniband", dir / "subsystem");
    writeText(root_, dir / "fw_ver", std::string(catalog.healthy_firmware) + "\n");
    writeText(root_, dir / "board_id", board_id + "\n");
    writeText(root_, dir / "hca_type", hca + "\n");
    if (*catalog.hw_rev != '\0')
        writeText(root_, dir / "hw_rev", std::string(catalog.hw_rev) + "\n");
    writeText(root_, dir / "node_guid", fmt::format("b83f:d203:005a:{:04x}\n", 0x1a00 + guid));
    writeText(root_, dir / "sys_image_guid", fmt::format("b83f:d203:005a:{:04x}\n", 0x1a00 + guid));
    writeText(root_, dir / "node_type", "1: CA\n");
    writeText(root_, dir / "node_desc",
              (*catalog.node_desc ? std::string(catalog.node_desc) : "gpu-node-01 " + name) + "\n");
    for (size_t i = 0; i < ports.size(); ++i) {
        const auto& p = ports[i];
        bool roce = p.link_layer == "Ethernet";
        auto pd = dir / "ports" / std::to_string(i + 1);
        fs::create_directories(pd / "counters");
        fs::create_directories(pd / "hw_counters");
        writeText(root_, pd / "state", p.up ? "4: ACTIVE\n" : "1: DOWN\n");
        writeText(root_, pd / "phys_state", p.up ? "5: LinkUp\n" : "3: Disabled\n");
        writeText(root_, pd / "link_layer", p.link_layer + "\n");
        writeText(root_, pd / "rate", p.rate + "\n");
        writeText(root_, pd / "lid", roce ? "0x0\n" : fmt::format("0x{:x}\n", 0x10 + guid));
        writeText(root_, pd / "sm_lid", roce ? "0x0\n" : "0x1\n");
        writeText(root_, pd / "cap_mask", roce ? "0x04010000\n" : "0xa751e848\n");
        for (const auto& c : ibCounters())
            writeNumber(root_, pd / "counters" / c.name, c.initial);
        for (const auto& c : catalog.hw_counters(roce))
            writeNumber(root_, pd / "hw_counters" / c.name, c.initial);
        if (roce) { // GIDs 0..3: link-local and IPv4-mapped, each as RoCE v1 and v2
            fs::create_directories(pd / "gid_attrs/ndevs");
            fs::create_directories(pd / "gid_attrs/types");
            for (int g = 0; g < 4; ++g) {
                writeText(root_, pd / "gid_attrs/ndevs" / std::to_string(g), gid_netdev + "\n");
                writeText(root_, pd / "gid_attrs/types" / std::to_string(g),
                          g % 2 == 0 ? "IB/RoCE v1\n" : "RoCE v2\n");
            }
        } else {
            fs::create_directories(pd / "gids");
            writeText(root_, pd / "gids/0",
                      fmt::format("fe80:0000:0000:0000:b83f:d203:005a:{:04x}\n", 0x1a00 + guid));
        }
    }
    relativeSymlink(dir, sys_ / "class/infiniband" / name);
    return dir;
}

fs::path TreeBuilder::bond(const std::string& name, const std::vector<fs::path>& slaves)
{
    auto dir = sys_ / "devices/virtual/net" / name;
    fs::create_directories(dir / "bonding");
    std::string names;
    for (const auto& s : slaves) {
        names += (names.empty() ? "" : " ") + s.filename().string();
        relativeSymlink(dir, s / "master");
        relativeSymlink(dir, s / ("upper_" + name));
        relativeSymlink(s, dir / ("lower_" + s.filename().string()));
    }
    writeText(root_, dir / "operstate", "up\n");
    writeText(root_, dir / "carrier", "1\n");
    writeText(root_, dir / "carrier_changes", "2\n");
    writeText(root_, dir / "ifindex", std::to_string(next_ifindex_++) + "\n");
    writeText(root_, dir / "type", "1\n");
    writeText(root_, dir / "mtu", "9000\n");
    writeText(root_, dir / "flags", "0x1403\n"); // + IFF_MASTER
    writeText(root_, dir / "speed", std::to_string(400000 * slaves.size()) + "\n");
    writeText(root_, dir / "address", "b8:3f:d2:5a:ff:00\n");
    writeText(root_, dir / "bonding/slaves", names + "\n");
    writeText(root_, dir / "bonding/mode", "802.3ad 4\n");
    writeText(root_, dir / "bonding/xmit_hash_policy", "layer3+4 1\n");
    relativeSymlink(sys_ / "class/net", dir / "subsystem");
    relativeSymlink(dir, sys_ / "class/net" / name);
    return dir;
}

void TreeBuilder::sriov(const fs::path& pf_dir, const fs::path& vf_dir, int vf_index)
{
    relativeSymlink(pf_dir, vf_dir / "physfn");
    relativeSymlink(vf_dir, pf_dir / ("virtfn" + std::to_string(vf_index)));
    writeText(root_, pf_dir / "sriov_totalvfs", "16\n");
    writeText(root_, pf_dir / "sriov_numvfs", std::to_string(vf_index + 1) + "\n");
}

fs::path TreeBuilder::auxDevice(const fs::path& pci_dir, const VendorCatalog& vendor, int id)
{
    auto name = fmt::format("{}.{}", vendor.rdma_aux_device, id);
    auto dir = pci_dir / name;
    fs::create_directories(dir);
    auto driver_dir = sys_ / "bus/auxiliary/drivers" / vendor.rdma_aux_driver;
    fs::create_directories(driver_dir);
    relativeSymlink(driver_dir, dir / "driver");
    relativeSymlink(dir, driver_dir / name);
    relativeSymlink(dir, sys_ / "bus/auxiliary/devices" / name);
    relativeSymlink(sys_ / "bus/auxiliary", dir / "subsystem");
    return dir;
}

void TreeBuilder::ethtool(const std::string& netdev, bool physical_function, unsigned channels,
                          const std::string& vendor)
{
    EthtoolStats stats;
    const auto& catalog = vendorCatalog(vendor).ethtool(physical_function, channels);
    stats.reserve(catalog.size());
    for (const auto& c : catalog)
        stats.emplace_back(c.name, c.initial);
    writeEthtool(root_, netdev, stats);
}

void TreeBuilder::hostFiles(const CreateOptions& o)
{
    fs::create_directories(root_ / "proc/net");
    // The kernel pads every line of /proc/net/route with spaces to 127 characters.
    auto line = [](const std::string& text) { return fmt::format("{:<127}\n", text); };
    std::string route =
        line("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT");
    // The default route leaves through the management NIC eno1; each RDMA netdev has its own
    // 10.<n>.0.0/16 (little-endian hex, as the kernel prints it). Bond slaves carry none.
    route += line("eno1\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0");
    route += line("eno1\t0000A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0");
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(sys_ / "class/net"))
        if (e.path().filename() != "eno1" && !fs::exists(e.path() / "master"))
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    int subnet = 0;
    for (const auto& name : names)
        route += line(fmt::format("{}\t0000{:02X}0A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0",
                                  name, ++subnet % 256));
    writeText(root_, root_ / "proc/net/route", route);
    fs::create_directories(root_ / "proc/sys/kernel/random");
    writeText(root_, root_ / "proc/sys/kernel/random/boot_id", o.boot_id + "\n");
    for (const char* d :
         {"etc/nicd", "var/lib/nicd", "var/lib/prometheus/node-exporter", "var/log/journal",
          "run/log/journal", "sys/kernel/config", "sys/devices/virtual/net"})
        fs::create_directories(root_ / d);
    if (o.driver_ready)
        for (const char* vendor : kVendors)
            if (const fs::path f = vendorCatalog(vendor).driver_ready_file; !f.empty()) {
                fs::create_directories(root_ / f.relative_path().parent_path());
                writeText(root_, root_ / f.relative_path(), "");
            }
}

} // namespace nicd::sim
