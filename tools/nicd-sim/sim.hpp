// nicd-sim: builds and drives a simulated GPU node under a directory DIR, in the real kernel's
// layout (/sys/devices/pci.../<bdf>/{infiniband,net}/... with relative /sys/class/* and
// /sys/bus/pci links, /proc/net/route, /run, /etc/nicd, /var/lib), so nicd runs on it unchanged
// with --root DIR. Every call takes the node's lock (flock on DIR/run/nicd-sim/lock), so a
// `nicd-sim run` loop and injections from tests or a shell never interleave. Errors throw SimError
// with a message naming the device, port, counter or file. Deterministic: the same options give
// the same tree and the same values after the same ticks.
//
// Files owned by the simulator besides the kernel-shaped tree:
//   DIR/run/nicd-sim/state.json        devices, per-device load, counter rates, wraps, stalled
//                                      values (see node_state.hpp)
//   DIR/run/nicd-sim/ethtool/<netdev>  `ethtool -S <netdev>` text: a first line
//                                      "NIC statistics:", then one "     <name>: <u64>" line
//                                      per statistic (5 spaces, name, colon, space, decimal)
//   DIR/run/nicd-sim/removed/<ibdev>/  a removed device's sysfs directory, kept for restore
//   DIR/run/nicd-sim/tmp/              staging for atomic writes (write, then rename into place)
//   DIR/run/nicd-sim/lock              flock(2) for read-modify-write
//   DIR/run/nicd-sim/lldp/neighbors.json  what the host's lldpd hears, as `lldpcli -f json0 show
//                                      neighbors details` prints it (neighbors/neighbor_twin.hpp:
//                                      written by `nicd-sim create` after create() below, which
//                                      cannot write lldpcli's JSON; createNeighborTwin)
// and in a node made by `nicd-sim capture` (capture/capture.hpp; read back by capture_replay.hpp):
//   DIR/run/nicd-sim/capture/manifest.json      what was captured, when, what was skipped and why
//   DIR/run/nicd-sim/capture/samples/NNNN.json  counter samples that `run` plays in order
//   DIR/run/nicd-sim/capture/position           the sample the tree holds
//   DIR/run/nicd-sim/capture/kernel.export      the node's NIC kernel lines, journal export format
//   DIR/run/nicd-sim/capture/said/              what nicd said there: nicd.prom, state.json
// Every file the simulator changes is replaced by rename(2): a reader never sees it half written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim {

namespace fs = std::filesystem;

struct SimError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline constexpr int kMaxDevices = 512;
// The channels mlx5e opens by default on a ConnectX-7 in a host with 64 or more CPUs (how the
// driver arrives at it: ethtool_catalog.cpp), and the most `create --channels` takes.
inline constexpr unsigned kDefaultChannels = 64;
inline constexpr unsigned kMaxChannels = 256;

struct CreateOptions {
    int devices = 0;           // 0: the default mixed node; N (1..kMaxDevices): N RoCE PFs, all up
    bool driver_ready = false; // create /run/mellanox/drivers/.driver-ready
    std::string boot_id = "5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"; // proc/sys/kernel/random/boot_id
    bool force = false;                                           // replace an existing node
    uint64_t seed = 1; // per-device traffic load (and so every data counter's rate) derives from it
    // Channels of every mlx5 netdev: its ethtool statistics print each one's (1..kMaxChannels).
    unsigned channels = kDefaultChannels;
    // The vendors of the RoCE PFs, comma-separated (vendor_catalog.hpp: mlx5, bnxt): the node's
    // RoCE PFs (the default node's four compute NICs and its uncabled one, or the N of
    // `devices`) are dealt to them in that order, in blocks as even as possible. `channels` is
    // also a bnxt_en netdev's combined rings.
    std::string vendors = "mlx5";
    // A GPU node (gpu_node.cpp) instead of the default one, when `gpus` is 0..kMaxGpus: that many
    // GPUs of `gpu_model` (gpuModels()), each beside a compute NIC under its PCIe switch (the first
    // `compute_nics`; -1: one per GPU), a storage card with `storage_ports` ports (0..2) and the
    // management NIC; with more NICs than GPUs, the second NIC of a GPU shares its switch.
    // applyProfile() sets them for a named shape (hgx-h100: 8 H100s).
    int gpus = -1;
    std::string gpu_model = "h100";
    int compute_nics = -1;
    int storage_ports = 2;
    // The storage cards, each with `storage_ports` ports (0..4; a DGX H100 has two dual-port ones).
    int storage_cards = 1;
    // Set by a profile (applyProfile): the compute NICs at 200 Gb/s instead of the model's
    // platform's rate (0); a cloud VM (NUMA node -1, no PCIe switch shared, the NICs VFs).
    int nic_gbps = 0;
    bool vm = false;
    // A GPU node's compute NICs' ports are InfiniBand (an IPoIB netdev, ib<i>) instead of RoCE:
    // an InfiniBand compute fabric, where a ConnectX-8 may run multi-plane (smi-add).
    bool infiniband = false;
};

