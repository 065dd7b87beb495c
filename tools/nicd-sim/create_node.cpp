// `nicd-sim create`: the default mixed GPU node, or N identical RoCE PFs for the benchmark, their
// RoCE PFs of the vendors `--vendor` names.
#include "dcb_state.hpp"
#include "ecn_state.hpp"
#include "ethtool_catalog.hpp"
#include "gpu_node.hpp"
#include "readiness_twins.hpp"
#include "signal_state.hpp"
#include "tree_builder.hpp"
#include "vendor_catalog.hpp"

#include <fmt/format.h>

#include <array>
#include <map>

namespace nicd::sim {

namespace {

constexpr const char* kClassEthernet = "0x020000";
constexpr const char* kClassInfiniBand = "0x020700";

// A share of full load in [0.5, 1], the same for the same seed and device name (FNV-1a, then a
// splitmix64 round: stable across compilers and runs).
double deviceLoad(uint64_t seed, const std::string& name)
{
    uint64_t h = 14695981039346656037ULL ^ seed;
    for (unsigned char c : name)
        h = (h ^ c) * 1099511628211ULL;
    h += 0x9e3779b97f4a7c15ULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return 0.5 + 0.5 * static_cast<double>(h >> 11) / static_cast<double>(1ULL << 53);
}

PciPlan vendorFunction(const std::string& vendor, const std::string& bdf,
                       const std::string& root_port, int numa, bool infiniband = false,
                       bool vf = false)
{
    const auto& v = vendorCatalog(vendor);
    return {bdf,
            root_port,
            v.driver,
            v.pci_vendor,
            vf ? v.vf_pci_device : v.pci_device,
            infiniband ? kClassInfiniBand : kClassEthernet,
            numa,
            {}};
}

// `n` devices dealt to `vendors` in consecutive blocks as even as possible, the first vendors
// taking one more: 5 to {mlx5, bnxt} is 3 and 2.
std::vector<int> dealt(int n, size_t vendors)
{
    std::vector<int> counts(vendors, n / static_cast<int>(vendors));
    for (size_t i = 0; i < static_cast<size_t>(n) % vendors; ++i)
        ++counts[i];
    return counts;
}

class NodePlanner {
public:
    NodePlanner(const fs::path& root, NodeState& st, unsigned channels)
        : b_(root), st_(st), channels_(channels)
    {
    }

    void add(SimDevice d, const fs::path& ib_dir)
    {
        d.ib_dir = b_.relative(ib_dir).string();
        d.load = deviceLoad(st_.seed, d.name);
        st_.devices[d.name] = d;
    }

    // The next RDMA device name of a vendor, in probe order: mlx5_0, mlx5_1, ...; bnxt_re0, ...
    std::string nextName(const std::string& vendor)
    {
        return vendorCatalog(vendor).ib_prefix + std::to_string(next_index_[vendor]++);
    }

    // A RoCE PF of `vendor` with one port and its uplink netdev; `rail` 1.. for a compute NIC.
    fs::path rocePf(const std::string& vendor, const std::string& bdf, const std::string& root_port,
                    int numa, const std::string& netdev, int dev_port, bool up, int rail = 0)
    {
        const auto& v = vendorCatalog(vendor);
        auto name = nextName(vendor);
        auto dir = b_.pciFunction(
            {bdf, root_port, v.driver, v.pci_vendor, v.pci_device, kClassEthernet, numa, {}});
        if (up) // the uncabled card's kernel predates mlx5 hwmon: no sensors (nor other signals)
            b_.hwmon(dir, vendor);
        b_.netdev(dir, {netdev, up, dev_port, fmt::format("p{}", dev_port)});
        if (*v.rdma_aux_device)
            b_.auxDevice(dir, v, next_aux_id_++);
        auto ib =
            b_.ibDevice(dir, name, v.hca_type, {{"Ethernet", up}}, netdev, v.board_id, vendor);
        b_.ethtool(netdev, true, channels_, vendor);
        SimDevice d{name, "pf", bdf, "", {netdev}, {netdev}};
        d.vendor = vendor;
        d.rail = rail;
        add(std::move(d), ib);
        return dir;
    }

    void managementNic()
    {
        auto dir = b_.pciFunction(
            {"0000:03:00.0", "0000:00:1c.0", "igb", "0x8086", "0x1533", kClassEthernet, 0, {}});
        b_.netdev(dir, {"eno1", true, 0, "", false, 1000});
    }

