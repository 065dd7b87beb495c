#include "slurm_state.hpp"

#include "paths/atomic_file.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace nicctl::slurm {

namespace {
constexpr std::string_view kKey = "healthy_since=";
}

std::optional<uint64_t> parseHealthySince(const std::string& text)
{
    std::string_view t = text;
    if (!t.empty() && t.back() == '\n')
        t.remove_suffix(1);
    if (t.substr(0, kKey.size()) != kKey)
        return std::nullopt;
    t.remove_prefix(kKey.size());
    uint64_t n = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (ec != std::errc() || end != t.data() + t.size() || t.empty())
        return std::nullopt;
    return n;
}

std::string healthySinceText(std::optional<uint64_t> since)
{
    return since ? std::string(kKey) + std::to_string(*since) + "\n" : "";
}

std::optional<uint64_t> loadHealthySince(const std::string& file)
{
    std::ifstream in(file);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return parseHealthySince(text.str().substr(0, 256));
}

nicd::Result<void> saveHealthySince(const std::string& file, std::optional<uint64_t> since)
{
    std::filesystem::path path(file);
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
        return nicd::Error{"cannot create " + path.parent_path().string() + ": " + ec.message()};
    return nicd::paths::writeFileAtomically(path, healthySinceText(since));
}

} // namespace nicctl::slurm
