#include "plugins/plugin_host.hpp"

#include "log/log.hpp"
#include "privilege/knob_writer.hpp"

#include <cerrno>

namespace nicd::plugins {

namespace {

namespace pv1 = plugin::v1;

pv1::Status statusOf(const privilege::KnobReply& r)
{
    if (r.err == 0)
        return pv1::Status::ok();
    pv1::Errc code = r.err == ENOENT || r.err == ENODEV  ? pv1::Errc::NoDevice
                     : r.err == EACCES || r.err == EPERM ? pv1::Errc::PermissionDenied
                     : r.err == EINVAL                   ? pv1::Errc::InvalidArgument
                                                         : pv1::Errc::Io;
    return pv1::Status::fail(code, r.message, r.err);
}

// `path` as the plugin names it (root() + "/sys/..."), relative to the root; nullopt when it is
// not beneath it.
std::optional<std::string> underRoot(const std::filesystem::path& root, std::string_view path)
{
    std::string prefix = root.string();
    if (!prefix.ends_with('/'))
        prefix += '/';
    if (!path.starts_with(prefix))
        return std::nullopt;
    std::string rel(path.substr(prefix.size()));
    while (rel.starts_with('/'))
        rel.erase(0, 1);
    return rel;
}

} // namespace

pv1::Status changeHostKnob(const HostPaths& paths, privilege::KnobOp op, std::string_view path,
                           std::string_view text) noexcept
try {
    auto rel = underRoot(paths.root(), path);
    if (!rel)
        return pv1::Status::fail(pv1::Errc::PermissionDenied,
                                 std::string(path) + ": not under nicd's root " +
                                     paths.root().string() + " (refused)",
                                 EPERM);
    return statusOf(privilege::changeKnob(paths.root(), paths.simulated(),
                                          {op, std::move(*rel), std::string(text)}));
} catch (...) {
    return pv1::Status::fail(pv1::Errc::Internal, std::string(path) + ": the knob change failed");
}

void PluginHost::log(plugin::v1::Level level, std::string_view msg,
                     const plugin::v1::DeviceRef* dev) noexcept
{
    try {
        using L = plugin::v1::Level;
        spdlog::level::level_enum l = spdlog::level::info;
        switch (level) {
        case L::Trace:
            l = spdlog::level::trace;
            break;
        case L::Debug:
            l = spdlog::level::debug;
            break;
        case L::Info:
            l = spdlog::level::info;
            break;
        case L::Warn:
            l = spdlog::level::warn;
            break;
        case L::Error:
            l = spdlog::level::err;
            break;
        case L::Critical:
            l = spdlog::level::critical;
            break;
        }
        log::Fields f{.device = dev ? std::string_view(dev->ibdev) : std::string_view(),
                      .plugin = name_};
        log::write(l, f, "plugin {}: {}", name_, msg);
    } catch (...) { // logging must never throw into a plugin
    }
}

std::optional<std::string> PluginHost::config(std::string_view key) const noexcept
{
    try {
        if (auto it = config_.find(std::string(key)); it != config_.end())
            return it->second;
        std::lock_guard lock(mutex_);
        if (auto it = daemon_.find(std::string(key)); it != daemon_.end())
            return it->second;
        return std::nullopt;
    } catch (...) {
        return std::nullopt;
    }
}

plugin::v1::Status PluginHost::writeKnob(std::string_view path, std::string_view text) noexcept
{
    return changeHostKnob(paths_, privilege::KnobOp::Write, path, text);
}

plugin::v1::Status PluginHost::makeKnobDirectory(std::string_view path) noexcept
{
    return changeHostKnob(paths_, privilege::KnobOp::MakeGroup, path, {});
}

void PluginHost::setDaemonSettings(std::map<std::string, std::string> settings)
{
    std::lock_guard lock(mutex_);
    daemon_ = std::move(settings);
}

} // namespace nicd::plugins
