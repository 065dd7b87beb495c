// DCB under a simulated root: the netdev's state is the file DIR/run/nicd-sim/dcb/<netdev>
// (format in dcb_sim_format.h), changed the way mlx5 changes it (reference §1.9, §2.1): a SET
// replaces the priority of an existing DSCP entry, accepts only DSCP entries, and takes only the
// enable bits and cable length (delay) of PFC; a DEL must match an entry exactly. Files are
// replaced atomically (temporary file, rename). A missing file is a driver without DCB.
#pragma once

#include <nicd/plugin/dcb_access.h>

#include <filesystem>

namespace nicd::plugin::sdk {

std::filesystem::path dcbSimFile(const std::filesystem::path& root, std::string_view netdev);

class SimDcb final : public DcbAccess {
public:
    explicit SimDcb(std::filesystem::path root) : root_(std::move(root)) {}

    v1::Status get(std::string_view netdev, dcb::DcbState& out) override;
    v1::Status set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                   std::span<const dcb::App> apps) override;
    v1::Status del(std::string_view netdev, std::span<const dcb::App> apps) override;

private:
    v1::Status read(std::string_view netdev, const char* op, dcb::DcbState& out);
    v1::Status write(std::string_view netdev, const dcb::DcbState& state);

    std::filesystem::path root_;
};

} // namespace nicd::plugin::sdk
