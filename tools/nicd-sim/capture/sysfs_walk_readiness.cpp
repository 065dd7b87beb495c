// What nicd's readiness checks read (daemon/readiness/), copied beneath the source without
// following a link (see sysfs_walk.hpp): a replay judges as the node did.
#include "capture/sysfs_walk.hpp"
#include "inventory/sysfs_values.hpp"
#include "readiness/gid_text.hpp"

#include <fmt/format.h>

#include <array>

namespace nicd::sim::capture {

namespace {

// A GID of the same kind with no identifier in it: the checks need only the kind.
std::string placeholderGid(std::string_view text, const std::string& index)
{
    auto gid = readiness::parseGid(text);
    if (!gid)
        return "";
    unsigned n = static_cast<unsigned>(std::stoul(index) & 0xffff);
    switch (readiness::gidKind(*gid)) {
    case readiness::GidKind::Zero:
        return "0000:0000:0000:0000:0000:0000:0000:0000\n";
    case readiness::GidKind::Ipv4Mapped: // 10.255.0.<n>: a private address, as the scrubber's
        return fmt::format("0000:0000:0000:0000:0000:ffff:0aff:{:04x}\n", n);
    case readiness::GidKind::LinkLocal:
        return fmt::format("fe80:0000:0000:0000:0000:0000:0000:{:04x}\n", n);
    case readiness::GidKind::Ipv6: // a unique local address
        return fmt::format("fd00:0000:0000:0000:0000:0000:0000:{:04x}\n", n);
    }
    return "";
}

} // namespace

void SysfsWalk::gids(const fs::path& port_dir)
{
    for (const auto& g : list(port_dir / "gids")) {
        if (g.empty() || g.find_first_not_of("0123456789") != std::string::npos)
            continue;
        auto r = read(port_dir / "gids" / g);
        if (r.status != NodeRead::Status::Ok)
            continue;
        auto text = placeholderGid(r.data, g);
        if (text.empty())
            continue;
        tree_.file(rel(port_dir / "gids" / g), text, Scrub::Done);
        // Unused entries refuse their type (EINVAL): left out, as nicd does.
        if (auto t = read(port_dir / "gid_attrs/types" / g); t.status == NodeRead::Status::Ok)
            tree_.file(rel(port_dir / "gid_attrs/types" / g), t.data);
    }
}

void SysfsWalk::verbs(const fs::path& function_dir)
{
    const auto dir = function_dir / "infiniband_verbs";
    for (const auto& u : list(dir)) {
        if (!u.starts_with("uverbs"))
            continue;
        copyFiles(dir / u, std::to_array({"ibdev", "dev", "abi_version"}));
        charDevice("infiniband_verbs", u);
    }
}

void SysfsWalk::mads(const fs::path& function_dir)
{
    const auto dir = function_dir / "infiniband_mad";
    for (const auto& m : list(dir)) {
        if (!m.starts_with("umad") && !m.starts_with("issm"))
            continue;
        copyFiles(dir / m, std::to_array({"ibdev", "port", "dev"}));
        charDevice("infiniband_mad", m);
    }
}

void SysfsWalk::charDevice(const std::string& cls, const std::string& name)
{
    if (isSymlink(src_ / "sys/class" / cls / name))
        copyLink(src_ / "sys/class" / cls / name);
    // Whether udev made the node: its existence only, never opened.
    if (exists(src_ / "dev/infiniband" / name))
        tree_.file(rel(src_ / "dev/infiniband" / name), "", Scrub::Done);
}

void SysfsWalk::bridgeConfigs(const fs::path& function_dir)
{
    for (auto dir = function_dir.parent_path();
         dir.has_filename() && sysfs::isPciAddress(dir.filename().string());
         dir = dir.parent_path()) {
        const auto r_rel = rel(dir / "config");
        if (tree_.find(r_rel))
            continue;
        auto r = read(dir / "config");
        if (r.status == NodeRead::Status::Ok)
            tree_.file(r_rel, r.data, Scrub::Done); // binary: no identifier in it
        else
            manifest_.skip("bridge config", rel(dir), "not readable");
    }
}

void SysfsWalk::readinessHostFiles()
{
    guard_ = nullptr;
    current_ = nullptr;
    for (const char* f :
         {"sys/kernel/mm/memory_peers/nv_mem/version",
          "sys/kernel/mm/memory_peers/nv_mem_nc/version", "sys/module/nvidia_peermem/version",
          "proc/driver/nvidia/version", "proc/sys/kernel/osrelease",
          "sys/class/infiniband_verbs/abi_version", "sys/class/infiniband_mad/abi_version"})
        if (exists(src_ / f))
            copyFile(src_ / f);
}

} // namespace nicd::sim::capture
