#include "readiness/gpudirect_evidence.hpp"

#include "inventory/sysfs_values.hpp"

#include <cctype>
#include <charconv>
#include <filesystem>

namespace nicd::readiness {

namespace {

// "550.54.15": digits, then at least one ".digits".
bool isVersion(std::string_view word)
{
    bool dot = false;
    bool digit_before = false;
    for (char c : word) {
        if (c >= '0' && c <= '9') {
            digit_before = true;
        } else if (c == '.' && digit_before) {
            dot = true;
            digit_before = false;
        } else {
            return false;
        }
    }
    return dot && digit_before;
}

std::optional<unsigned> leadingNumber(std::string_view s)
{
    unsigned n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end == s.data())
        return std::nullopt;
    return n;
}

} // namespace

std::optional<NvidiaModule> parseNvidiaVersion(std::string_view text)
{
    text = text.substr(0, text.find('\n'));
    constexpr std::string_view kPrefix = "NVRM version: NVIDIA UNIX";
    constexpr std::string_view kModule = "Kernel Module";
    if (!text.starts_with(kPrefix))
        return std::nullopt;
    auto module = text.find(kModule);
    if (module == std::string_view::npos)
        return std::nullopt;
    NvidiaModule m;
    m.open = text.substr(0, module).find("Open") != std::string_view::npos;
    auto rest = text.substr(module + kModule.size());
    while (!rest.empty()) {
        while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front())))
            rest.remove_prefix(1);
        size_t n = 0;
        while (n < rest.size() && !std::isspace(static_cast<unsigned char>(rest[n])))
            ++n;
        auto word = rest.substr(0, n);
        rest.remove_prefix(n);
        if (isVersion(word)) {
            m.version = std::string(word);
            m.branch = leadingNumber(word);
            break;
        }
    }
    return m;
}

std::optional<std::pair<unsigned, unsigned>> parseKernelRelease(std::string_view text)
{
    text = sysfs::trim(text);
    auto major = leadingNumber(text);
    auto dot = text.find('.');
    if (!major || dot == std::string_view::npos)
        return std::nullopt;
    auto minor = leadingNumber(text.substr(dot + 1));
    if (!minor || text.find_first_not_of("0123456789") != dot)
        return std::nullopt;
    return std::pair{*major, *minor};
}

GpuDirectInputs readGpuDirect(const HostPaths& paths)
{
    GpuDirectInputs in;
    for (const char* file : kPeerMemFiles) {
        std::error_code ec;
        if (std::filesystem::exists(paths.host(file), ec)) {
            in.peermem = file;
            break;
        }
    }
    if (auto text = sysfs::readFile(paths.host("/proc/driver/nvidia/version"))) {
        in.driver_loaded = true;
        if (auto m = parseNvidiaVersion(*text)) {
            in.open_module = m->open;
            in.driver_version = m->version;
            in.driver_branch = m->branch;
        }
    }
    if (auto release = sysfs::readValue(paths.host("/proc/sys/kernel/osrelease"))) {
        in.kernel_release = *release;
        in.kernel = parseKernelRelease(*release);
    }
    return in;
}

} // namespace nicd::readiness
