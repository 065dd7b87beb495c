#include "capture/host_files.hpp"

#include "capture/node_files.hpp"
#include "capture/text_util.hpp"
#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "journal/kernel_journal.hpp"
#include "provision/driver_ready.hpp"

#include <unistd.h>

#include <array>

namespace nicd::sim::capture {

namespace fs = std::filesystem;

namespace {

void copyAs(const fs::path& from, const std::string& to, Scrub scrub, CaptureTree& tree,
            Manifest& manifest)
{
    auto r = readNodeFile(from);
    if (r.status == NodeRead::Status::Ok)
        tree.file(to, std::move(r.data), scrub);
    else if (r.status != NodeRead::Status::Missing)
        manifest.unreadable(to, r.error.empty() ? "not a regular file" : r.error);
}

bool isDirectory(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// A file nicd's configuration names: copied as `as` (its own path when empty) when it is inside
// the source; noted when it leads out. True when there is one to copy.
bool copyConfigured(const fs::path& src, const fs::path& file, const std::string& as, Scrub scrub,
                    CaptureTree& tree, Manifest& manifest, const char* what)
{
    std::error_code ec;
    if (!fs::exists(file, ec))
        return false;
    auto rel = insideSource(src, file);
    if (!rel) {
        manifest.skip(what, file.lexically_relative(src).lexically_normal().string(),
                      "leads outside the captured node: not read");
        return false;
    }
    copyAs(src / *rel, as.empty() ? *rel : as, scrub, tree, manifest);
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

void rdmaCm(const fs::path& src, NodeKind kind, const CapturedNode& node, CaptureTree& tree,
            Manifest& manifest)
{
    const auto cm = src / "sys/kernel/config/rdma_cm";
    if (!isDirectory(cm))
        return;
    tree.dir("sys/kernel/config/rdma_cm");
    for (const auto& d : node.devices) {
        if (!isDirectory(cm / d.name)) {
            if (kind !=
                NodeKind::Simulated) // reading it would mean mkdir: a capture changes nothing
                manifest.skip("rdma_cm", d.name,
                              "no configfs group: the ToS reads 0 in the replay (the kernel "
                              "default unless another tool set it before)");
            continue;
        }
        for (const auto& port : listDir(cm / d.name / "ports")) {
            auto rel = "sys/kernel/config/rdma_cm/" + d.name + "/ports/" + port;
            copyAs(cm / d.name / "ports" / port / "default_roce_tos", rel + "/default_roce_tos",
                   Scrub::Known, tree, manifest);
        }
    }
}

} // namespace

std::optional<std::string> insideSource(const fs::path& src, const fs::path& path)
{
    // As the host path it stands for: "/run/../../etc/x" is "/etc/x" (there is nothing above /).
    auto host = (fs::path("/") / path.lexically_relative(src)).lexically_normal();
    auto rel = host.relative_path();
    if (rel.empty() || path.lexically_relative(src).empty())
        return std::nullopt;
    std::error_code ec;
    auto real = fs::weakly_canonical(src / rel, ec);
    if (ec)
        return std::nullopt;
    auto real_rel = real.lexically_relative(src);
    if (real_rel.empty() || *real_rel.begin() == "..")
        return std::nullopt; // a symlink leads out
    return rel.string();
}

HostNames captureHostFiles(const fs::path& src, NodeKind kind, const CapturedNode& node,
                           CaptureTree& tree, Manifest& manifest)
{
    const HostPaths paths(src);
    copyAs(src / "proc/net/route", "proc/net/route", Scrub::Ipv4Routes, tree, manifest);
    copyAs(src / "proc/net/ipv6_route", "proc/net/ipv6_route", Scrub::Ipv6Routes, tree, manifest);
    copyAs(src / "proc/sys/kernel/random/boot_id", "proc/sys/kernel/random/boot_id", Scrub::BootId,
           tree, manifest);
    copyAs(src / "etc/nicd/nicd.conf", "etc/nicd/nicd.conf", Scrub::FreeText, tree, manifest);
    for (const auto& f : listDir(src / "etc/nicd/nicd.conf.d"))
        if (f.ends_with(".conf") && !f.starts_with(".")) // what nicd reads
            copyAs(src / "etc/nicd/nicd.conf.d" / f, "etc/nicd/nicd.conf.d/" + f, Scrub::FreeText,
                   tree, manifest);
    const auto config = nodeConfig(paths, manifest);
    for (auto file : {std::optional<fs::path>(paths.host(provision::kOperatorDriverReadyFile)),
                      provision::driverReadyFile(config.provision, paths)})
        if (file)
            copyConfigured(src, *file, {}, Scrub::Done, tree, manifest, "driver-ready file");
    rdmaCm(src, kind, node, tree, manifest);
    // What nicd said, where the node's configuration has it write.
    struct Said {
        fs::path from;
        const char* as;
    };
    for (const auto& s :
         {Said{paths.host(config.textfile.path), "nicd.prom"},
          Said{paths.host(config.daemon.state_directory) / "state.json", "state.json"}}) {
        auto to = std::string(kSaidDir) + "/" + s.as;
        if (copyConfigured(src, s.from, to, Scrub::FreeText, tree, manifest, "what nicd said") &&
            tree.has(to))
            manifest.said.push_back(to);
    }
    for (const char* d :
         {"etc/nicd", "var/lib/nicd", "var/lib/prometheus/node-exporter", "var/log/journal",
          "run/log/journal", "sys/kernel/config", "sys/class/infiniband", "sys/class/net",
          "sys/bus/pci/devices", "sys/devices/virtual/net", "run/nicd-sim/tmp"})
        tree.dir(d);

    HostNames names;
    names.boot_id = readBootId(src / "proc/sys/kernel/random/boot_id");
    names.machine_id = trimmed(readNodeFile(src / "etc/machine-id").data);
    for (const char* f : {"proc/sys/kernel/hostname", "etc/hostname"})
        if (auto h = trimmed(readNodeFile(src / f).data); !h.empty())
            names.hostnames.push_back(h);
    if (kind == NodeKind::Real) {
        std::array<char, 256> buf{};
        if (::gethostname(buf.data(), buf.size() - 1) == 0 && buf[0] != '\0')
            names.hostnames.emplace_back(buf.data());
    }
    names.if_inet6.push_back(readNodeFile(src / "proc/net/if_inet6").data);
    return names;
}

} // namespace nicd::sim::capture