// The node's kernel-shaped tree and the simulator's files, but for lldpd's twin: a node without
// one has no lldpd (`nicd-sim create` and tests call neighbors/ createNeighborTwin after it).
void create(const fs::path& root, const CreateOptions& options);

inline constexpr int kMaxGpus = 16;
inline constexpr int kMaxStorageCards = 4;
// The GPU models the simulator knows (h100, h200, b200, ...) and the shapes of applyProfile
// (hgx-h100, hgx-b200, gb200, ...), for --help and errors.
std::vector<std::string> gpuModels();
std::vector<std::string> profiles();
// Sets `options` to the node of the named shape; throws SimError listing them for another name.
void applyProfile(CreateOptions& options, const std::string& profile);

// A reboot of the simulated node: a new boot ID (`boot_id`, or the current one's next), nothing
// else: a removed device stays removed, as a NIC whose firmware did not come up.
void reboot(const fs::path& root, const std::string& boot_id = {});

// Advances every counter as if `seconds` passed: data counters of up ports at realistic rates,
// error counters by their injected rate only (0 by default). Counters overflow as the hardware's
// do: IB PMA counters saturate at their width, mlx5 Q counters wrap at 2^32.
void tick(const fs::path& root, double seconds);

// Port `port` (0 = every port) loses / regains its link: state, phys_state, the netdevs'
// operstate, carrier, speed and carrier_changes; going down bumps link_downed and the ethtool
// link_down_events_phy.
void linkDown(const fs::path& root, const std::string& dev, uint32_t port = 0);
void linkUp(const fs::path& root, const std::string& dev, uint32_t port = 0);
// The link drops and does not train again: state DOWN, phys_state Polling (the port looks for a
// partner that does not answer: a dead cable, transceiver or switch port), the netdevs' carrier
// down; link_downed and the ethtool link-down statistic do not move. linkUp brings it back.
void linkDrop(const fs::path& root, const std::string& dev, uint32_t port = 0);
// The IPoIB netdev of an InfiniBand device (role ib) loses its carrier while admin up, its port
// staying ACTIVE: the broadcast group join failed (a P_Key the subnet manager does not give);
// `down` false brings it back. Throws SimError for a device that is not InfiniBand.
void ipoibDown(const fs::path& root, const std::string& dev, bool down);
// `times` down-and-up cycles, ending up; each down lasts `down_sec` and each up but the last
// `up_sec` (real seconds, the node unlocked meanwhile), so that a watching nicd sees every one.
void flap(const fs::path& root, const std::string& dev, int times, uint32_t port = 0,
          double down_sec = 0, double up_sec = 0);

// Adds n to a counter found by name in ports/<port>/counters/, ports/<port>/hw_counters/ or the
// ethtool statistics of the device's netdevs (port 0 means port 1). Saturates or wraps as tick.
void addToCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                  uint64_t n, uint32_t port = 0);
// Makes a counter climb by `per_second` on every tick (replaces its default rate; 0 stops it).
void setRate(const fs::path& root, const std::string& dev, const std::string& counter,
             double per_second, uint32_t port = 0);
// Sets a counter of 32 bits or more to 2^32 - 1000 and makes it wrap at 2^32 from now on.
void wrap(const fs::path& root, const std::string& dev, const std::string& counter,
          uint32_t port = 0);
inline constexpr uint64_t kWrapStart = 0xffffffffULL + 1 - 1000;
// Every counter of the device back to 0 (hw_counters/lifespan, a setting, is kept).
void resetCounters(const fs::path& root, const std::string& dev);
// The firmware refuses a counters/ or hw_counters/ file (a restricted or Fabric-Manager function):
// its mode becomes 0000, so reads fail with EACCES for nicd, which runs without CAP_DAC_OVERRIDE
// (root with it still reads it). Ticks keep it so; `on` false makes it readable again (0644).
void refuseCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                   bool on, uint32_t port = 0);
// A counters/ file reads "N/A (no PMA)" from now on, as the kernel prints it for a counter of a
// device without a PMA agent (irdma, i40iw and others); ticks, bursts and resets leave it so.
void noPmaCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                  uint32_t port = 0);
inline constexpr std::string_view kNoPmaText = "N/A (no PMA)\n";
// True when `file` reads "N/A (no PMA)" (noPmaCounter).
bool readsNoPma(const fs::path& file);

// The RDMA device unregisters: its infiniband/<dev> directory and class link disappear (netdevs
// and the PCI function stay); restore brings back the identical tree.
void remove(const fs::path& root, const std::string& dev);
void restore(const fs::path& root, const std::string& dev);
// The device is renamed `new_name` (udev's rdma_rename: mlx5_0 -> rocep26s0f0): its infiniband/
// directory and class link take the new name; its PCI function, netdevs and counters stay.
// Throws SimError for a removed or stalled device, a name in use or one the kernel would not give
// (1 to 63 letters, digits or underscores).
void rename(const fs::path& root, const std::string& dev, const std::string& new_name);
// Replaces the device's ports/*/counters/* files with FIFOs: reads block like wedged firmware.
// unstall answers any blocked reader with the value and puts regular files back.
void stall(const fs::path& root, const std::string& dev);
void unstall(const fs::path& root, const std::string& dev);

