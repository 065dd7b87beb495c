// What the readiness checks of a compute port read (readiness/readiness_source.hpp): whether NCCL
// can use the port at full rate. Plain values as the kernel gave them; what could not be read is
// absent or says why, and a check that lacks its input says "unknown", never "ok" or "failed".
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nicd {

using Gid = std::array<uint8_t, 16>; // network byte order, as ports/N/gids/<i> prints it

// One used entry of a port's GID table (ports/N/gids/<index>, a zero GID is an unused entry).
struct GidEntry {
    uint32_t index = 0;
    Gid gid{};
    std::string type;   // gid_attrs/types/<index>: "RoCE v2", "IB/RoCE v1"; empty: unreadable
    std::string netdev; // gid_attrs/ndevs/<index>; empty: none (InfiniBand) or unreadable

    bool operator==(const GidEntry&) const = default;
};

// An InfiniBand port's management datagram devices: ib_umad registers a umad<N> and an issm<N>
// per port, each naming the port in its `ibdev` and `port` files, and udev makes their
// /dev/infiniband nodes. libibumad opens umad<N> for the fabric tools (perfquery, ibdiagnet, a
// subnet manager, SA queries); opening issm<N> sets the port's IsSM bit (a subnet manager).
struct MadPortInputs {
    bool listed = false;    // <function>/infiniband_mad/ (no PCI parent: /sys/class/
                            // infiniband_mad/) listed, each umad/issm entry read
    std::string umad;       // "umad1": the entry naming the port; empty: none
    bool umad_node = false; // /dev/infiniband/<umad> exists
    std::string issm;       // "issm1"; empty: none
    bool issm_node = false; // /dev/infiniband/<issm> exists
    // ports/N/cap_mask has IsSMDisabled (0x400): the aggregated port of a multi-plane ConnectX-8,
    // which has no SMI (and so no issm) by design; its planes' SMI device has them.
    bool sm_disabled = false;

    bool operator==(const MadPortInputs&) const = default;
};

struct PortReadinessInputs {
    bool gids_listed = false;    // ports/N/gids/ could be listed, and each entry read
    std::vector<GidEntry> gids;  // the used entries, lowest index first
    std::optional<uint32_t> lid; // ports/N/lid (InfiniBand; RoCE ports print 0)
    std::string mtu_netdev;      // the netdev whose MTU RoCE uses: the port's first (GID 0's)
    std::optional<uint32_t> mtu; // its /sys/class/net/<netdev>/mtu
    std::optional<uint32_t> ib_active_mtu; // InfiniBand: bytes, from ibv_query_port (real root)
    // InfiniBand ports only; absent: not read (RoCE, a --root tree without
    // /sys/class/infiniband_mad, an entry that went away under the read).
    std::optional<MadPortInputs> mad;

    bool operator==(const PortReadinessInputs&) const = default;
};

// The device's user verbs device: what ibv_open_device opens.
struct VerbsDeviceInputs {
    bool listed = false;   // <function>/infiniband_verbs/ (no PCI parent:
                           // /sys/class/infiniband_verbs/) listed, each ibdev read
    std::string name;      // "uverbs0" (the entry whose ibdev names the device); empty: none
    bool dev_node = false; // /dev/infiniband/<name> exists

    bool operator==(const VerbsDeviceInputs&) const = default;
};

// The ACS extended capability of a PCIe bridge, from its config file (readiness/acs_config.hpp).
struct AcsInputs {
    enum class Read : uint8_t {
        Ok,     // the extended config space was read
        Short,  // only the first 64 (or 256) bytes: the reader lacks CAP_SYS_ADMIN
        Failed, // no config file, or it could not be read
    };
    Read read = Read::Failed;
    bool capability = false; // the bridge has an ACS extended capability
    uint16_t control = 0;    // its ACS Control register
    std::string error;       // Failed: why

    bool operator==(const AcsInputs&) const = default;
};

// A GPU the compute NIC serves (readiness/gpu_pairing.hpp) and what lies between them.
struct GpuPairing {
    std::string gpu;             // PCI address
    std::optional<int> gpu_numa; // absent when the kernel says -1
    bool shares_switch = false;  // below one PCIe switch (NVIDIA's PIX/PXB)
    std::vector<std::string>
        bridges; // the bridges P2P traffic between them crosses (PCI addresses)

    bool operator==(const GpuPairing&) const = default;
};

// How GPUDirect RDMA can work on the node: what NCCL checks, as far as files say.
struct GpuDirectInputs {
    std::string peermem;                   // the file that shows a peer memory client; empty: none
    bool driver_loaded = false;            // /proc/driver/nvidia/version could be read
    bool open_module = false;              // "NVIDIA UNIX Open Kernel Module"
    std::string driver_version;            // "550.54.15"; empty: not said
    std::optional<unsigned> driver_branch; // 550
    std::string kernel_release;            // "6.8.0-45-generic"
    std::optional<std::pair<unsigned, unsigned>> kernel; // (6, 8)

    bool operator==(const GpuDirectInputs&) const = default;
};

struct ReadinessInputs {
    bool read = false; // the source has read at least once
    std::map<std::pair<std::string, uint32_t>, PortReadinessInputs> ports; // (ibdev, port)
    std::map<std::string, VerbsDeviceInputs> verbs;                        // by ibdev
    std::map<std::string, std::vector<GpuPairing>> pairings;               // by ibdev
    std::map<std::string, AcsInputs> bridges;                              // by PCI address
    std::optional<GpuDirectInputs> gpudirect; // read on nodes with NVIDIA GPUs only

    bool operator==(const ReadinessInputs&) const = default;
};

// One check of a port as judged (health/readiness_checks.hpp), for nicctl and the bus.
struct ReadyCheck {
    enum class Verdict : uint8_t { Ok, Failed, Unknown, Skipped };
    std::string check; // "gid", "mtu", "uverbs", "umad", "gpudirect", "acs", "numa"
    Verdict verdict = Verdict::Unknown;
    std::string saw; // what it saw: "gid 3: RoCE v2 ::ffff:10.0.0.5 on ens1f0np0"

    bool operator==(const ReadyCheck&) const = default;
};

// "ok", "failed", "unknown", "skipped".
const char* toString(ReadyCheck::Verdict v);

} // namespace nicd
