#include "slurm_decision.hpp"

#include <fmt/format.h>

namespace nicctl::slurm {

namespace {

// A name from the bus, safe inside a Slurm reason and a log line: other bytes become '_', and it
// is cut to 64 characters (a reason is one short line).
std::string token(const std::string& s)
{
    std::string out;
    for (char c : s.substr(0, 64)) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '.' || c == ':' || c == '/' || c == '-';
        out += ok ? c : '_';
    }
    return out.empty() ? "-" : out;
}

std::string problemOf(const std::string& who, const bus::ConditionRow& c)
{
    return token(who) + " " + token(c.code) + " " + token(c.action.empty() ? "none" : c.action);
}

std::string deviceWho(const DeviceView& d, const bus::ConditionRow& c)
{
    return c.port == 0 ? d.name : d.name + "/" + std::to_string(c.port);
}

// Which of two conditions names the problem better: a plain code (port_down, device_missing: the
// port's or device's own verdict) before a family's (netdev_down.<netdev>, counter.*, kernel.*,
// which follow from it), then the older, then by code; so the reason stays the same from run to
// run while the same things are wrong.
bool better(const bus::ConditionRow& a, const bus::ConditionRow& b)
{
    bool a_plain = a.code.find('.') == std::string::npos;
    bool b_plain = b.code.find('.') == std::string::npos;
    if (a_plain != b_plain)
        return a_plain;
    if (a.since_usec != b.since_usec)
        return a.since_usec < b.since_usec;
    return a.code < b.code;
}

// The best condition of `severity` that counts for the node: on a device (compute ones only when
// `compute_only`), else of the node itself or of a device that is gone.
std::string firstProblem(const NodeView& node, const std::string& severity, bool compute_only)
{
    const bus::ConditionRow* best = nullptr;
    std::string who;
    for (const auto& d : node.devices) {
        if (compute_only && !d.role.empty() && d.role != "compute")
            continue;
        for (const auto& c : d.conditions)
            if (c.severity == severity && (!best || better(c, *best))) {
                best = &c;
                who = deviceWho(d, c);
            }
    }
    if (best)
        return problemOf(who, *best);
    for (const auto& n : node.node_conditions)
        if (n.severity == severity && (!best || better(n, *best))) {
            best = &n;
            who = n.device.empty() ? "node" : n.device;
        }
    return best ? problemOf(who, *best) : "";
}

bool startsWith(const std::string& s, const std::string& prefix)
{
    return s.compare(0, prefix.size(), prefix) == 0;
}

} // namespace

Observation observe(const NodeView& node)
{
    if (node.node_health == "healthy")
        return {Verdict::Healthy, ""};
    if (node.node_health == "fatal") {
        auto p = firstProblem(node, "fatal", true);
        return {Verdict::Fatal, p.empty() ? "node fatal" : p};
    }
    if (node.node_health == "degraded") {
        auto p = firstProblem(node, "degraded", false);
        if (p.empty())
            p = firstProblem(node, "fatal", false); // a fatal storage NIC degrades the node
        return {Verdict::Degraded, p.empty() ? "node degraded" : p};
    }
    return {Verdict::Unknown, "nicd has not judged the node yet (" + token(node.node_health) + ")"};
}

Decision decide(const Observation& seen, const std::string& current_reason,
                std::optional<uint64_t> healthy_since, uint64_t now, const Settings& settings)
{
    Decision d;
    if (seen.verdict == Verdict::Healthy)
        d.healthy_since = healthy_since && *healthy_since <= now ? *healthy_since : now;
    d.node_bad = seen.verdict == Verdict::Fatal ||
                 (seen.verdict == Verdict::Degraded && settings.drain_on_degraded) ||
                 (seen.verdict == Verdict::Unreachable && settings.drain_when_unreachable);
    const bool ours = startsWith(current_reason, kReasonPrefix);

    if (d.node_bad) {
        std::string want = std::string(kReasonPrefix) + " " +
                           (seen.verdict == Verdict::Unreachable ? "unreachable" : seen.problem);
        if (current_reason.empty()) {
            d.kind = Decision::Kind::Drain;
            d.reason = want;
            d.message = "draining the node: " + want;
        } else if (ours) { // its reason stays what drained it
            d.message = fmt::format("the node stays drained (\"{}\"): {}", current_reason, want);
        } else {
            d.message = fmt::format("{}; the node is drained by someone else (\"{}\"): left alone",
                                    want, current_reason);
        }
        if (seen.verdict == Verdict::Unreachable)
            d.message += " (cannot ask nicd: " + seen.problem + "; Unreachable=drain)";
        return d;
    }

    switch (seen.verdict) {
    case Verdict::Healthy:
        if (!ours) {
            d.message = "nicd: RDMA NICs healthy";
        } else if (!settings.resume_after_sec) {
            d.message = "nicd: healthy; the node stays drained until a person resumes it "
                        "(ResumeAfterSec=never)";
        } else if (now - *d.healthy_since >= *settings.resume_after_sec) {
            d.kind = Decision::Kind::Resume;
            d.message = fmt::format("nicd: healthy for {} s: resuming the node drained for \"{}\"",
                                    now - *d.healthy_since, current_reason);
        } else {
            d.message = fmt::format("nicd: healthy for {} s; the node is resumed after {} s",
                                    now - *d.healthy_since, *settings.resume_after_sec);
        }
        break;
    case Verdict::Degraded:
        d.message = "nicd: degraded: " + seen.problem + " (not drained: DrainOn=fatal)";
        break;
    case Verdict::Unreachable:
        d.message = "nicd: cannot ask nicd: " + seen.problem +
                    "; the node is not drained (Unreachable=ignore)";
        break;
    case Verdict::Unknown:
    case Verdict::Fatal: // node_bad above
        d.message = "nicd: " + seen.problem + "; nothing done";
        break;
    }
    return d;
}

} // namespace nicctl::slurm
