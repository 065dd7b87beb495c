#include <nicd/plugin/sdk/stack_frame.h>

#include <algorithm>
#include <cctype>

namespace nicd::plugin::sdk {

namespace {

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

std::optional<std::string_view> firstRunningFrameOf(std::span<const std::string> lines,
                                                    std::span<const std::string_view> frames)
{
    for (const auto& line : lines) {
        auto frame = runningFrame(line);
        if (frame && std::find(frames.begin(), frames.end(), *frame) != frames.end())
            return frame;
    }
    return std::nullopt;
}

} // namespace nicd::plugin::sdk
