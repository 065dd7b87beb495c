#include "capture/device_reads.hpp"

#include <fmt/format.h>

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

DeviceReads::DeviceReads(SysfsWalk& walk, ToolsFactory tools, std::chrono::milliseconds timeout,
                         Manifest& manifest)
    : walk_(walk), make_tools_(std::move(tools)), timeout_(timeout), manifest_(manifest)
{
}

bool DeviceReads::mayStart(const std::string& device)
{
    if (stuck_ < kMaxStuckWorkers)
        return true;
    manifest_.skip("rdma device", device,
                   fmt::format("not read: {} devices stopped answering already", stuck_));
    return false;
}

std::shared_ptr<ToolOutputs> DeviceReads::toolsOf(const std::string& device)
{
    auto& tools = tools_[device];
    if (!tools)
        tools = make_tools_();
    return tools;
}

void DeviceReads::timedOut(CapturedDevice& d, const std::string& what, const std::string& reading,
                           CaptureTree& counters_into)
{
    d.given_up = true;
    ++stuck_;
    tools_.erase(d.name); // its worker may still be inside them: it keeps them
    for (const auto& f : d.counter_files)
        if (!counters_into.has(f))
            counters_into.fifo(f);
    manifest_.timed_out.push_back(d.name);
    manifest_.skip("rdma device", d.name,
                   fmt::format("no answer within {} ms during {} (reading {}): read no more; its "
                               "counter files not read are FIFOs in the capture, so reads block "
                               "in the replay too",
                               timeout_.count(), what, reading.empty() ? "nothing" : reading));
}

CapturedNode DeviceReads::walk(const std::vector<std::string>& names, CaptureTree& tree)
{
    CapturedNode node;
    for (const auto& name : names) {
        if (!mayStart(name))
            continue;
        auto tools = toolsOf(name);
        const size_t before = node.devices.size();
        JobOutcome outcome;
        try {
            outcome = runWithDeadline(
                [this, &node, &tree, name, before, tools](JobGuard& g) {
                    walk_.device(name, node, &g);
                    if (node.devices.size() == before)
                        return; // it leads nowhere (noted)
                    for (const auto& nd : node.devices.back().netdevs) {
                        take(g.unlocked("the module EEPROM of " + nd,
                                        [tools, nd] { return tools->moduleEeprom(nd); }),
                             "module eeprom", nd, modulePath(nd), Scrub::ModuleEeprom, tree,
                             manifest_);
                        take(g.unlocked("the DCB state of " + nd,
                                        [tools, nd] { return tools->dcb(nd); }),
                             "dcb", nd, dcbPath(nd), Scrub::Known, tree, manifest_);
                    }
                },
                timeout_);
        } catch (const std::exception& e) { // one device never fails the rest
            manifest_.skip("rdma device", name, std::string("its walk failed: ") + e.what());
            if (node.devices.size() > before)
                node.devices.back().given_up = true;
            continue;
        }
        if (outcome.finished)
            continue;
        if (node.devices.size() > before) {
            timedOut(node.devices.back(), "its walk", outcome.blocked_on, tree);
        } else {
            ++stuck_;
            manifest_.timed_out.push_back(name);
            manifest_.skip("rdma device", name,
                           fmt::format("no answer within {} ms (reading {})", timeout_.count(),
                                       outcome.blocked_on));
        }
    }
    walk_.gpus(node);
    walk_.readinessHostFiles();
    if (stuck_ < kMaxStuckWorkers) {
        auto tools = make_tools_();
        ToolOutput health;
        auto outcome = runWithDeadline(
            [&health, tools](JobGuard& g) {
                health = g.unlocked("devlink health", [tools] { return tools->devlinkHealth(); });
            },
            timeout_);
        if (outcome.finished) {
            take(health, "devlink health", "", devlinkHealthPath(), Scrub::Known, tree, manifest_);
        } else {
            ++stuck_;
            manifest_.skip("devlink health", "",
                           fmt::format("no answer within {} ms", timeout_.count()));
        }
    }
    return node;
}

CaptureTree DeviceReads::sample(CapturedNode& node, ToolCapture& captured, bool first)
{
    CaptureTree t;
    for (auto& d : node.devices) {
        if (d.given_up)
            continue;
        if (!mayStart(d.name)) {
            d.given_up = true;
            continue;
        }
        auto tools = toolsOf(d.name);
        std::vector<std::string> stats, fec;
        for (const auto& nd : d.netdevs) {
            if (first || captured.ethtool.contains(nd))
                stats.push_back(nd);
            if (first || captured.fec.contains(nd))
                fec.push_back(nd);
        }
        JobOutcome outcome;
        try {
            outcome = runWithDeadline(
                [this, &d, &t, &captured, tools, stats, fec](JobGuard& g) {
                    for (const auto& f : d.counter_files)
                        walk_.readCounter(f, t, &g);
                    for (const auto& nd : stats)
                        if (take(g.unlocked("the ethtool statistics of " + nd,
                                            [tools, nd] { return tools->ethtoolStats(nd); }),
                                 "ethtool statistics", nd, ethtoolPath(nd), Scrub::Known, t,
                                 manifest_))
                            captured.ethtool.insert(nd);
                    for (const auto& nd : fec)
                        if (take(g.unlocked("the FEC statistics of " + nd,
                                            [tools, nd] { return tools->fec(nd); }),
                                 "fec", nd, fecPath(nd), Scrub::Known, t, manifest_))
                            captured.fec.insert(nd);
                },
                timeout_);
        } catch (const std::exception& e) {
            manifest_.skip("rdma device", d.name, std::string("a sample failed: ") + e.what());
            d.given_up = true;
            continue;
        }
        if (!outcome.finished)
            timedOut(d, "a sample", outcome.blocked_on, t);
    }
    return t;
}

} // namespace nicd::sim::capture