// Pre-failure faults (signal_faults.cpp); `on` false clears the fault (the healthy default).
// fec-degrade: corrected bits climb to a pre-FEC BER of half the RS(544,514) limit (ticks).
void fecDegrade(const fs::path& root, const std::string& dev, bool on);
// optics-rx-low: the first module's lane 1 receives below its low warning (not yet its alarm).
void opticsRxLow(const fs::path& root, const std::string& dev, bool on);
// asic-hot: hwmon temp1 (mlx5's "asic") 3 °C above its critical threshold (bnxt_en: and its
// temp1_crit_alarm set).
void asicHot(const fs::path& root, const std::string& dev, bool on);
// fw-fatal: the fw_fatal devlink health reporter (bnxt: fw, its only one) goes to error (its
// clear: recovered).
void fwFatal(const fs::path& root, const std::string& dev, bool on);
// pcie-downtrain: the PCIe link trains at 16.0 GT/s x8 instead of 32.0 GT/s x16.
void pcieDowntrain(const fs::path& root, const std::string& dev, bool on);
// pcie-path-downtrain: the link between the device's PCIe switch and its root port trains at
// 16.0 GT/s x8 (the switch's upstream port); SimError when no switch is above the device.
void pciePathDowntrain(const fs::path& root, const std::string& dev, bool on);
// rate-downtrain: port 1 at 200 Gb/sec (2X NDR) instead of 400 Gb/sec (4X NDR).
void rateDowntrain(const fs::path& root, const std::string& dev, bool on);
// fw-drift: fw_ver 28.39.1002 where every other card runs 28.41.1000 (bnxt: 229.1.123.0, not
// 230.0.157.0).
void fwDrift(const fs::path& root, const std::string& dev, bool on);
// fw-old: every card of the device's board (its board_id, VFs too) runs 28.37.1014 (bnxt:
// 228.0.146.0), below fw-drift's version: the node missed a firmware rollout, so no card differs
// from its peers (no firmware_drift) and only a baseline ([health] FirmwareMin=) sees it.
void fwOld(const fs::path& root, const std::string& dev, bool on);
// smi-add: `rdma dev add smi<N> type SMI parent DEV` on an InfiniBand ConnectX-8 port in
// multi-plane mode (plane_faults.cpp): the SMI sub-device beside DEV on its PCI function, ports
// 1..`planes` (2..8) each at the port's rate shared out, its state, no uverbs, a umad and an issm
// each; DEV's port gains IsSMDisabled (cap_mask 0x400) and loses its issm. SimError on an
// Ethernet port (the kernel answers EOPNOTSUPP) or a second SMI device (EEXIST). Its clear
// (`on` false): the SMI device goes, DEV's port as it was.
void smiAdd(const fs::path& root, const std::string& dev, int planes, bool on);
// plane-downtrain: plane `plane` of DEV's SMI device trains at half its rate (the speed below:
// 200 Gb/sec (1X XDR) -> 100 Gb/sec (1X NDR)); its clear: the plane (0: every plane) at the
// healthy rate again.
void planeDowntrain(const fs::path& root, const std::string& dev, int plane, bool on);

// Congestion scenarios on port 1 (their clear: the healthy rates again). congest-ecn: ECN marks
// and CNPs flow, pauses stay low; congest-pfc-only: 15% paused, no mark, no CNP; pause-storm: 90%
// paused and the driver's storm warnings; lossy: out-of-sequence packets on the lossless priority.
void congestEcn(const fs::path& root, const std::string& dev, bool on);
void congestPfcOnly(const fs::path& root, const std::string& dev, bool on);
void pauseStorm(const fs::path& root, const std::string& dev, bool on);
void lossy(const fs::path& root, const std::string& dev, bool on);

struct DeviceSummary {
    std::string name;
    std::string role;                     // pf, vf, lag, ib
    std::string pci_address;              // e.g. 0000:1a:00.0
    std::vector<std::string> port_states; // "1:ACTIVE" per port; empty when removed
    std::vector<std::string> netdevs;
    bool removed = false;
    bool stalled = false;
};
std::vector<DeviceSummary> devices(const fs::path& root);
// One line per device: name, role, port states (or "removed"; plus " stalled"), netdevs, PCI
// address, e.g. "mlx5_0        pf   1:ACTIVE         ens1f0np0            0000:1a:00.0".
std::vector<std::string> list(const fs::path& root);

// Value of a counter file or ethtool stat, for tests and the demo (a stalled device's counters/
// values come from the simulator's state, never from the FIFOs).
uint64_t counterValue(const fs::path& root, const std::string& dev, const std::string& counter,
                      uint32_t port = 1);

} // namespace nicd::sim
