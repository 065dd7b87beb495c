#include "capture/host_files.hpp"

#include "capture/node_files.hpp"
#include "capture/text_util.hpp"
#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "kernel_log/kernel_journal.hpp"
#include "paths/beneath.hpp"
#include "provision/driver_ready.hpp"
#include "traits.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>

namespace nicd::sim::capture {

namespace fs = std::filesystem;

namespace {

void copyAs(const NodeRoot& root, const std::string& from, const std::string& to, Scrub scrub,
            CaptureTree& tree, Manifest& manifest)
{
    auto r = root.read(from);
    if (r.status == NodeRead::Status::Ok)
        tree.file(to, std::move(r.data), scrub);
    else if (r.status == NodeRead::Status::Symlink)
        manifest.skip("host file", to, "a symlink: not followed, not read");
    else if (r.status != NodeRead::Status::Missing)
        manifest.unreadable(to, r.error.empty() ? "not a regular file" : r.error);
}

std::string textOf(const NodeRoot& root, const std::string& rel)
{
    auto r = root.read(rel);
    return r.status == NodeRead::Status::Ok ? r.data : std::string();
}

// /proc/net is the kernel's link to self/net, and /proc/self its link to the reader's PID (as
// that proc mount numbers it): those two are followed by their shape (the target "self/net", a
// PID of digits), no other link. Elsewhere (a simulated node) proc/net is a directory.
std::string procNet(const NodeRoot& root, const std::string& name)
{
    auto net = root.link("proc/net");
    auto self = net == "self/net" ? root.link("proc/self") : std::nullopt;
    if (self && !self->empty() &&
        std::all_of(self->begin(), self->end(), [](char c) { return c >= '0' && c <= '9'; }))
        return "proc/" + *self + "/net/" + name;
    return "proc/net/" + name;
}

// A file nicd's configuration names: copied as `as` (its own path when empty) when it is inside
// the source, read where its links inside the source lead; noted when it leads out. True when
// there is one to copy.
bool copyConfigured(const NodeRoot& root, const fs::path& file, const std::string& as, Scrub scrub,
                    CaptureTree& tree, Manifest& manifest, const char* what)
{
    const auto& src = root.path();
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file, ec)))
        return false;
    // As the host path it stands for: "/run/../../etc/x" is "/etc/x" (there is nothing above /).
    const auto host = (fs::path("/") / file.lexically_relative(src)).lexically_normal();
    auto real = insideSource(src, file);
    if (!real) {
        manifest.skip(what, host.relative_path().string(),
                      "leads outside the captured node: not read");
        return false;
    }
    copyAs(root, *real, as.empty() ? host.relative_path().string() : as, scrub, tree, manifest);
    return true;
}

Config nodeConfig(const HostPaths& paths, Manifest& manifest)
{
    auto result =
        loadConfig(paths.host("/etc/nicd/nicd.conf"), paths.host("/etc/nicd/nicd.conf.d"), paths);
    if (result.config)
        return *result.config;
    manifest.skip("nicd configuration", "etc/nicd/nicd.conf",
                  "it has errors (nicd --check-config says which); nicd's default paths used to "
                  "find what it said");
    return defaultConfig();
}

void rdmaCm(const NodeRoot& root, NodeKind kind, const CapturedNode& node, CaptureTree& tree,
            Manifest& manifest)
{
    const std::string cm = "sys/kernel/config/rdma_cm";
    if (!root.isDirectory(cm))
        return;
    tree.dir(cm);
    const auto groups = root.list(cm);
    for (const auto& d : node.devices) {
        if (std::find(groups.begin(), groups.end(), d.name) == groups.end()) {
            if (kind !=
                NodeKind::Simulated) // reading it would mean mkdir: a capture changes nothing
                manifest.skip("rdma_cm", d.name,
                              "no configfs group: the ToS reads 0 in the replay (the kernel "
                              "default unless another tool set it before)");
            continue;
        }
        for (const auto& port : root.list(cm + "/" + d.name + "/ports")) {
            auto rel = cm + "/" + d.name + "/ports/" + port;
            copyAs(root, rel + "/default_roce_tos", rel + "/default_roce_tos", Scrub::Known, tree,
                   manifest);
        }
    }
}

} // namespace

