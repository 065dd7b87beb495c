// Builds small sysfs trees in the real kernel's layout under a test root, for tests of anything
// that reads sysfs (inventory, counters, netdev state):
//
//   /sys/devices/pci0000:00/0000:00:02.0/<bdf>/                 the PCI function: numa_node,
//       driver -> /sys/bus/pci/drivers/<driver>                 physfn (VF), virtfnN (PF)
//       infiniband/<ibdev>/  device -> ../../  fw_ver …  ports/<n>/{state,…,counters/,gid_attrs/}
//       net/<netdev>/        device -> ../../  operstate carrier ifindex dev_port dev_id [master]
//   /sys/devices/virtual/net/<bond>/bonding/slaves              a bond; slaves link `master` to it
//   /sys/class/infiniband/<ibdev> -> ../../devices/…/infiniband/<ibdev>   (relative links)
//   /sys/class/net/<netdev>       -> ../../devices/…/net/<netdev>
//
// Every value has a realistic default (a ConnectX-7 RoCE port that is up) and can be changed;
// `write` and `path` give access to anything else.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::test {

class SysfsTree {
public:
    struct PciFunction {
        std::string bdf{};                // "0000:3b:00.0"
        std::string driver = "mlx5_core"; // empty: no driver link
        int numa_node = 0;
        std::string physfn{}; // for a VF: the PF's bdf (it gets physfn, the PF gets virtfnN)
    };
    struct IbDevice {
        std::string name{};
        std::string bdf{}; // empty: a virtual device (/sys/devices/virtual/infiniband)
        std::string fw_ver = "28.41.1000";
        std::string board_id = "MT_0000000838";
        std::string hca_type = "MT4129";
        std::string node_guid = "a088:c203:0038:b8e6";
    };
    struct Port {
        uint32_t num = 1;
        std::string state = "4: ACTIVE";
        std::string phys_state = "5: LinkUp";
        std::string link_layer = "Ethernet";
        std::string rate = "400 Gb/sec (4X NDR)";
        std::vector<std::string> gid_netdevs{}; // gid_attrs/ndevs/<index>; "" leaves an unused GID
        std::map<std::string, std::string> counters{}; // counters/<name> -> content
    };
    struct Netdev {
        std::string name{};
        std::string bdf{}; // empty: a virtual netdev
        std::string operstate = "up";
        std::string carrier = "1";    // empty: no file
        int ifindex = 0;              // 0: picked
        std::string dev_port{};       // empty: no file
        std::string dev_id{};         // empty: no file
        std::string phys_port_name{}; // empty: no file ("p0": uplink, "pf0vf0": representor)
    };

    explicit SysfsTree(std::filesystem::path root) : root_(std::move(root))
    {
        std::filesystem::create_directories(path("/sys/class/infiniband"));
        std::filesystem::create_directories(path("/sys/class/net"));
    }

    const std::filesystem::path& root() const { return root_; }

    // "/sys/class/net" -> <root>/sys/class/net
    std::filesystem::path path(std::string_view absolute) const
    {
        while (!absolute.empty() && absolute.front() == '/')
            absolute.remove_prefix(1);
        return root_ / std::filesystem::path(absolute);
    }

