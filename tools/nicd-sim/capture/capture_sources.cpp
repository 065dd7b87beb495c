#include "capture/capture_sources.hpp"

namespace nicd::sim::capture {

namespace {

// `out` into `tree` at `rel`; true when captured. A failure is noted, an absence is not.
bool take(const ToolOutput& out, const char* source, const std::string& item,
          const std::string& rel, Scrub scrub, CaptureTree& tree, Manifest& manifest)
{
    switch (out.status) {
    case ToolOutput::Status::Ok:
        tree.file(rel, out.data, scrub);
        return true;
    case ToolOutput::Status::Failed:
        manifest.skip(source, item, out.why);
        return false;
    case ToolOutput::Status::Absent:
        return false;
    }
    return false;
}

} // namespace

ToolCapture captureToolOutputs(ToolOutputs& tools, const CapturedNode& node, CaptureTree& tree,
                               Manifest& manifest)
{
    ToolCapture captured;
    for (const auto& nd : node.netdevs) {
        if (node.bonds.contains(nd))
            continue;
        if (take(tools.ethtoolStats(nd), "ethtool statistics", nd, ethtoolPath(nd), Scrub::Known,
                 tree, manifest))
            captured.ethtool.insert(nd);
        if (take(tools.fec(nd), "fec", nd, fecPath(nd), Scrub::Known, tree, manifest))
            captured.fec.insert(nd);
        take(tools.moduleEeprom(nd), "module eeprom", nd, modulePath(nd), Scrub::ModuleEeprom, tree,
             manifest);
        take(tools.dcb(nd), "dcb", nd, dcbPath(nd), Scrub::Known, tree, manifest);
    }
    take(tools.devlinkHealth(), "devlink health", "", devlinkHealthPath(), Scrub::Known, tree,
         manifest);
    return captured;
}

CaptureTree readSampleSources(SysfsWalk& walk, ToolOutputs& tools, const CapturedNode& node,
                              const ToolCapture& captured, Manifest& manifest)
{
    CaptureTree t;
    for (const auto& d : node.devices)
        walk.readCounters(d.counter_files, t);
    for (const auto& nd : captured.ethtool)
        take(tools.ethtoolStats(nd), "ethtool statistics", nd, ethtoolPath(nd), Scrub::Known, t,
             manifest);
    for (const auto& nd : captured.fec)
        take(tools.fec(nd), "fec", nd, fecPath(nd), Scrub::Known, t, manifest);
    return t;
}

CaptureSample sampleOf(const CaptureTree& tree, const CapturedNode& node,
                       const ToolCapture& captured, double offset_s)
{
    CaptureSample s;
    s.offset_s = offset_s;
    auto add = [&](const std::string& rel) {
        if (const auto* e = tree.find(rel); e && e->kind == EntryKind::File)
            s.files[rel] = e->data;
    };
    for (const auto& d : node.devices)
        for (const auto& f : d.counter_files)
            add(f);
    for (const auto& nd : captured.ethtool)
        add(ethtoolPath(nd));
    for (const auto& nd : captured.fec)
        add(fecPath(nd));
    return s;
}

CaptureSample changedSince(const CaptureSample& before, const CaptureSample& now)
{
    CaptureSample out;
    out.offset_s = now.offset_s;
    for (const auto& [rel, content] : now.files)
        if (auto it = before.files.find(rel); it == before.files.end() || it->second != content)
            out.files.emplace(rel, content);
    return out;
}

} // namespace nicd::sim::capture
