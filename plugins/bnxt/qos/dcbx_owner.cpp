#include "qos/dcbx_owner.hpp"

#include <cstdio>

namespace nicd::bnxt {

bool hostOwnsDcb(std::optional<uint8_t> dcbx)
{
    // bnxt_dcb.c: `!(bp->dcbx_cap & DCB_CAP_DCBX_VER_IEEE) || !(bp->dcbx_cap & DCB_CAP_DCBX_HOST)`
    // refuses every IEEE set.
    return !dcbx || ((*dcbx & kDcbxHost) && (*dcbx & kDcbxVerIeee));
}

std::string describeDcbx(uint8_t dcbx)
{
    static constexpr std::pair<uint8_t, const char*> kFlags[] = {{kDcbxHost, "HOST"},
                                                                 {kDcbxLldManaged, "LLD_MANAGED"},
                                                                 {kDcbxVerCee, "CEE"},
                                                                 {kDcbxVerIeee, "IEEE"},
                                                                 {kDcbxStatic, "STATIC"}};
    std::string flags;
    for (const auto& [bit, name] : kFlags)
        if (dcbx & bit)
            flags += (flags.empty() ? "" : "|") + std::string(name);
    char hex[8];
    (void)std::snprintf(hex, sizeof hex, "0x%02x", dcbx);
    return std::string(hex) + " (" + (flags.empty() ? "none" : flags) + ")";
}

std::string notHostOwned(const std::string& netdev, uint8_t dcbx)
{
    std::string who = (dcbx & kDcbxLldManaged)
                          ? "the NIC firmware's DCBX agent owns the port's DCB"
                          : "the host may not set this function's DCB (a VF, or a firmware "
                            "LLDP agent)";
    // Broadcom's NetXtreme-E user guide (chapter "DCBX - Data Center Bridging") keeps the
    // firmware's DCBX/LLDP settings in NVRAM, set from UEFI HII Device Level Configuration;
    // bnxt_dcbnl_setdcbx cannot change them at run time.
    return "netdev " + netdev + ": " + who + " (DCBX " + describeDcbx(dcbx) +
           "); nicd does not write it. To hand DCB to the host, turn the firmware DCBX agent off "
           "in the NIC's NVRAM (the firmware setting, UEFI HII Device Level Configuration) and "
           "reload bnxt_en";
}

std::optional<std::string> OwnerNotices::notice(const std::string& netdev,
                                                std::optional<uint8_t> dcbx)
{
    const bool host = hostOwnsDcb(dcbx);
    auto [it, first] = host_owned_.try_emplace(netdev, host);
    if (!first && it->second == host)
        return std::nullopt;
    it->second = host;
    if (!host)
        return notHostOwned(netdev, *dcbx); // hostOwnsDcb: only a byte read can say "not host"
    if (first)
        return std::nullopt;
    return "netdev " + netdev + ": the host owns DCB again (DCBX " +
           (dcbx ? describeDcbx(*dcbx) : std::string("not reported")) + "); nicd manages it";
}

} // namespace nicd::bnxt
