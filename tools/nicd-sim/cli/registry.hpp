// The nicd-sim command line is assembled from registrations: each command and each `inject`
// fault lives in its own source file under cli/ and registers itself with one line,
//
//   NICD_SIM_FAULT(my_fault, "my-fault", "what it does", [](CLI::App& cmd) {
//       auto a = std::make_shared<DeviceArgs>(cmd);       // DEV [--port P]
//       return [a](const fs::path& dir) { myFault(dir, a->dev, a->port); };
//   });
//
// and is picked up by the build (every cli/*.cpp is compiled into nicd-sim). The setup function
// adds the command's own arguments to `cmd` (DIR is already there) and returns the action to run
// once the command line parsed.
#pragma once

#include "sim.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace nicd::sim::cli {

using Action = std::function<void(const fs::path& dir)>;
using Setup = std::function<Action(CLI::App& cmd)>;

struct Registration {
    std::string name;
    std::string help;
    Setup setup;
    int order = 100; // position in --help, then by name
};

// `nicd-sim NAME DIR ...`
bool registerCommand(Registration r);
// `nicd-sim inject DIR NAME ...`
bool registerFault(Registration r);

// A fault that is switched on and off on one device: `inject DIR NAME DEV` and
// `inject DIR NAME-clear DEV` (the healthy default again), registered from `order` on.
struct ToggleFault {
    const char* name;
    const char* help;
    void (*fn)(const fs::path& dir, const std::string& dev, bool on);
};
bool registerToggleFaults(const std::vector<ToggleFault>& faults, int order);

// Builds the whole command line into `app`; after app.parse(), `chosen` is the action to run.
void buildCommandLine(CLI::App& app, fs::path& dir, Action& chosen);

} // namespace nicd::sim::cli

#define NICD_SIM_COMMAND(id, ...)                                                                  \
    [[maybe_unused]] static const bool nicd_sim_command_##id =                                     \
        ::nicd::sim::cli::registerCommand({__VA_ARGS__})
#define NICD_SIM_FAULT(id, ...)                                                                    \
    [[maybe_unused]] static const bool nicd_sim_fault_##id =                                       \
        ::nicd::sim::cli::registerFault({__VA_ARGS__})
