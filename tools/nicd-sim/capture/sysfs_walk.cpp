// The walk's plumbing and the RDMA devices; PCI functions and netdevs are in sysfs_walk_pci.cpp.
#include "capture/sysfs_walk.hpp"

#include "capture/text_util.hpp"
#include "sim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>

namespace nicd::sim::capture {

namespace {

bool isNumber(const std::string& s)
{
    unsigned v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

// The kernel's "no value here" (a down link's speed, a PF's phys_port_name, an idle sensor):
// what nicd meets on every healthy node, not worth a note.
bool noValue(const NodeRead& r)
{
    return r.err == EINVAL || r.err == EOPNOTSUPP || r.err == ENODATA;
}

} // namespace

std::string keptLinkTarget(const std::string& link_rel, const std::string& target)
{
    const auto dir = (fs::path("/") / link_rel).parent_path();
    const auto full =
        (target.starts_with('/') ? fs::path(target) : dir / target).lexically_normal();
    auto kept = full.lexically_relative(dir);
    return kept.empty() ? std::string(".") : kept.string();
}

SysfsWalk::SysfsWalk(std::shared_ptr<const NodeRoot> root, CaptureTree& tree, Manifest& manifest,
                     std::shared_ptr<const FileReader> reader)
    : root_(std::move(root)), src_(root_->path()), tree_(tree), manifest_(manifest),
      reader_(std::move(reader))
{
}

NodeRead SysfsWalk::read(const fs::path& p)
{
    if (!guard_)
        return (*reader_)(p);
    // The read may not come back: it owns what it uses (deadline_job.hpp).
    return guard_->unlocked(rel(p), [reader = reader_, p] { return (*reader)(p); });
}

std::string SysfsWalk::rel(const fs::path& p) const
{
    return p.lexically_relative(src_).string();
}

std::optional<fs::path> SysfsWalk::resolve(const fs::path& p) const
{
    std::error_code ec;
    auto real = fs::canonical(p, ec);
    if (ec)
        return std::nullopt;
    auto r = real.lexically_relative(src_).string();
    if (!r.starts_with("sys/"))
        return std::nullopt; // outside the node's sysfs (a fixture's absolute link, a planted one)
    return real;
}

bool SysfsWalk::exists(const fs::path& p)
{
    std::error_code ec;
    bool there = fs::exists(p, ec);
    if (ec && ec.value() != ENOENT && ec.value() != ENOTDIR)
        manifest_.unreadable(rel(p), ec.message());
    return there && !ec;
}

bool SysfsWalk::isSymlink(const fs::path& p)
{
    std::error_code ec;
    bool link = fs::is_symlink(p, ec);
    if (ec && ec.value() != ENOENT && ec.value() != ENOTDIR)
        manifest_.unreadable(rel(p), ec.message());
    return link && !ec;
}

void SysfsWalk::copyFile(const fs::path& p, Scrub scrub)
{
    auto r = read(p);
    switch (r.status) {
    case NodeRead::Status::Ok:
        tree_.file(rel(p), std::move(r.data), scrub);
        break;
    case NodeRead::Status::Fifo:
        tree_.fifo(rel(p));
        break;
    case NodeRead::Status::Symlink:
        keepLink(rel(p), r.data);
        break;
    case NodeRead::Status::Missing:
        break;
    case NodeRead::Status::Error:
        if (!noValue(r))
            manifest_.unreadable(rel(p), r.error);
        break;
    }
}

void SysfsWalk::copyFiles(const fs::path& dir, std::span<const char* const> names, Scrub scrub)
{
    for (const char* n : names)
        copyFile(dir / n, scrub);
}

void SysfsWalk::copyLink(const fs::path& link)
{
    if (auto target = root_->link(link))
        keepLink(rel(link), *target);
}

void SysfsWalk::keepLink(const std::string& rel, const std::string& target)
{
    tree_.symlink(rel, keptLinkTarget(rel, target));
}

void SysfsWalk::copyTree(const fs::path& dir, int depth)
{
    for (const auto& name : list(dir)) {
        auto p = dir / name;
        std::error_code ec;
        auto st = fs::symlink_status(p, ec);
        if (ec || fs::is_symlink(st))
            continue;
        if (fs::is_directory(st)) {
            if (depth > 0)
                copyTree(p, depth - 1);
        } else {
            copyFile(p);
        }
    }
}

void SysfsWalk::readCounter(const std::string& file, CaptureTree& into, JobGuard* guard)
{
    guard_ = guard;
    auto r = read(src_ / file);
    switch (r.status) {
    case NodeRead::Status::Ok:
        into.file(file, std::move(r.data), Scrub::Done);
        break;
    case NodeRead::Status::Fifo:
        into.fifo(file);
        break;
    case NodeRead::Status::Missing:
        break;
    case NodeRead::Status::Symlink:
        manifest_.unreadable(file, "a symlink where a counter should be: not followed");
        break;
    case NodeRead::Status::Error:
        manifest_.unreadable(file, r.error);
        break;
    }
}

void SysfsWalk::ports(const fs::path& ib_dir, CapturedDevice& d, CapturedNode& node)
{
    std::vector<std::string> port_names;
    for (const auto& p : list(ib_dir / "ports"))
        if (isNumber(p))
            port_names.push_back(p);
    std::sort(port_names.begin(), port_names.end(),
              [](const auto& a, const auto& b) { return std::stoul(a) < std::stoul(b); });
    for (const auto& pn : port_names) {
        auto pd = ib_dir / "ports" / pn;
        const bool first_port = pn == "1" || port_names.size() == 1;
        for (const char* group : {"counters", "hw_counters"})
            for (const auto& f : list(pd / group))
                d.counter_files.push_back(rel(pd / group / f));
        // cap_mask: IsSMDisabled tells a multi-plane port, which has no issm by design.
        copyFiles(pd, std::to_array({"state", "phys_state", "rate", "link_layer", "cap_mask"}));
        if (first_port)
            if (const auto* ll = tree_.find(rel(pd / "link_layer")); ll && !ll->data.empty())
                d.infiniband = firstLine(ll->data) == "InfiniBand";
        // The netdev of each GID; unused GIDs refuse the read (EINVAL): left out, as nicd does.
        std::vector<std::pair<unsigned long, std::string>> gid_netdevs;
        for (const auto& g : list(pd / "gid_attrs/ndevs")) {
            if (!isNumber(g))
                continue;
            auto r = read(pd / "gid_attrs/ndevs" / g);
            if (r.status != NodeRead::Status::Ok)
                continue;
            tree_.file(rel(pd / "gid_attrs/ndevs" / g), r.data);
            gid_netdevs.emplace_back(std::stoul(g), firstLine(r.data));
        }
        std::sort(gid_netdevs.begin(), gid_netdevs.end());
        for (const auto& [index, nd] : gid_netdevs) {
            if (nd.empty() || nd.find('/') != std::string::npos)
                continue;
            netdev(nd, node);
            if (first_port && std::find(d.port1_netdevs.begin(), d.port1_netdevs.end(), nd) ==
                                  d.port1_netdevs.end())
                d.port1_netdevs.push_back(nd);
        }
        gids(pd);
        if (exists(ib_dir / "tc" / pn / "traffic_class"))
            copyFile(ib_dir / "tc" / pn / "traffic_class");
    }
}

void SysfsWalk::device(const std::string& name, CapturedNode& node, JobGuard* guard)
{
    guard_ = guard;
    const auto link = src_ / "sys/class/infiniband" / name;
    auto ib_dir = resolve(link);
    if (!ib_dir) {
        manifest_.skip("rdma device", name, "sys/class/infiniband/" + name + " leads nowhere");
        return;
    }
    // In the node first, filled as the walk goes: a walk that stops half way leaves what it read.
    auto& d = node.devices.emplace_back();
    current_ = &d;
    d.name = name;
    d.ib_rel = rel(*ib_dir);
    if (isSymlink(link))
        copyLink(link);
    copyFiles(*ib_dir, std::to_array({"fw_ver", "board_id", "hca_type", "hw_rev", "node_type"}));
    copyFiles(*ib_dir, std::to_array({"node_guid", "sys_image_guid"}), Scrub::Guid);
    if (auto r = read(*ib_dir / "node_desc"); r.status == NodeRead::Status::Ok)
        d.node_desc_host = r.data.substr(0, r.data.find_first_of(" \t\n"));
    if (isSymlink(*ib_dir / "device"))
        copyLink(*ib_dir / "device");
    if (auto fn = resolve(*ib_dir / "device")) {
        d.function_rel = rel(*fn);
        d.pci_address = fn->filename().string();
        d.virtual_function = exists(*fn / "physfn");
        function(*fn, true, node);
    }
    ports(*ib_dir, d, node);
    if (d.port1_netdevs.empty() && !d.function_rel.empty()) // no GIDs (InfiniBand): the function's
        for (const auto& nd : list(src_ / d.function_rel / "net"))
            d.port1_netdevs.push_back(nd);
    current_ = nullptr;
}

std::vector<std::string> SysfsWalk::deviceNames(const std::vector<std::string>& only) const
{
    auto names = list(src_ / "sys/class/infiniband");
    for (const auto& want : only)
        if (std::find(names.begin(), names.end(), want) == names.end())
            throw SimError(fmt::format("--devices: no RDMA device {} on this node (devices: {})",
                                       want, fmt::join(names, " ")));
    if (!only.empty())
        std::erase_if(names, [&](const auto& n) {
            return std::find(only.begin(), only.end(), n) == only.end();
        });
    return names;
}

} // namespace nicd::sim::capture
