#include "cli/registry.hpp"

#include "cli/args.hpp"

#include <algorithm>

namespace nicd::sim::cli {

namespace {

// Function-local statics: registrations run during static initialisation of other files.
std::vector<Registration>& commands()
{
    static std::vector<Registration> v;
    return v;
}

std::vector<Registration>& faults()
{
    static std::vector<Registration> v;
    return v;
}

std::vector<Registration> sorted(std::vector<Registration> v)
{
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
        return a.order != b.order ? a.order < b.order : a.name < b.name;
    });
    return v;
}

void addDir(CLI::App& cmd, fs::path& dir)
{
    cmd.add_option("DIR", dir, "the simulated node's directory")->required();
}

// Each command's action is kept until parsing is over; the chosen one is picked in a callback.
void add(CLI::App& parent, const Registration& r, Action& chosen, bool with_dir, fs::path& dir)
{
    auto* cmd = parent.add_subcommand(r.name, r.help);
    if (with_dir)
        addDir(*cmd, dir);
    auto action = std::make_shared<Action>(r.setup(*cmd));
    cmd->callback([action, &chosen] { chosen = *action; });
}

} // namespace

bool registerCommand(Registration r)
{
    commands().push_back(std::move(r));
    return true;
}

bool registerFault(Registration r)
{
    faults().push_back(std::move(r));
    return true;
}

void buildCommandLine(CLI::App& app, fs::path& dir, Action& chosen)
{
    app.require_subcommand(1);
    for (const auto& r : sorted(commands()))
        add(app, r, chosen, true, dir);
    auto* inject = app.add_subcommand("inject", "inject a fault: nicd-sim inject DIR FAULT ...");
    addDir(*inject, dir);
    inject->require_subcommand(1);
    for (const auto& r : sorted(faults()))
        add(*inject, r, chosen, false, dir);
}

bool registerToggleFaults(const std::vector<ToggleFault>& faults, int order)
{
    auto toggle = [](ToggleFault f, bool on) -> Setup {
        return [f, on](CLI::App& cmd) -> Action {
            auto a = std::make_shared<DeviceArgs>(cmd);
            return [a, f, on](const fs::path& dir) { f.fn(dir, a->dev, on); };
        };
    };
    for (const auto& f : faults) {
        registerFault({f.name, f.help, toggle(f, true), order++});
        registerFault({std::string(f.name) + "-clear",
                       std::string("clears ") + f.name + ": the healthy default again",
                       toggle(f, false), order++});
    }
    return true;
}

} // namespace nicd::sim::cli
