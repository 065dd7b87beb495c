// The frame of one verifyQos/applyQos call on one port, the same for every vendor: an Ethernet
// port only, the PFC priorities checked, the vendor's steps run, a setting still different after
// apply flagged, and no exception out. Also the pieces the steps share: the port's name in
// messages, its netdevs, and trust and PFC read on each netdev (rtnetlink DCB, or the simulator's
// files under a simulated root) and merged into one report each.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/dcb_access.h>
#include <nicd/plugin/sdk/qos_call.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nicd::plugin::sdk {

// "mlx5_0 port 1".
std::string portName(const v1::DeviceRef& dev, const v1::PortRef& port);
// The port's netdevs, sorted, each once.
std::vector<std::string> portNetdevs(const v1::PortRef& port);

struct DcbReports {
    v1::QosSettingReport trust;
    v1::QosSettingReport pfc;
    // "ets", from a vendor that sets ETS for PFC (bnxt takes PFC only after ETS): shown by
    // verify like the others. nullopt: the vendor leaves ETS alone and says nothing of it.
    std::optional<v1::QosSettingReport> ets{};
    // The DCB_ATTR_DCBX byte the netdev's DCB read carried (getdcbx): who runs DCBX there.
    std::optional<uint8_t> dcbx{};
};
// Words saying the NIC firmware runs DCBX (and its own LLDP agent) on `netdev`, when the DCBX
// byte lacks DCB_CAP_DCBX_HOST (mlx5 reports 0x0c in firmware mode and 0x0d in host mode; bnxt
// 0x0a with its firmware agent); nullopt when the host runs it or the driver does not say.
std::optional<std::string> firmwareLldpAgent(const std::string& netdev,
                                             std::optional<uint8_t> dcbx);
// Trust and PFC of one netdev, read (and when applying, changed) by the vendor.
using NetdevDcb = std::function<DcbReports(DcbAccess& dcb, const std::string& netdev)>;
// "trust" and "pfc" (and "ets" where the vendor reports it) over `netdevs`, each merged
// (mergeReports); a port without a netdev gets trust and pfc as an error (NoDevice), and the call
// fails.
void dcbReports(QosCall& call, const std::vector<std::string>& netdevs, const NetdevDcb& one,
                std::vector<v1::QosSettingReport>& out);

// "pfc" for a state just read: the wanted priorities against the enable bits.
v1::QosSettingReport pfcReport(const v1::QosDesired& desired, const dcb::DcbState& st);
// Both settings when the netdev could not be read: the failure is their error.
DcbReports unreadableDcb(const std::string& trust_desired, const v1::QosDesired& desired,
                         const v1::Status& failure);

// What the writes to one netdev did.
struct DcbWrites {
    bool trust_changed = false;
    bool pfc_changed = false;
    bool ets_changed = false; // set before PFC (bnxt), when the port had none
    std::string trust_error;
    std::string pfc_error;
};
// One change on a netdev: `what` logged (under dry_run, as what would change), `write` run unless
// a dry run; its failure is the call's and `error`. `changed` is set either way.
void changeDcb(QosCall& call, const std::string& what, const std::function<v1::Status()>& write,
               bool& changed, std::string& error);

// The reports for a state read (the vendor's trust, pfcReport).
using DescribeDcb = std::function<DcbReports(const dcb::DcbState& st)>;
// After the writes: the netdev read again (a dry run keeps `before`) and described, with what
// was changed and the writes' errors kept; a failed read is both settings' error.
DcbReports readBackDcb(QosCall& call, DcbAccess& dcb, const std::string& netdev,
                       const dcb::DcbState& before, const DcbWrites& writes,
                       const DescribeDcb& describe);

// The vendor's steps: append the port's settings to `out`, recording failures with call.fail.
using QosSteps = std::function<void(QosCall& call, std::vector<v1::QosSettingReport>& out)>;
v1::Status runQos(v1::IHost& host, const v1::DeviceRef& dev, const v1::PortRef& port,
                  const v1::QosDesired& desired, v1::QosReport& out, bool apply,
                  const QosSteps& steps) noexcept;

} // namespace nicd::plugin::sdk
