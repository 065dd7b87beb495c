// `nicd-sim create`: the kernel-shaped tree of a simulated GPU node.
#include "counter_catalog.hpp"
#include "node_state.hpp"
#include "sim.hpp"

#include <fmt/format.h>

namespace nicd::sim {

namespace {

struct PortPlan {
    std::string link_layer = "Ethernet";
    bool up = true;
    std::string rate = "400 Gb/sec (4X NDR)";
};

class TreeBuilder {
public:
    explicit TreeBuilder(fs::path root) : root_(std::move(root)), sys_(root_ / "sys") {}

    // A PCI function under the root complex, bound to `driver`.
    fs::path pciFunction(const std::string& bdf, const std::string& driver, int numa)
    {
        auto dir = sys_ / "devices/pci0000:00/0000:00:01.0" / bdf;
        fs::create_directories(dir);
        fs::create_directories(sys_ / "bus/pci/drivers" / driver);
        relativeSymlink(sys_ / "bus/pci/drivers" / driver, dir / "driver");
        writeText(dir / "numa_node", std::to_string(numa) + "\n");
        writeText(dir / "vendor", driver == "mlx5_core" ? "0x15b3\n" : "0x8086\n");
        writeText(dir / "device", driver == "mlx5_core" ? "0x1021\n" : "0x15bb\n");
        return dir;
    }

    fs::path netdev(const fs::path& parent, const std::string& name, bool up, int dev_port = 0)
    {
        auto dir = parent / "net" / name;
        fs::create_directories(dir);
        writeText(dir / "operstate", up ? "up\n" : "down\n");
        writeText(dir / "carrier", up ? "1\n" : "0\n");
        writeText(dir / "ifindex", std::to_string(next_ifindex_++) + "\n");
        writeText(dir / "address", fmt::format("b8:3f:d2:00:00:{:02x}\n", next_ifindex_ & 0xff));
        writeText(dir / "mtu", "9000\n");
        writeText(dir / "speed", up ? "400000\n" : "-1\n");
        writeText(dir / "dev_port", std::to_string(dev_port) + "\n");
        if (parent.filename() != "net" && fs::exists(parent / "vendor"))
            relativeSymlink(parent, dir / "device");
        relativeSymlink(dir, sys_ / "class/net" / name);
        return dir;
    }

    fs::path ibDevice(const fs::path& pci, const std::string& name, const std::string& hca,
                      const std::vector<PortPlan>& ports, const std::vector<std::string>& ndevs,
                      int index)
    {
        auto dir = pci / "infiniband" / name;
        fs::create_directories(dir);
        relativeSymlink(pci, dir / "device");
        writeText(dir / "fw_ver", "28.41.1000\n");
        writeText(dir / "board_id", hca == "MT41692" ? "MT_0000000883\n" : "MT_0000000838\n");
        writeText(dir / "hca_type", hca + "\n");
        writeText(dir / "node_guid",
                  fmt::format("b83f:d203:00{:02x}:{:04x}\n", index, 0x1a2b + index));
        writeText(dir / "node_type", "1: CA\n");
        for (size_t i = 0; i < ports.size(); ++i) {
            const auto& p = ports[i];
            auto pd = dir / "ports" / std::to_string(i + 1);
            fs::create_directories(pd / "counters");
            fs::create_directories(pd / "hw_counters");
            writeText(pd / "state", p.up ? "4: ACTIVE\n" : "1: DOWN\n");
            writeText(pd / "phys_state", p.up ? "5: LinkUp\n" : "3: Disabled\n");
            writeText(pd / "link_layer", p.link_layer + "\n");
            writeText(pd / "rate", p.rate + "\n");
            writeText(pd / "lid",
                      p.link_layer == "InfiniBand" ? fmt::format("0x{:x}\n", 10 + index) : "0x0\n");
            for (const auto& c : ibCounters())
                writeNumber(pd / "counters" / c.name, 0);
            for (const auto& c : hwCounters())
                writeNumber(pd / "hw_counters" / c.name,
                            std::string(c.name) == "lifespan" ? 12 : 0);
            if (p.link_layer == "Ethernet") {
                fs::create_directories(pd / "gid_attrs/ndevs");
                for (size_t g = 0; g < 4; ++g)
                    writeText(pd / "gid_attrs/ndevs" / std::to_string(g),
                              ndevs.empty() ? "" : ndevs[0] + "\n");
            }
        }
        relativeSymlink(dir, sys_ / "class/infiniband" / name);
        return dir;
    }

    void ethtool(const std::string& netdev)
    {
        std::vector<std::pair<std::string, uint64_t>> stats;
        for (const auto& c : ethtoolStats())
            stats.emplace_back(c.name, 0);
        writeEthtool(simDir(root_) / "ethtool" / netdev, stats);
    }

    SimDevice roce(NodeState& st, int index, const std::string& bdf, const std::string& netdev_name,
                   bool up)
    {
        auto pci = pciFunction(bdf, "mlx5_core", index < 4 ? 0 : 1);
        netdev(pci, netdev_name, up);
        auto name = fmt::format("mlx5_{}", index);
        auto ib = ibDevice(pci, name, "MT4129", {{"Ethernet", up, "400 Gb/sec (4X NDR)"}},
                           {netdev_name}, index);
        ethtool(netdev_name);
        SimDevice d{name,  "pf", fs::relative(ib, root_).string(), {netdev_name}, {netdev_name},
                    false, false};
        st.devices[name] = d;
        return d;
    }

    void managementNic()
    {
        auto pci = pciFunction("0000:00:1f.6", "e1000e", 0);
        netdev(pci, "eno1", true);
    }

