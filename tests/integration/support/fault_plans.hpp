// How each fault `nicd-sim inject` knows is injected for the capture round trip
// (capture_roundtrip_test.cpp): on which device of which node, after what, with which arguments,
// and the series that shows it. A fault missing from plans() fails the round trip by name.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nicd::test {

// The faults of `nicd-sim inject --help`, in its order.
std::vector<std::string> injectableFaults();

struct FaultPlan {
    // What must be true first (a fault to undo), each "FAULT [ARG...]": ARGs after DEV.
    std::vector<std::string> before;
    std::vector<std::string> args; // after DEV
    std::string shows{};           // a series the replay must have (the fault is visible)
    std::string dev = "mlx5_0";    // the device it is injected on
    std::string vendors = "mlx5";  // create --vendor: a node with the device
    std::string profile{};         // create --profile: a GPU node of that shape instead
    bool infiniband = false;       // create --infiniband: its compute NICs on InfiniBand
};

// How each fault is injected on mlx5_0.
const std::map<std::string, FaultPlan>& plans();
// A fault's plan; "<fault>-clear" undoes <fault> injected first.
std::optional<FaultPlan> planFor(const std::string& fault);
// `inject DIR FAULT`, plus DEV unless the fault is node-wide, plus the ARGs of "FAULT ARG...".
std::vector<std::string> injection(const std::filesystem::path& src, const std::string& fault_args,
                                   const std::string& dev = "mlx5_0");

} // namespace nicd::test
