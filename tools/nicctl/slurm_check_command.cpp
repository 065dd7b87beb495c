#include "slurm_check_command.hpp"

#include "nicd_client.hpp"
#include "slurm_decision.hpp"
#include "slurm_scontrol.hpp"
#include "slurm_settings.hpp"
#include "slurm_state.hpp"

#include <sdbus-c++/Error.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace nicctl {

namespace {

constexpr int kMayRun = 0;
constexpr int kKeptFromJobs = 1;
constexpr int kSlurmFailed = 2;
constexpr int kCannotAsk = 3;
constexpr int kSaysWhy = 4; // the node may run jobs; its line is for slurmd's log

struct Options {
    bool prolog = false;
    std::string config = slurm::kDefaultSettingsFile;
    std::string node;
    bool dry_run = false;
};

void say(const std::string& line)
{
    std::cerr << "nicd-slurm-check: " << line << "\n";
}

// The settings file; a missing file is every default. A line per error: a key that is wrong keeps
// its default (the check still drains a fatal node).
void loadSettings(const std::string& file, slurm::CheckSettings& out)
{
    std::ifstream in(file);
    if (!in)
        return;
    std::ostringstream text;
    text << in.rdbuf();
    std::vector<std::string> errors;
    slurm::parseSettings(text.str(), file, out, errors);
    for (const auto& e : errors)
        say(e + " (the default is used)");
}

// --node, else SLURMD_NODENAME (slurmd sets it), else the short host name.
std::string nodeName(const Options& o)
{
    if (!o.node.empty())
        return o.node;
    if (const char* env = std::getenv("SLURMD_NODENAME"); env && *env)
        return env;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0)
        return "";
    std::string name = host;
    return name.substr(0, name.find('.'));
}

slurm::Observation ask(const std::string& bus)
{
    try {
        NicdClient client(bus);
        return slurm::observe(client.status());
    } catch (const sdbus::Error& e) {
        return {slurm::Verdict::Unreachable, e.getName() + ": " + e.getMessage()};
    } catch (const std::exception& e) {
        return {slurm::Verdict::Unreachable, e.what()};
    }
}

uint64_t nowSeconds()
{
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
}

// As Prolog: one look at nicd, no Slurm command, no state (Slurm drains a node whose prolog fails).
int prolog(const slurm::Observation& seen, const slurm::CheckSettings& settings)
{
    auto d = slurm::decide(seen, "", std::nullopt, nowSeconds(), settings.decision);
    if (d.node_bad) {
        say("refusing the job: " + std::string(slurm::kReasonPrefix) + " " +
            (seen.verdict == slurm::Verdict::Unreachable ? "unreachable: " : "") + seen.problem);
        return kKeptFromJobs;
    }
    if (seen.verdict != slurm::Verdict::Healthy)
        say(d.message);
    return kMayRun;
}

int healthCheck(const slurm::Observation& seen, const slurm::CheckSettings& settings,
                const Options& o)
{
    auto node = nodeName(o);
    if (!slurm::validNodeName(node)) {
        say("no Slurm node name (letters, digits, '.', '_', '-') from --node, SLURMD_NODENAME or "
            "the host name");
        return kSlurmFailed;
    }
    // Slurm is asked only when the answer matters: to drain, or to resume a node that is healthy.
    std::string reason;
    if (seen.verdict == slurm::Verdict::Healthy ||
        slurm::decide(seen, "", {}, 0, settings.decision).node_bad) {
        auto current = slurm::currentDrainReason(node);
        if (!current && !o.dry_run) {
            say(current.error().message);
            return kSlurmFailed;
        }
        // A dry run says what nicd's verdict would do even where Slurm cannot be asked (on a
        // workstation, or the controller down): as for a node no one has drained.
        if (!current)
            say(current.error().message + " (dry run: deciding as if the node had no drain "
                                          "reason)");
        reason = current ? *current : "";
    }
    auto before = slurm::loadHealthySince(settings.state_file);
    auto d = slurm::decide(seen, reason, before, nowSeconds(), settings.decision);
    say(node + ": " + d.message + (o.dry_run ? " (dry run: nothing changed)" : ""));
    if (!o.dry_run && d.healthy_since != before)
        if (auto saved = slurm::saveHealthySince(settings.state_file, d.healthy_since); !saved)
            say(saved.error().message + " (the healthy time starts again next run)");
    nicd::Result<void> changed;
    if (!o.dry_run && d.kind == slurm::Decision::Kind::Drain)
        changed = slurm::drainNode(node, d.reason);
    if (!o.dry_run && d.kind == slurm::Decision::Kind::Resume)
        changed = slurm::resumeNode(node);
    if (!changed) {
        say(node + ": " + changed.error().message);
        return kSlurmFailed;
    }
    if (d.node_bad)
        return kKeptFromJobs;
    if (seen.verdict == slurm::Verdict::Unreachable)
        return kCannotAsk;
    // Degraded (DrainOn=fatal) or not judged yet: slurmd logs only what a failing check prints.
    return seen.verdict == slurm::Verdict::Healthy ? kMayRun : kSaysWhy;
}

} // namespace

void addSlurmCheck(CLI::App& app, const std::string& bus)
{
    auto options = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "slurm-check", "as slurmd's HealthCheckProgram or Prolog: drain or resume this node "
                       "from nicd's verdict (settings: /etc/nicd/slurm-check.conf)");
    cmd->add_flag("--prolog", options->prolog,
                  "as Prolog: exit 1 when the node may not run jobs; no scontrol, no waiting");
    cmd->add_option("--config", options->config, "the settings file")->capture_default_str();
    cmd->add_option("--node", options->node,
                    "the Slurm node name (default: SLURMD_NODENAME, else the short host name)");
    cmd->add_flag("--dry-run", options->dry_run, "say what would be done; change nothing");
    cmd->callback([options, &bus] {
        slurm::CheckSettings settings;
        loadSettings(options->config, settings);
        auto seen = ask(bus);
        int status =
            options->prolog ? prolog(seen, settings) : healthCheck(seen, settings, *options);
        throw CLI::RuntimeError(status);
    });
}

} // namespace nicctl
