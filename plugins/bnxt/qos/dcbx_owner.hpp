// Who owns a bnxt port's DCB, from the DCB_ATTR_DCBX byte an IEEE_GET reply carries
// (net/dcb/dcbnl.c dcbnl_ieee_fill puts ops->getdcbx() there). bnxt_dcb.c bnxt_dcb_init sets it
// once at probe from the firmware's capabilities: 0x09 (HOST|VER_IEEE) when the PF's firmware runs
// no LLDP agent — the host owns DCB; 0x0a (LLD_MANAGED|VER_IEEE) when the firmware's DCBX agent
// does; 0x08 (VER_IEEE alone) on a VF or with a firmware LLDP agent but no DCBX agent. Unless
// both HOST and VER_IEEE are set, bnxt_dcbnl_ieee_setets, _setpfc, _setapp and _delapp return
// -EINVAL, and bnxt_dcbnl_setdcbx refuses to take the port from the firmware ("All firmware DCBX
// settings are set in NVRAM"): nicd reads such a port and writes nothing to its DCB.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace nicd::bnxt {

inline constexpr uint8_t kDcbxHost = 0x01;       // DCB_CAP_DCBX_HOST
inline constexpr uint8_t kDcbxLldManaged = 0x02; // DCB_CAP_DCBX_LLD_MANAGED
inline constexpr uint8_t kDcbxVerCee = 0x04;     // DCB_CAP_DCBX_VER_CEE
inline constexpr uint8_t kDcbxVerIeee = 0x08;    // DCB_CAP_DCBX_VER_IEEE
inline constexpr uint8_t kDcbxStatic = 0x10;     // DCB_CAP_DCBX_STATIC

// True when the host may set the port's DCB. A reply without the byte (a driver without getdcbx)
// leaves the driver to answer each set.
bool hostOwnsDcb(std::optional<uint8_t> dcbx);
// "0x0a (LLD_MANAGED|IEEE)".
std::string describeDcbx(uint8_t dcbx);
// The error a DCB setting of a port the host does not own carries: who owns it and how an
// operator hands it to the host.
std::string notHostOwned(const std::string& netdev, uint8_t dcbx);

// One log line per netdev when its DCB owner changes (host -> firmware, firmware -> host), none
// while it stays the same; a netdev first seen host-owned is not news.
class OwnerNotices {
public:
    // What to log for `netdev` now that its DCBX byte reads `dcbx`; nullopt: nothing.
    std::optional<std::string> notice(const std::string& netdev, std::optional<uint8_t> dcbx);

private:
    std::map<std::string, bool> host_owned_;
};

} // namespace nicd::bnxt
