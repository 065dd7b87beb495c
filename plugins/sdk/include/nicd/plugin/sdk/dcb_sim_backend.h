// DCB under a simulated root: the netdev's state is the file DIR/run/nicd-sim/dcb/<netdev>
// (format in dcb_sim_format.h), changed the way mlx5 changes it (reference §1.9, §2.1): a SET
// replaces the priority of an existing DSCP entry, accepts only DSCP entries, and takes only the
// enable bits and cable length (delay) of PFC; a DEL must match an entry exactly. A file with the
// keys of bnxt's ops behaves as bnxt_dcb.c does: with a `dcbx` byte lacking HOST or IEEE (the
// firmware's DCBX agent owns the port) every SET and DEL is refused with EINVAL; with `ets_cap`
// and no ETS set yet, a PFC change is refused with EINVAL (bnxt_hwrm_queue_pfc_cfg); an ETS SET
// is checked as bnxt_ets_validate does (classes within ets_cap, TSA strict or ETS, bandwidth at
// most 100). Files are replaced atomically (temporary file, rename). A missing file is a driver
// without DCB.
#pragma once

#include <nicd/plugin/sdk/dcb_access.h>

#include <filesystem>

namespace nicd::plugin::sdk {

class SimDcb final : public DcbAccess {
public:
    explicit SimDcb(std::filesystem::path root) : root_(std::move(root)) {}

    v1::Status get(std::string_view netdev, dcb::DcbState& out) override;
    v1::Status set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                   std::span<const dcb::App> apps) override;
    v1::Status del(std::string_view netdev, std::span<const dcb::App> apps) override;
    v1::Status setEts(std::string_view netdev, const dcb::Ets& ets) override;

private:
    v1::Status read(std::string_view netdev, const char* op, dcb::DcbState& out);
    // read(), then the driver's refusal of any change while the host does not own the port.
    v1::Status readForChange(std::string_view netdev, const char* op, dcb::DcbState& out);
    v1::Status write(std::string_view netdev, const dcb::DcbState& state);

    std::filesystem::path root_;
};

} // namespace nicd::plugin::sdk