    // Writes `content` and a newline, as sysfs prints values, creating directories.
    void write(std::string_view absolute, std::string_view content) const
    {
        auto p = path(absolute);
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p) << content << "\n";
    }

    // A relative symlink at `link` to `target` (both host paths), as sysfs makes them.
    void link(std::string_view link, std::string_view target) const
    {
        auto l = path(link);
        std::filesystem::create_directories(l.parent_path());
        std::filesystem::create_symlink(path(target).lexically_relative(l.parent_path()), l);
    }

    // Puts a directory where file `absolute` was: reading it then fails (EISDIR), even as root.
    void makeUnreadable(std::string_view absolute) const
    {
        auto p = path(absolute);
        std::filesystem::remove(p);
        std::filesystem::create_directories(p);
    }

    static std::string pciDir(const std::string& bdf)
    {
        return "/sys/devices/pci0000:00/0000:00:02.0/" + bdf;
    }

    void addPciFunction(const PciFunction& f) const
    {
        auto dir = pciDir(f.bdf);
        write(dir + "/numa_node", std::to_string(f.numa_node));
        write(dir + "/vendor", "0x15b3");
        if (!f.driver.empty()) {
            std::filesystem::create_directories(path("/sys/bus/pci/drivers/" + f.driver));
            link(dir + "/driver", "/sys/bus/pci/drivers/" + f.driver);
        }
        if (!f.physfn.empty()) {
            link(dir + "/physfn", pciDir(f.physfn));
            link(pciDir(f.physfn) + "/virtfn0", dir);
        }
    }

    // The device directory (host path) of `name`.
    std::string ibDir(const std::string& name) const
    {
        auto it = ib_dirs_.find(name);
        return it == ib_dirs_.end() ? "/sys/class/infiniband/" + name : it->second;
    }

    void addIbDevice(const IbDevice& d)
    {
        auto dir = d.bdf.empty() ? "/sys/devices/virtual/infiniband/" + d.name
                                 : pciDir(d.bdf) + "/infiniband/" + d.name;
        ib_dirs_[d.name] = dir;
        std::filesystem::create_directories(path(dir + "/ports"));
        if (!d.bdf.empty())
            link(dir + "/device", pciDir(d.bdf));
        for (auto [file, value] : {std::pair{"fw_ver", &d.fw_ver},
                                   {"board_id", &d.board_id},
                                   {"hca_type", &d.hca_type},
                                   {"node_guid", &d.node_guid}})
            if (!value->empty())
                write(dir + "/" + file, *value);
        write(dir + "/node_type", "1: CA");
        link("/sys/class/infiniband/" + d.name, dir);
    }

    void addPort(const std::string& ibdev, const Port& p) const
    {
        auto dir = ibDir(ibdev) + "/ports/" + std::to_string(p.num);
        write(dir + "/state", p.state);
        write(dir + "/phys_state", p.phys_state);
        write(dir + "/link_layer", p.link_layer);
        write(dir + "/rate", p.rate);
        for (size_t i = 0; i < p.gid_netdevs.size(); ++i) {
            // An unused GID's ndevs file exists but reads nothing useful.
            write(dir + "/gid_attrs/ndevs/" + std::to_string(i), p.gid_netdevs[i]);
            write(dir + "/gid_attrs/types/" + std::to_string(i), "RoCE v2");
        }
        std::filesystem::create_directories(path(dir + "/counters"));
        for (const auto& [name, value] : p.counters)
            write(dir + "/counters/" + name, value);
    }

    // The IB PMA counter files an mlx5 port has (ext table), all starting at `value`.
    static std::map<std::string, std::string> pmaCounters(uint64_t value = 0)
    {
        std::map<std::string, std::string> out;
        for (const char* name : {"VL15_dropped",
                                 "excessive_buffer_overrun_errors",
                                 "link_downed",
                                 "link_error_recovery",
                                 "local_link_integrity_errors",
                                 "multicast_rcv_packets",
                                 "multicast_xmit_packets",
                                 "port_rcv_constraint_errors",
                                 "port_rcv_data",
                                 "port_rcv_errors",
                                 "port_rcv_packets",
                                 "port_rcv_remote_physical_errors",
                                 "port_rcv_switch_relay_errors",
                                 "port_xmit_constraint_errors",
                                 "port_xmit_data",
                                 "port_xmit_discards",
                                 "port_xmit_packets",
                                 "port_xmit_wait",
                                 "symbol_error",
                                 "unicast_rcv_packets",
                                 "unicast_xmit_packets"})
            out[name] = std::to_string(value);
        return out;
    }

    std::string netDir(const std::string& name) const
    {
        auto it = net_dirs_.find(name);
        return it == net_dirs_.end() ? "/sys/class/net/" + name : it->second;
    }

    void addNetdev(const Netdev& n)
    {
        auto dir =
            n.bdf.empty() ? "/sys/devices/virtual/net/" + n.name : pciDir(n.bdf) + "/net/" + n.name;
        net_dirs_[n.name] = dir;
        write(dir + "/operstate", n.operstate);
        if (!n.carrier.empty())
            write(dir + "/carrier", n.carrier);
        write(dir + "/ifindex", std::to_string(n.ifindex ? n.ifindex : next_ifindex_++));
        if (!n.dev_port.empty())
            write(dir + "/dev_port", n.dev_port);
        if (!n.dev_id.empty())
            write(dir + "/dev_id", n.dev_id);
        if (!n.phys_port_name.empty())
            write(dir + "/phys_port_name", n.phys_port_name);
        if (!n.bdf.empty())
            link(dir + "/device", pciDir(n.bdf));
        link("/sys/class/net/" + n.name, dir);
    }

    // A bond over existing netdevs: bonding/slaves, and on each slave `master` and `upper_<bond>`.
    void addBond(const std::string& name, const std::vector<std::string>& slaves)
    {
        addNetdev({.name = name});
        std::string list;
        for (const auto& s : slaves) {
            list += (list.empty() ? "" : " ") + s;
            link(netDir(s) + "/master", netDir(name));
            link(netDir(s) + "/upper_" + name, netDir(name));
            link(netDir(name) + "/lower_" + s, netDir(s));
        }
        write(netDir(name) + "/bonding/slaves", list);
        write(netDir(name) + "/bonding/mode", "802.3ad 4");
    }

private:
    std::filesystem::path root_;
    std::map<std::string, std::string> ib_dirs_;
    std::map<std::string, std::string> net_dirs_;
    int next_ifindex_ = 10;
};

} // namespace nicd::test
