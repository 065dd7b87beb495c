#include "gpu_node.hpp"

#include "vendor_catalog.hpp"

#include <fmt/format.h>

#include <array>

namespace nicd::sim {

namespace {

struct NicModel {
    const char* device;                     // PCI device ID
    const char* hca;                        // hca_type
    const char* rate;                       // ports/1/rate
    int speed_mbps;                         // the netdev's speed
    const char* board_id = "MT_0000000838"; // the card's PSID (board_id)
};

constexpr NicModel kConnectX6{"0x101b", "MT4123", "200 Gb/sec (4X HDR)", 200000};
constexpr NicModel kConnectX7{"0x1021", "MT4129", "400 Gb/sec (4X NDR)", 400000};
constexpr NicModel kConnectX8{"0x1023", "MT4131", "800 Gb/sec (4X XDR)", 800000};

struct GpuModel {
    const char* name;      // --gpu-model
    const char* device_id; // as pci.ids lists it under vendor 10de
    const NicModel* nic;   // what the platform puts beside each GPU
    int profile_gpus;      // GPUs of its --profile (hgx-<name>, or <name> for a tray); 0: none
};

constexpr std::array kModels{
    GpuModel{"a100", "0x20b2", &kConnectX6, 8},     GpuModel{"h100", "0x2330", &kConnectX7, 8},
    GpuModel{"h200", "0x2335", &kConnectX7, 8},     GpuModel{"h800", "0x2324", &kConnectX7, 8},
    GpuModel{"h20", "0x2329", &kConnectX7, 8},      GpuModel{"b200", "0x2901", &kConnectX7, 8},
    GpuModel{"b300", "0x3182", &kConnectX8, 8},     GpuModel{"gb200", "0x2941", &kConnectX7, 4},
    GpuModel{"gb300", "0x31c2", &kConnectX8, 4},    GpuModel{"h100-pcie", "0x2331", &kConnectX7, 0},
    GpuModel{"h200-nvl", "0x233b", &kConnectX7, 0}, GpuModel{"l40s", "0x26b9", &kConnectX7, 0},
};

// The shapes of real GPU nodes beyond a model's own board (docs/conditions.md, "Expected
// inventory"): the HGX designs with a NIC per two GPUs and two per GPU at half the rate, a PCIe
// GPU server whose only RDMA card is its front end, a cloud VM.
struct Shape {
    const char* profile;
    const char* model;
    int gpus;
    int compute_nics;  // -1: one per GPU
    int storage_ports; // the dual-port card's ports
    int nic_gbps;      // 0: what the model's platform ships
    bool vm;           // NUMA node -1, each GPU and NIC on a root port of its own, NICs VFs
};

constexpr std::array kShapes{
    Shape{"hgx-h100-4nic", "h100", 8, 4, 2, 0, false},
    Shape{"hgx-h100-16x200", "h100", 8, 16, 2, 200, false},
    Shape{"pcie-h100", "h100-pcie", 8, 0, 2, 0, false},
    Shape{"vm-h100", "h100", 8, 8, 0, 0, true},
};

// NVL72 compute trays are named by their superchip; HGX boards by their GPU.
std::string profileName(const GpuModel& m)
{
    std::string name = m.name;
    return name.starts_with("gb") ? name : "hgx-" + name;
}

const GpuModel& model(const std::string& name)
{
    for (const auto& m : kModels)
        if (name == m.name)
            return m;
    throw SimError(
        fmt::format("--gpu-model {}: expected one of {}", name, fmt::join(gpuModels(), ", ")));
}

// The bus of GPU/NIC pair i (each behind root port <bus-1>:01.0).
int pairBus(int i)
{
    return 0x18 + 12 * i;
}

// On an HGX board each GPU/NIC pair sits below a PCIe switch of its own: its upstream port below
// the root port, a downstream port for each function (`slot` 0 the GPU, 1 and 2 the NICs).
// GB200/GB300 trays attach their NICs to the Grace CPU's root ports; a VM sees none.
std::vector<std::string> pairSwitch(const GpuModel& m, bool vm, int bus, int slot)
{
    if (vm || std::string_view(m.name).starts_with("gb"))
        return {};
    return {fmt::format("0000:{:02x}:00.0", bus + 2),
            fmt::format("0000:{:02x}:0{}.0", bus + 3, slot)};
}

// `rail`: the compute rail (1..) of a compute NIC, 0 for a storage port.
void nic(TreeBuilder& b, const AddDevice& add, const std::string& name, const PciPlan& pci,
         const NicModel& m, const std::string& netdev, int dev_port, unsigned channels, int rail)
{
    auto dir = b.pciFunction(pci);
    b.hwmon(dir);
    if (netdev.starts_with("ib")) { // an InfiniBand port and its IPoIB netdev
        b.netdev(dir, {netdev, true, dev_port, "", true, m.speed_mbps});
        SimDevice d{name, "ib", pci.bdf, "", {netdev}, {}};
        d.rail = rail;
        add(std::move(d),
            b.ibDevice(dir, name, m.hca, {{"InfiniBand", true, m.rate}}, "", m.board_id));
        return;
    }
    b.netdev(dir, {netdev, true, dev_port, fmt::format("p{}", dev_port), false, m.speed_mbps});
    SimDevice d{name, "pf", pci.bdf, "", {netdev}, {netdev}};
    d.rail = rail;
    add(std::move(d),
        b.ibDevice(dir, name, m.hca, {{"Ethernet", true, m.rate}}, netdev, m.board_id));
    b.ethtool(netdev, true, channels);
}

} // namespace

std::vector<std::string> gpuModels()
{
    std::vector<std::string> out;
    for (const auto& m : kModels)
        out.emplace_back(m.name);
    return out;
}

std::vector<std::string> profiles()
{
    std::vector<std::string> out;
    for (const auto& m : kModels)
        if (m.profile_gpus > 0)
            out.push_back(profileName(m));
    for (const auto& s : kShapes)
        out.emplace_back(s.profile);
    return out;
}

void applyProfile(CreateOptions& options, const std::string& profile)
{
    for (const auto& m : kModels)
        if (m.profile_gpus > 0 && profile == profileName(m)) {
            options.gpus = m.profile_gpus;
            options.gpu_model = m.name;
            return;
        }
    for (const auto& s : kShapes)
        if (profile == s.profile) {
            options.gpus = s.gpus;
            options.gpu_model = s.model;
            options.compute_nics = s.compute_nics;
            options.storage_ports = s.storage_ports;
            options.nic_gbps = s.nic_gbps;
            options.vm = s.vm;
            return;
        }
    throw SimError(
        fmt::format("--profile {}: expected one of {}", profile, fmt::join(profiles(), ", ")));
}

void buildGpuNode(TreeBuilder& b, const CreateOptions& o, const AddDevice& add)
{
    const auto& m = model(o.gpu_model);
    if (o.gpus < 0 || o.gpus > kMaxGpus)
        throw SimError(fmt::format("--gpus {}: must be from 0 to {}", o.gpus, kMaxGpus));
    const int nics = o.compute_nics < 0 ? o.gpus : o.compute_nics;
    if (nics > kMaxGpus)
        throw SimError(fmt::format("--compute-nics {}: must be from 0 to {}", nics, kMaxGpus));
    if (o.storage_ports < 0 || o.storage_ports > 2)
        throw SimError(fmt::format("--storage-ports {}: must be 0, 1 or 2", o.storage_ports));
    if (o.storage_cards < 0 || o.storage_cards > kMaxStorageCards)
        throw SimError(fmt::format("--storage-cards {}: must be from 0 to {}", o.storage_cards,
                                   kMaxStorageCards));
    if (o.nic_gbps != 0 && o.nic_gbps != 200)
        throw SimError(fmt::format("nic_gbps {}: 0 (the model's NIC) or 200", o.nic_gbps));
    // 200G: a ConnectX-7 trained at 2X NDR, as boards with two per GPU run them.
    const NicModel nic200{m.nic->device, m.nic->hca, "200 Gb/sec (2X NDR)", 200000,
                          m.nic->board_id};
    const NicModel& compute = o.nic_gbps == 200 ? nic200 : *m.nic;
    // In a VM the NIC is an SR-IOV VF whose PF the guest cannot see: a PCI function of its own
    // (no physfn), with the VF's device ID.
    const NicModel vf{"0x101e", compute.hca, compute.rate, compute.speed_mbps, compute.board_id};
    const int pairs = std::max(o.gpus, nics);
    for (int i = 0; i < o.gpus; ++i) {
        const int bus = pairBus(i);
        const int numa = o.vm ? -1 : i < (pairs + 1) / 2 ? 0 : 1;
        b.gpu(fmt::format("0000:{:02x}:01.0", bus), fmt::format("0000:{:02x}:01.0", bus - 1), numa,
              m.device_id, pairSwitch(m, o.vm, bus, 0));
    }
    const auto& v = vendorCatalog(kGpuNodeVendor);
    for (int i = 0; i < nics; ++i) {
        // NIC i sits beside GPU i; with more NICs than GPUs, the second NIC of GPU i - gpus
        // shares its switch; in a VM each NIC has a root port of its own.
        const bool second = o.gpus > 0 && i >= o.gpus;
        const int pair = second ? i - o.gpus : i;
        const int bus = pairBus(pair);
        const int numa = o.vm ? -1 : pair < (pairs + 1) / 2 ? 0 : 1;
        const auto root_port = fmt::format("0000:{:02x}:{}.0", bus - 1, o.vm ? "02" : "01");
        const auto bdf = o.vm ? fmt::format("0000:{:02x}:00.0", bus + 6)
                              : fmt::format("0000:{:02x}:{}.0", bus, second ? "02" : "00");
        const NicModel& model = o.vm ? vf : compute;
        nic(b, add, fmt::format("{}{}", v.ib_prefix, i),
            {bdf, root_port, v.driver, v.pci_vendor, model.device, "0x020000", numa,
             pairSwitch(m, o.vm, bus, second ? 2 : 1)},
            model,
            o.infiniband && !o.vm ? fmt::format("ib{}", i) : fmt::format("ens{}f0np0", i + 1), 0,
            o.channels, o.gpus > 0 ? i + 1 : 0); // no GPU: no compute NIC (nicd: storage)
    }
    // Storage: both ports of each ConnectX-7 storage card on socket 1, at 200G, under a root port
    // with no GPU (the first card at 0000:e1:00, the next at e3:00, ...). A card of its own
    // (another board id): its 200G is no compute card's 400G trained down.
    constexpr NicModel storage{kConnectX7.device, kConnectX7.hca, "200 Gb/sec (2X NDR)", 200000,
                               "MT_0000000891"};
    // With no NIC beside a GPU (a PCIe GPU server whose only RDMA card is its front end), the
    // card on a GPU's socket serves the GPUs: its ports are the compute rails (as nicd's roles
    // have it: inventory/nic_roles.hpp, NUMA decides where no NIC shares a switch with a GPU).
    const bool front_end_is_compute = nics == 0 && o.gpus >= 2 && !o.vm;
    int storage_rail = 0;
    for (int card = 0; card < o.storage_cards; ++card)
        for (int port = 0; port < o.storage_ports; ++port)
            nic(b, add, fmt::format("{}{}", v.ib_prefix, nics + card * o.storage_ports + port),
                {fmt::format("0000:{:02x}:00.{}", 0xe1 + 2 * card, port),
                 fmt::format("0000:{:02x}:01.0", 0xe0 + 2 * card),
                 v.driver,
                 v.pci_vendor,
                 storage.device,
                 "0x020000",
                 1,
                 {}},
                storage, fmt::format("ens{}f{}np{}", nics + 1 + card, port, port), port, o.channels,
                front_end_is_compute ? ++storage_rail : 0);
}

} // namespace nicd::sim
