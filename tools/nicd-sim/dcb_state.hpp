// The simulated node's QoS state: per-netdev DCB files and the rdma_cm configfs directory.
//
//   DIR/run/nicd-sim/dcb/<netdev>   what an rtnetlink IEEE_GET on the netdev would report; text,
//                                   one key=value per line, decimal, '#' comment lines:
//                                     pfc_cap=8    pfc_en=0 (bit i = PFC on priority i)
//                                     mbc=0        delay=7 (mlx5: cable length, metres)
//                                     app=5,3,26   (selector,priority,protocol; 0 or more lines)
//                                   and, for a driver with these ops (bnxt), optional:
//                                     dcbx=9       (DCB_ATTR_DCBX: 9 HOST|IEEE, the host owns
//                                                  DCB; 10 LLD_MANAGED|IEEE, the NIC firmware's
//                                                  DCBX agent does and every set is refused)
//                                     ets_cap=8    (the reply has ETS; its arrays default to 0)
//                                     prio_tc=0,0,0,1,0,0,0,0  tc_tsa=2,2,0,...  tc_bw=50,50,0,...
//                                   Only RoCE PF netdevs (and LAG members) have one: a netdev
//                                   without a file has no DCB in its driver (VF, bond, IPoIB).
//   DIR/sys/kernel/config/rdma_cm/  rdma_cm's configfs directory (the module is loaded); the
//                                   mlx5 plugin makes the <ibdev>/ports/<n>/default_roce_tos
//                                   files as the kernel would on mkdir.
//
// The same format is read and written by the mlx5 plugin
// (plugins/sdk/include/nicd/plugin/sdk/dcb_sim_format.h); the simulator keeps its own code for it
// on purpose, so the tests check the two agree.
#pragma once

#include "node_state.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nicd::sim {

struct DcbApp {
    uint8_t selector = 0;
    uint8_t priority = 0;
    uint16_t protocol = 0;
    bool operator==(const DcbApp&) const = default;
};

struct DcbState {
    uint8_t pfc_cap = 8;
    uint8_t pfc_en = 0;
    uint8_t mbc = 0;
    uint16_t delay = 7;
    std::vector<DcbApp> apps;
    std::optional<uint8_t> dcbx;    // absent: the driver reports none (no getdcbx)
    std::optional<uint8_t> ets_cap; // absent: no ETS in the reply
    std::array<uint8_t, 8> prio_tc{};
    std::array<uint8_t, 8> tc_tsa{};
    std::array<uint8_t, 8> tc_bw{};
    bool operator==(const DcbState&) const = default;
};

inline constexpr uint8_t kDscpSelector = 5;
inline constexpr uint8_t kDcbxHost = 0x09;     // DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE
inline constexpr uint8_t kDcbxFirmware = 0x0a; // DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE

// A bnxt PF's netdev as a fresh host-owned port reads (bnxt_dcb.c bnxt_dcb_init and
// bnxt_dcbnl_ieee_getets/getpfc before anything is set): DCBX 0x09, ETS with only ets_cap (the
// firmware's 8 queues less the RoCE CNP queue: 7), PFC off with pfc_cap 3 (the firmware's
// lossless queues), no APP entry.
DcbState freshBnxtDcb();

fs::path dcbFile(const fs::path& root, const std::string& netdev);
std::string formatDcb(const DcbState& s);
DcbState parseDcb(const std::string& text, const std::string& where); // throws SimError
DcbState readDcb(const fs::path& root, const std::string& netdev);    // throws SimError
void writeDcb(const fs::path& root, const std::string& netdev, const DcbState& s);

// The netdevs of a device that have DCB: a PF's netdev, a LAG's members; none for VF and IB.
std::vector<std::string> dcbNetdevs(const SimDevice& d);

// At create: every DCB netdev as a fresh NIC shows it (mlx5: trust PCP, no DSCP entries; PFC off,
// pfc_cap 8, cable length 7; bnxt: freshBnxtDcb), and the rdma_cm configfs directory.
void createQosState(const fs::path& root, const NodeState& st);

// Another tool changed the device's DCB: PFC moved to priority 4 only, DSCP APP entries removed
// (trust back to PCP).
void qosDrift(const fs::path& root, const std::string& dev);
// The NIC firmware's DCBX agent takes the device's DCB (`firmware`: DCBX 0x0a, every set refused
// with EINVAL, as bnxt does while its firmware LLDP/DCBX agent runs) or hands it back to the host
// (0x09). Only netdevs whose file has a dcbx byte (bnxt's twin) have an owner to change.
void dcbxOwner(const fs::path& root, const std::string& dev, bool firmware);
// The device re-registered (driver reload, LAG change): the rdma_cm default ToS of every port is
// 0 again and a MOFED traffic_class is unset.
void tosReset(const fs::path& root, const std::string& dev);

} // namespace nicd::sim