std::optional<std::string> insideSource(const fs::path& src, const fs::path& path)
{
    // As the host path it stands for: "/run/../../etc/x" is "/etc/x" (there is nothing above /).
    auto host = (fs::path("/") / path.lexically_relative(src)).lexically_normal();
    if (host.relative_path().empty() || path.lexically_relative(src).empty())
        return std::nullopt;
    auto resolved = paths::resolveBeneath(src, host.string());
    return resolved ? std::optional<std::string>(std::move(*resolved)) : std::nullopt;
}

HostNames captureHostFiles(const NodeRoot& root, NodeKind kind, const CapturedNode& node,
                           CaptureTree& tree, Manifest& manifest)
{
    const HostPaths paths(root.path());
    copyAs(root, procNet(root, "route"), "proc/net/route", Scrub::Ipv4Routes, tree, manifest);
    copyAs(root, procNet(root, "ipv6_route"), "proc/net/ipv6_route", Scrub::Ipv6Routes, tree,
           manifest);
    copyAs(root, "proc/sys/kernel/random/boot_id", "proc/sys/kernel/random/boot_id", Scrub::BootId,
           tree, manifest);
    copyAs(root, "etc/nicd/nicd.conf", "etc/nicd/nicd.conf", Scrub::FreeText, tree, manifest);
    for (const auto& f : root.list("etc/nicd/nicd.conf.d"))
        if (f.ends_with(".conf") && !f.starts_with(".")) // what nicd reads
            copyAs(root, "etc/nicd/nicd.conf.d/" + f, "etc/nicd/nicd.conf.d/" + f, Scrub::FreeText,
                   tree, manifest);
    const auto config = nodeConfig(paths, manifest);
    // Each plugin's driver-ready file (mlx5's: bnxt's plugin names none), as the plugin itself
    // names it, and the one DriverReadyFile= names.
    std::vector<fs::path> ready;
    if (auto named = provision::namedReadyFile(config.provision, paths))
        ready.push_back(*named);
    ready.push_back(paths.host(mlx5::kDriverReadyFile));
    for (const auto& file : ready)
        copyConfigured(root, file, {}, Scrub::Done, tree, manifest, "driver-ready file");
    // The wiring map [health] WiringMap= names: the replay reads it as nicd did (the switches'
    // names in it scrubbed as in the neighbours' twin).
    if (!config.health.wiring.file.empty())
        copyConfigured(root, paths.host(config.health.wiring.file), {}, Scrub::FreeText, tree,
                       manifest, "wiring map");
    rdmaCm(root, kind, node, tree, manifest);
    // What nicd said, where the node's configuration has it write.
    struct Said {
        fs::path from;
        const char* as;
    };
    for (const auto& s :
         {Said{paths.host(config.textfile.path), "nicd.prom"},
          Said{paths.host(config.daemon.state_directory) / "state.json", "state.json"}}) {
        auto to = std::string(kSaidDir) + "/" + s.as;
        if (copyConfigured(root, s.from, to, Scrub::FreeText, tree, manifest, "what nicd said") &&
            tree.has(to))
            manifest.said.push_back(to);
    }
    for (const char* d :
         {"etc/nicd", "var/lib/nicd", "var/lib/prometheus/node-exporter", "var/log/journal",
          "run/log/journal", "sys/kernel/config", "sys/class/infiniband", "sys/class/net",
          "sys/bus/pci/devices", "sys/devices/virtual/net", "run/nicd-sim/tmp"})
        tree.dir(d);

    HostNames names;
    if (const auto* boot_id = tree.find("proc/sys/kernel/random/boot_id"))
        names.boot_id = kernel_log::parseBootId(boot_id->data);
    names.machine_id = trimmed(textOf(root, "etc/machine-id"));
    for (const char* f : {"proc/sys/kernel/hostname", "etc/hostname"})
        if (auto h = trimmed(textOf(root, f)); !h.empty())
            names.hostnames.push_back(h);
    if (kind == NodeKind::Real) {
        std::array<char, 256> buf{};
        if (::gethostname(buf.data(), buf.size() - 1) == 0 && buf[0] != '\0')
            names.hostnames.emplace_back(buf.data());
    }
    names.if_inet6.push_back(textOf(root, procNet(root, "if_inet6")));
    return names;
}

} // namespace nicd::sim::capture
