#include "health/soft_lockup.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace nicd::health {

namespace {

constexpr int kWindowLines = 150;
constexpr std::array<std::string_view, 5> kFrames{"mlx5e_napi_poll", "mlx5e_poll_ico_cq",
                                                  "mlx5e_poll_rx_cq", "mlx5e_poll_tx_cq",
                                                  "mlx5_cq_tasklet_cb"};
constexpr std::string_view kHeader = "BUG: soft lockup - CPU#";

// The header at the start of the message, after the prefix the watchdog prints it with
// ("watchdog: " since 4.x, "NMI watchdog: " before).
std::optional<std::string_view> header(std::string_view m)
{
    for (std::string_view prefix : {"", "watchdog: ", "NMI watchdog: "})
        if (m.starts_with(prefix) && m.substr(prefix.size()).starts_with(kHeader))
            return m.substr(prefix.size());
    return std::nullopt;
}

bool isSymbolChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// "0x" and one or more hex digits at the start of `s`; how many bytes, 0 if none.
size_t hexNumber(std::string_view s)
{
    if (!s.starts_with("0x"))
        return 0;
    size_t n = 2;
    while (n < s.size() && std::isxdigit(static_cast<unsigned char>(s[n])))
        ++n;
    return n > 2 ? n : 0;
}

} // namespace

std::optional<std::string_view> runningFrame(std::string_view line)
{
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
    // Kernels before 4.9 print the frame's address first: "[<ffffffffa0123456>] mlx5e_...".
    if (line.starts_with("[<")) {
        auto end = line.find(">] ");
        if (end == std::string_view::npos ||
            !std::all_of(line.begin() + 2, line.begin() + static_cast<long>(end),
                         [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }))
            return std::nullopt;
        line.remove_prefix(end + 3);
    }
    if (line.starts_with("RIP: ")) {
        // "RIP: 0010:mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]": the segment, then the frame.
        line.remove_prefix(5);
        auto colon = line.find(':');
        if (colon == std::string_view::npos || colon > 4)
            return std::nullopt;
        line.remove_prefix(colon + 1);
    }
    auto plus = line.find("+0x");
    if (plus == 0 || plus == std::string_view::npos ||
        !std::all_of(line.begin(), line.begin() + static_cast<long>(plus), isSymbolChar))
        return std::nullopt;
    auto symbol = line.substr(0, plus);
    auto rest = line.substr(plus + 1);
    size_t n = hexNumber(rest);
    if (n == 0 || n >= rest.size() || rest[n] != '/')
        return std::nullopt;
    rest.remove_prefix(n + 1);
    n = hexNumber(rest);
    if (n == 0)
        return std::nullopt;
    rest.remove_prefix(n);
    // Optionally the module: " [mlx5_core]".
    if (!rest.empty()) {
        if (!rest.starts_with(" [") || rest.back() != ']' ||
            !std::all_of(rest.begin() + 2, rest.end() - 1, isSymbolChar))
            return std::nullopt;
    }
    return symbol;
}

std::optional<std::string> SoftLockupDetector::feed(const plugin::v1::KernelRecord& rec)
{
    if (!rec.deviceLess())
        return std::nullopt;
    if (auto h = header(rec.message)) {
        header_ = std::string(*h);
        lines_left_ = kWindowLines;
        return std::nullopt;
    }
    if (lines_left_ <= 0)
        return std::nullopt;
    --lines_left_;
    auto frame = runningFrame(rec.message);
    if (!frame || std::find(kFrames.begin(), kFrames.end(), *frame) == kFrames.end())
        return std::nullopt;
    lines_left_ = 0;
    return header_ + " in mlx5 polling (" + std::string(*frame) + ")";
}

} // namespace nicd::health
