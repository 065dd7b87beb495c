// The walk's plumbing and the RDMA devices; PCI functions and netdevs are in sysfs_walk_pci.cpp.
#include "capture/sysfs_walk.hpp"

#include "sim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

namespace nicd::sim::capture {

namespace {

bool isNumber(const std::string& s)
{
    unsigned v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

std::string firstLine(const std::string& text)
{
    auto line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
        line.pop_back();
    return line;
}

} // namespace

SysfsWalk::SysfsWalk(fs::path src, CaptureTree& tree, Manifest& manifest,
                     std::chrono::milliseconds deadline)
    : src_(std::move(src)), tree_(tree), manifest_(manifest), deadline_(deadline)
{
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
    if (r.empty() || r.starts_with(".."))
        return std::nullopt; // outside the node's root (a fixture's absolute link)
    return real;
}

void SysfsWalk::copyFile(const fs::path& p, Scrub scrub, bool quiet)
{
    auto r = readNodeFile(p);
    switch (r.status) {
    case NodeRead::Status::Ok:
        tree_.file(rel(p), std::move(r.data), scrub);
        break;
    case NodeRead::Status::Fifo:
        tree_.fifo(rel(p));
        break;
    case NodeRead::Status::Missing:
        break;
    case NodeRead::Status::Error:
    case NodeRead::Status::TimedOut:
        if (!quiet) // the kernel refuses some attributes for good reasons (a down link's speed)
            manifest_.unreadable(rel(p), r.error);
        break;
    }
}

void SysfsWalk::copyFiles(const fs::path& dir, std::span<const char* const> names, Scrub scrub)
{
    for (const char* n : names)
        copyFile(dir / n, scrub, true);
}

void SysfsWalk::copyLink(const fs::path& link)
{
    std::error_code ec;
    auto target = fs::read_symlink(link, ec);
    if (ec)
        return;
    if (target.is_absolute()) // sysfs links are relative; keep the capture self-contained
        target = (src_ / target.relative_path()).lexically_relative(link.parent_path());
    tree_.symlink(rel(link), target.string());
}

void SysfsWalk::copyTree(const fs::path& dir, int depth)
{
    for (const auto& name : listDir(dir)) {
        auto p = dir / name;
        std::error_code ec;
        auto st = fs::symlink_status(p, ec);
        if (ec || fs::is_symlink(st))
            continue;
        if (fs::is_directory(st)) {
            if (depth > 0)
                copyTree(p, depth - 1);
        } else {
            copyFile(p, Scrub::Known, true);
        }
    }
}

void SysfsWalk::readCounters(const std::vector<std::string>& files, CaptureTree& into)
{
    std::vector<fs::path> paths;
    paths.reserve(files.size());
    for (const auto& f : files)
        paths.push_back(src_ / f);
    auto results = readWithDeadline(paths, deadline_);
    bool noted = false;
    for (size_t i = 0; i < files.size(); ++i) {
        auto& r = results[i];
        switch (r.status) {
        case NodeRead::Status::Ok:
            into.file(files[i], std::move(r.data), Scrub::Done);
            break;
        case NodeRead::Status::Fifo:
            into.fifo(files[i]);
            break;
        case NodeRead::Status::TimedOut:
            into.fifo(files[i]);
            if (!noted)
                manifest_.skip("counters", files[i],
                               fmt::format("no answer within {} ms: this and the device's later "
                                           "counter files are FIFOs in the capture, so reads "
                                           "block in the replay too",
                                           deadline_.count()));
            noted = true;
            break;
        case NodeRead::Status::Missing:
            break;
        case NodeRead::Status::Error:
            manifest_.unreadable(files[i], r.error);
            break;
        }
    }
}

void SysfsWalk::ports(const fs::path& ib_dir, CapturedDevice& d, CapturedNode& node)
{
    std::vector<std::string> port_names;
    for (const auto& p : listDir(ib_dir / "ports"))
        if (isNumber(p))
            port_names.push_back(p);
    std::sort(port_names.begin(), port_names.end(),
              [](const auto& a, const auto& b) { return std::stoul(a) < std::stoul(b); });
    for (const auto& pn : port_names) {
        auto pd = ib_dir / "ports" / pn;
        copyFiles(pd, std::to_array({"state", "phys_state", "rate", "link_layer"}));
        if (pn == "1" || port_names.size() == 1)
            if (auto ll = readNodeFile(pd / "link_layer"); ll.status == NodeRead::Status::Ok)
                d.infiniband = firstLine(ll.data) == "InfiniBand";
        for (const char* group : {"counters", "hw_counters"})
            for (const auto& f : listDir(pd / group))
                d.counter_files.push_back(rel(pd / group / f));
        // The netdev of each GID; unused GIDs refuse the read (EINVAL): left out, as nicd does.
        std::vector<std::pair<unsigned long, std::string>> gid_netdevs;
        for (const auto& g : listDir(pd / "gid_attrs/ndevs")) {
            auto r = readNodeFile(pd / "gid_attrs/ndevs" / g);
            if (r.status != NodeRead::Status::Ok || !isNumber(g))
                continue;
            tree_.file(rel(pd / "gid_attrs/ndevs" / g), r.data);
            gid_netdevs.emplace_back(std::stoul(g), firstLine(r.data));
        }
        std::sort(gid_netdevs.begin(), gid_netdevs.end());
        for (const auto& [index, nd] : gid_netdevs) {
            if (nd.empty() || nd.find('/') != std::string::npos)
                continue;
            netdev(nd, node);
            if ((pn == "1" || port_names.size() == 1) &&
                std::find(d.port1_netdevs.begin(), d.port1_netdevs.end(), nd) ==
                    d.port1_netdevs.end())
                d.port1_netdevs.push_back(nd);
        }
        if (fs::exists(ib_dir / "tc" / pn / "traffic_class"))
            copyFile(ib_dir / "tc" / pn / "traffic_class");
    }
    readCounters(d.counter_files, tree_);
}

void SysfsWalk::device(const std::string& name, CapturedNode& node)
{
    const auto link = src_ / "sys/class/infiniband" / name;
    auto ib_dir = resolve(link);
    if (!ib_dir) {
        manifest_.skip("rdma device", name, "sys/class/infiniband/" + name + " leads nowhere");
        return;
    }
    if (fs::is_symlink(link))
        copyLink(link);
    CapturedDevice d;
    d.name = name;
    d.ib_rel = rel(*ib_dir);
    copyFiles(*ib_dir, std::to_array({"fw_ver", "board_id", "hca_type", "hw_rev", "node_type"}));
    copyFiles(*ib_dir, std::to_array({"node_guid", "sys_image_guid"}), Scrub::Guid);
    if (fs::is_symlink(*ib_dir / "device"))
        copyLink(*ib_dir / "device");
    if (auto fn = resolve(*ib_dir / "device")) {
        d.function_rel = rel(*fn);
        d.pci_address = fn->filename().string();
        d.virtual_function = fs::exists(*fn / "physfn");
        function(*fn, true, node);
    }
    ports(*ib_dir, d, node);
    if (d.port1_netdevs.empty() && !d.function_rel.empty()) // no GIDs (InfiniBand): the function's
        for (const auto& nd : listDir(src_ / d.function_rel / "net"))
            d.port1_netdevs.push_back(nd);
    node.devices.push_back(std::move(d));
}

CapturedNode SysfsWalk::run(const std::vector<std::string>& only)
{
    auto names = listDir(src_ / "sys/class/infiniband");
    for (const auto& want : only)
        if (std::find(names.begin(), names.end(), want) == names.end())
            throw SimError(fmt::format("--devices: no RDMA device {} on this node (devices: {})",
                                       want, fmt::join(names, " ")));
    CapturedNode node;
    for (const auto& name : names)
        if (only.empty() || std::find(only.begin(), only.end(), name) != only.end())
            device(name, node);
    gpus(node);
    return node;
}

} // namespace nicd::sim::capture
