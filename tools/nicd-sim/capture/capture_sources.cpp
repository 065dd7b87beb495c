#include "capture/capture_sources.hpp"

#include "capture/tool_outputs.hpp"

namespace nicd::sim::capture {

CaptureSample sampleOf(const CaptureTree& tree, const CapturedNode& node,
                       const ToolCapture& captured, double offset_s)
{
    CaptureSample s;
    s.offset_s = offset_s;
    auto add = [&](const std::string& rel) {
        const auto* e = tree.find(rel);
        if (e && e->kind == EntryKind::File)
            s.files[rel] = e->data;
        else if (e && e->kind == EntryKind::Fifo)
            s.fifos.insert(rel);
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
    for (const auto& rel : now.fifos)
        if (!before.fifos.contains(rel))
            out.fifos.insert(rel);
    return out;
}

} // namespace nicd::sim::capture