    void mixedNode(NodeState& st)
    {
        roce(st, 0, "0000:1a:00.0", "ens1f0np0", true);
        roce(st, 1, "0000:3b:00.0", "ens2f0np0", true);
        roce(st, 2, "0000:4c:00.0", "ens3f0np0", true);
        roce(st, 3, "0000:5d:00.0", "ens4f0np0", true);

        // An InfiniBand port (IPoIB netdev ib0).
        auto ibpci = pciFunction("0000:9a:00.0", "mlx5_core", 1);
        netdev(ibpci, "ib0", true);
        auto ib = ibDevice(ibpci, "mlx5_4", "MT4129", {{"InfiniBand", true, "400 Gb/sec (4X NDR)"}},
                           {}, 4);
        st.devices["mlx5_4"] = {"mlx5_4", "ib", fs::relative(ib, root_).string(), {"ib0"}, {},
                                false,    false};

        // A RoCE LAG: two PFs enslaved to bond0; the LAG RDMA device sits on the first PF.
        auto lag0 = pciFunction("0000:ab:00.0", "mlx5_core", 1);
        auto lag1 = pciFunction("0000:ab:00.1", "mlx5_core", 1);
        auto m0 = netdev(lag0, "ens5f0np0", true, 0);
        auto m1 = netdev(lag1, "ens5f1np1", true, 1);
        auto bond = sys_ / "devices/virtual/net/bond0";
        fs::create_directories(bond / "bonding");
        writeText(bond / "operstate", "up\n");
        writeText(bond / "carrier", "1\n");
        writeText(bond / "ifindex", std::to_string(next_ifindex_++) + "\n");
        writeText(bond / "bonding/slaves", "ens5f0np0 ens5f1np1\n");
        writeText(bond / "bonding/mode", "802.3ad 4\n");
        relativeSymlink(bond, sys_ / "class/net/bond0");
        relativeSymlink(bond, m0 / "master");
        relativeSymlink(bond, m1 / "master");
        auto lag = ibDevice(lag0, "mlx5_bond_0", "MT4129",
                            {{"Ethernet", true, "800 Gb/sec (2X NDR)"}}, {"bond0"}, 7);
        ethtool("ens5f0np0");
        ethtool("ens5f1np1");
        st.devices["mlx5_bond_0"] = {"mlx5_bond_0",
                                     "lag",
                                     fs::relative(lag, root_).string(),
                                     {"bond0"},
                                     {"ens5f0np0", "ens5f1np1"},
                                     false,
                                     false};

        // A VF of mlx5_0.
        auto pf = sys_ / "devices/pci0000:00/0000:00:01.0/0000:1a:00.0";
        auto vfpci = pciFunction("0000:1a:00.2", "mlx5_core", 0);
        relativeSymlink(pf, vfpci / "physfn");
        relativeSymlink(vfpci, pf / "virtfn0");
        netdev(vfpci, "ens1f0v0", true);
        auto vf = ibDevice(vfpci, "mlx5_5", "MT4130", {{"Ethernet", true, "400 Gb/sec (4X NDR)"}},
                           {"ens1f0v0"}, 5);
        st.devices["mlx5_5"] = {"mlx5_5", "vf", fs::relative(vf, root_).string(), {"ens1f0v0"}, {},
                                false,    false};

        // A RoCE PF whose port is down (uncabled).
        roce(st, 6, "0000:cd:00.0", "ens6f0np0", false);
    }

    void manyNode(NodeState& st, int n)
    {
        for (int i = 0; i < n; ++i)
            roce(st, i, fmt::format("0000:{:02x}:00.{}", 0x10 + i / 8, i % 8),
                 fmt::format("ens{}f{}np{}", i / 8 + 1, i % 8, i % 8), true);
    }

    void hostFiles(const CreateOptions& o)
    {
        fs::create_directories(root_ / "proc/net");
        writeText(
            root_ / "proc/net/route",
            "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
            "eno1\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
            "eno1\t0001A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
            "ens1f0np0\t00000A0A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n");
        fs::create_directories(root_ / "proc/sys/kernel/random");
        writeText(root_ / "proc/sys/kernel/random/boot_id", o.boot_id + "\n");
        for (const char* d : {"etc/nicd", "var/lib/nicd", "var/lib/prometheus/node-exporter",
                              "var/log/journal", "sys/kernel/config", "run"})
            fs::create_directories(root_ / d);
        if (o.driver_ready) {
            fs::create_directories(root_ / "run/mellanox/drivers");
            writeText(root_ / "run/mellanox/drivers/.driver-ready", "");
        }
    }

private:
    fs::path root_;
    fs::path sys_;
    int next_ifindex_ = 2;
};

} // namespace

void create(const fs::path& root, const CreateOptions& options)
{
    if (fs::exists(root / "sys") || fs::exists(simDir(root) / "state.json")) {
        if (!options.force)
            throw SimError(root.string() + " already holds a node (use --force to replace it)");
        for (const char* d : {"sys", "proc", "run", "etc", "var"})
            fs::remove_all(root / d);
    }
    if (options.devices < 0 || options.devices > 256)
        throw SimError("--devices must be from 1 to 256");
    fs::create_directories(simDir(root) / "ethtool");
    NodeLock lock(root);
    NodeState st;
    TreeBuilder b(root);
    b.managementNic();
    if (options.devices > 0)
        b.manyNode(st, options.devices);
    else
        b.mixedNode(st);
    b.hostFiles(options);
    st.save(root);
}

} // namespace nicd::sim
