// The host files nicd's knob writer may change for the daemon: the knobs RoCE QoS provisioning
// sets, each known by the shape of its path under the daemon's root and by the values it takes
// (docs/security.md). A PCI function's remove, reset or config, a CPU's online, another configfs
// subsystem, any other sysfs file match no shape. Pure: the writer (knob_files.hpp) resolves a
// matched target, following no link it does not expect.
#pragma once

#include "text/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::privilege {

enum class KnobOp : uint8_t {
    Write = 'W',     // write a value to an existing knob
    MakeGroup = 'G', // make the rdma_cm configfs group of an IB device
};

enum class KnobKind : uint8_t {
    RdmaCmGroup,  // sys/kernel/config/rdma_cm/<ibdev> (a directory)
    RoceTos,      // sys/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_tos: 0 to 255
    TrafficClass, // sys/class/infiniband/<ibdev>/tc/<port>/traffic_class: 0 to 255
    EcnEnable,    // sys/class/net/<netdev>/ecn/roce_{np,rp}/enable/<0 to 7>: 0 or 1
    CnpDscp,      // sys/class/net/<netdev>/ecn/roce_np/cnp_dscp: 0 to 63
    CnpPriority,  // sys/class/net/<netdev>/ecn/roce_np/cnp_802p_prio: 0 to 7
};

// Where the directory of the target's device is.
enum class KnobAnchor : uint8_t {
    RdmaCm,          // sys/kernel/config/rdma_cm/<ibdev>
    ClassNet,        // the directory sys/class/net/<netdev> links to, under sys/devices
    ClassInfiniband, // the directory sys/class/infiniband/<ibdev> links to, under sys/devices
};

struct KnobTarget {
    KnobKind kind{};
    KnobAnchor anchor{};
    std::string device;               // the ibdev or netdev
    std::vector<std::string> beneath; // below the device's directory: {"ecn", "roce_np", ...}
};

// The knob `rel` (a path relative to the daemon's root, as "sys/class/net/…") names for `op`,
// or an Error saying why it is none.
Result<KnobTarget> matchKnob(KnobOp op, std::string_view rel);

// Success when `text` is a value the knob takes (a decimal number in its range, an optional
// newline after it), else an Error saying why not.
Result<void> checkKnobValue(KnobKind kind, std::string_view text);

// The device directory a class link of sysfs points to, as components under the root
// ({"sys", "devices", …, "net", "<netdev>"}), when `link` is what the kernel makes:
// "../../devices/<path>/net/<netdev>" (for ClassInfiniband ".../infiniband/<ibdev>"), with no
// ".", ".." or empty component in <path>. Nullopt for anything else.
std::optional<std::vector<std::string>> classLinkTarget(KnobAnchor anchor, std::string_view device,
                                                        std::string_view link);

// Names as the kernel accepts them: a netdev name is 1 to 15 bytes, none '/', ':' or white
// space, not "." or ".."; an IB device name 1 to 63 bytes of letters, digits, '_', '-', '.',
// not "." or "..".
bool validNetdevName(std::string_view name);
bool validIbdevName(std::string_view name);
// An IB port number as sysfs and configfs name it: 1 to 255, no leading zero.
bool validPortNumber(std::string_view name);

} // namespace nicd::privilege
