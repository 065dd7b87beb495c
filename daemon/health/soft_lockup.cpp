#include "health/soft_lockup.hpp"

#include <array>

namespace nicd::health {

namespace {
constexpr int kWindowLines = 150;
constexpr std::array kFrames{"mlx5e_napi_poll+0x", "mlx5e_poll_ico_cq+0x", "mlx5e_poll_rx_cq+0x",
                             "mlx5e_poll_tx_cq+0x", "mlx5_cq_tasklet_cb+0x"};
} // namespace

std::optional<std::string> SoftLockupDetector::feed(std::string_view line)
{
    if (auto at = line.find("BUG: soft lockup - CPU#"); at != std::string_view::npos) {
        header_ = std::string(line.substr(at));
        lines_left_ = kWindowLines;
        return std::nullopt;
    }
    if (lines_left_ <= 0)
        return std::nullopt;
    --lines_left_;
    for (const char* frame : kFrames) {
        auto at = line.find(frame);
        if (at == std::string_view::npos)
            continue;
        // "? mlx5e_napi_poll+0x..." is a stale stack word, not the running frame.
        auto before = line.substr(0, at);
        while (!before.empty() && before.back() == ' ')
            before.remove_suffix(1);
        if (!before.empty() && before.back() == '?')
            continue;
        lines_left_ = 0;
        return header_ + " in mlx5 polling (" +
               std::string(frame, std::char_traits<char>::length(frame) - 3) + ")";
    }
    return std::nullopt;
}

} // namespace nicd::health