    // GPUs as on a GPU node: each compute NIC shares its PCIe root port (the sim's switch) with a
    // GPU. Socket 0 only: the NICs on socket 1 (IB, the LAG, the uncabled one) are storage NICs.
    void mixedNodeGpus()
    {
        b_.gpu("0000:1a:01.0", "0000:19:01.0", 0);
        b_.gpu("0000:3b:01.0", "0000:3a:01.0", 0);
        b_.gpu("0000:4c:01.0", "0000:4b:01.0", 0);
        b_.gpu("0000:5d:01.0", "0000:5c:01.0", 0);
    }

    // The five RoCE PFs (four compute NICs and the uncabled one) are dealt to `vendors`; the IB
    // port, the LAG and the VF are mlx5's (bnxt has no InfiniBand, upstream bnxt_re no LAG
    // device), the VF only when the first compute NIC is an mlx5 PF to hang it off.
    void mixedNode(const std::vector<std::string>& vendors)
    {
        mixedNodeGpus();
        std::vector<std::string> pf_vendor;
        auto counts = dealt(5, vendors.size());
        for (size_t v = 0; v < vendors.size(); ++v)
            pf_vendor.insert(pf_vendor.end(), static_cast<size_t>(counts[v]), vendors[v]);
        auto pf0 = rocePf(pf_vendor[0], "0000:1a:00.0", "0000:19:01.0", 0, "ens1f0np0", 0, true, 1);
        rocePf(pf_vendor[1], "0000:3b:00.0", "0000:3a:01.0", 0, "ens2f0np0", 0, true, 2);
        rocePf(pf_vendor[2], "0000:4c:00.0", "0000:4b:01.0", 0, "ens3f0np0", 0, true, 3);
        rocePf(pf_vendor[3], "0000:5d:00.0", "0000:5c:01.0", 0, "ens4f0np0", 0, true, 4);

        // An InfiniBand NDR port with its IPoIB netdev.
        auto ibpci = vendorFunction(kInfinibandVendor, "0000:9a:00.0", "0000:99:01.0", 1, true);
        auto ibdir = b_.pciFunction(ibpci);
        b_.hwmon(ibdir);
        b_.netdev(ibdir, {"ib0", true, 0, "", true});
        auto ibname = nextName(kInfinibandVendor);
        add({ibname, "ib", ibpci.bdf, "", {"ib0"}, {}},
            b_.ibDevice(ibdir, ibname, vendorCatalog(kInfinibandVendor).hca_type,
                        {{"InfiniBand", true}}, ""));

        // A RoCE LAG: both PFs of one card enslaved to bond0 (802.3ad); one RDMA device,
        // mlx5_bond_0, on PF0, whose GIDs point at the bond (counters.md, qos-provisioning §6.4).
        auto lag0 = b_.pciFunction(vendorFunction(kLagVendor, "0000:ab:00.0", "0000:aa:01.0", 1));
        auto lag1 = b_.pciFunction(vendorFunction(kLagVendor, "0000:ab:00.1", "0000:aa:01.0", 1));
        b_.hwmon(lag0);
        b_.hwmon(lag1);
        auto m0 = b_.netdev(lag0, {"ens5f0np0", true, 0, "p0"});
        auto m1 = b_.netdev(lag1, {"ens5f1np1", true, 1, "p1"});
        b_.bond("bond0", {m0, m1});
        b_.ethtool("ens5f0np0", true, channels_);
        b_.ethtool("ens5f1np1", true, channels_);
        const auto& lag_vendor = vendorCatalog(kLagVendor); // mlx5_bond_<n>: mlx5's RoCE LAG
        const std::string lag_name = std::string(lag_vendor.ib_prefix) + "bond_0";
        add({lag_name, "lag", "0000:ab:00.0", "", {"bond0"}, {"ens5f0np0", "ens5f1np1"}},
            b_.ibDevice(lag0, lag_name, lag_vendor.hca_type, {{"Ethernet", true}}, "bond0"));

        // A VF of the first compute NIC (SR-IOV), on the PF's bus.
        if (*vendorCatalog(pf_vendor[0]).vf_hca_type) {
            auto vfpci =
                vendorFunction(pf_vendor[0], "0000:1a:00.2", "0000:19:01.0", 0, false, true);
            auto vfdir = b_.pciFunction(vfpci);
            b_.sriov(pf0, vfdir, 0);
            b_.netdev(vfdir, {"ens1f0v0", true, 0, ""});
            b_.ethtool("ens1f0v0", false, channels_);
            auto vfname = nextName(pf_vendor[0]);
            add({vfname, "vf", vfpci.bdf, "", {"ens1f0v0"}, {"ens1f0v0"}},
                b_.ibDevice(vfdir, vfname, vendorCatalog(pf_vendor[0]).vf_hca_type,
                            {{"Ethernet", true}}, "ens1f0v0"));
        }

        // A RoCE PF whose port is down (uncabled).
        rocePf(pf_vendor[4], "0000:cd:00.0", "0000:cc:01.0", 1, "ens6f0np0", 0, false);
    }

    // Dual-port cards, one bus each behind its own root port: the N PFs are dealt to `vendors`,
    // each vendor's on cards of its own; device i of a vendor is port i%2 of its card i/2. Past
    // 112 cards (buses 0x10..0xee of domain 0000) the next cards go to domains 0001, 0002...,
    // as on machines with several PCI segments.
    void manyNode(int n, const std::vector<std::string>& vendors)
    {
        auto counts = dealt(n, vendors.size());
        int cards = 0;
        for (int c : counts)
            cards += (c + 1) / 2;
        // One GPU per socket: every NIC is a compute NIC.
        b_.gpu("0000:0a:00.0", "0000:09:01.0", 0);
        if (cards > 1)
            b_.gpu("0000:0c:00.0", "0000:0b:01.0", 1);
        int first_card = 0;
        int rail = 0;
        for (size_t v = 0; v < vendors.size(); ++v) {
            for (int i = 0; i < counts[v]; ++i) {
                int card = first_card + i / 2;
                int fn = i % 2;
                constexpr int kCardsPerDomain = 112;
                int domain = card / kCardsPerDomain;
                int bus = 0x10 + 2 * (card % kCardsPerDomain);
                rocePf(vendors[v], fmt::format("{:04x}:{:02x}:00.{}", domain, bus, fn),
                       fmt::format("{:04x}:{:02x}:01.0", domain, bus - 1),
                       card < (cards + 1) / 2 ? 0 : 1,
                       fmt::format("ens{}f{}np{}", card + 1, fn, fn), fn, true, ++rail);
            }
            first_card += (counts[v] + 1) / 2;
        }
    }

    TreeBuilder& builder() { return b_; }

private:
    TreeBuilder b_;
    NodeState& st_;
    unsigned channels_; // of every netdev (a VF's too: the simulator gives it the PF's)
    std::map<std::string, int> next_index_; // per vendor
    int next_aux_id_ = 0;                   // bnxt_en's IDA
};

} // namespace

void create(const fs::path& root, const CreateOptions& options)
{
    if (options.devices < 0 || options.devices > kMaxDevices)
        throw SimError(fmt::format("--devices {}: must be from 1 to {} (0: the default node)",
                                   options.devices, kMaxDevices));
    if (options.gpus >= 0 && options.devices > 0)
        throw SimError("--devices and --gpus (or --profile) make different nodes: give one");
    auto vendors = parseVendors(options.vendors);
    if (options.gpus >= 0 && vendors != std::vector<std::string>{kGpuNodeVendor})
        throw SimError("--vendor with --gpus (or --profile): a GPU node's NICs are the ConnectX "
                       "its platform ships (mlx5 only)");
    if (options.channels < 1 || options.channels > kMaxChannels)
        throw SimError(
            fmt::format("--channels {}: must be from 1 to {}", options.channels, kMaxChannels));
    // The node is made from scratch: nothing of its top directories may be there already
    // (a symlink among them would take the writes below out of the tree).
    constexpr std::array kTop = {"sys", "proc", "run", "etc", "var", "dev"};
    for (const char* d : kTop) {
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(root / d, ec)))
            continue;
        if (!options.force)
            throw SimError(fs::exists(root / "sys") || fs::exists(simDir(root))
                               ? root.string() + " already holds a node (use --force to replace it)"
                               : (root / d).string() +
                                     " is in the way (a node is made from scratch; --force "
                                     "removes it)");
    }
    if (options.force)
        for (const char* d : kTop)
            fs::remove_all(root / d);
    NodeLock lock(root, true);
    NodeState st;
    st.seed = options.seed;
    NodePlanner plan(root, st, options.channels);
    plan.managementNic();
    if (options.gpus >= 0)
        buildGpuNode(plan.builder(), options,
                     [&plan](SimDevice d, const fs::path& ib) { plan.add(std::move(d), ib); });
    else if (options.devices > 0)
        plan.manyNode(options.devices, vendors);
    else
        plan.mixedNode(vendors);
    plan.builder().hostFiles(options);
    createQosState(root, st);
    createEcnState(root, st);
    createSignalState(root, st);
    createReadinessTwins(root, st);
    // More simulated state (e.g. QoS/DCB files under run/nicd-sim/dcb/) is created here, one
    // call each, from st.devices (every device's netdevs and ethtool_netdevs).
    st.save(root);
}

} // namespace nicd::sim
