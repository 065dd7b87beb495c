// The sources with a simulated twin, in the formats the simulator stores them (DESIGN.md,
// "simulated sources"; tools/nicd-sim/sim.hpp). One way to get them per kind of node
// (manifest.hpp's NodeKind):
//
//   simulatedToolOutputs(SRC)  a simulated node (--root SRC): its run/nicd-sim/ files are
//                              already in these formats and are copied as they are.
//   kernelToolOutputs()        a real node (/): nicd's own readers ask the kernel (the mlx5
//                              plugin's SIOCETHTOOL and rtnetlink DCB clients, the daemon's
//                              ethtool and devlink genetlink clients) and tool_encoders.hpp
//                              writes their answers in the tools' formats. No external tool.
//                              A netdev this process cannot see (another network namespace)
//                              fails, noted, rather than reading as absent.
//   unavailableToolOutputs()   a real node's tree (--root /host): the kernel we could ask is
//                              not necessarily that tree's, so none is read (the capture notes
//                              it once).
//
// Absent: the interface is not there (no file, EOPNOTSUPP, no such family): nothing is captured
// and nothing noted, as nicd reports it at info level only. Failed: noted in the manifest.
// Each may block in the kernel on a wedged device: device_reads.hpp calls them under a deadline,
// each device with an instance of its own.
#pragma once

#include "capture/node_files.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

namespace nicd::sim::capture {

struct ToolOutput {
    enum class Status { Ok, Absent, Failed };
    Status status = Status::Absent;
    std::string data;
    std::string why;

    static ToolOutput ok(std::string data) { return {Status::Ok, std::move(data), {}}; }
    static ToolOutput absent(std::string why = {}) { return {Status::Absent, {}, std::move(why)}; }
    static ToolOutput failed(std::string why) { return {Status::Failed, {}, std::move(why)}; }
};

class ToolOutputs {
public:
    virtual ~ToolOutputs() = default;
    virtual ToolOutput ethtoolStats(const std::string& netdev) = 0; // `ethtool -S`
    virtual ToolOutput fec(const std::string& netdev) = 0; // `ethtool --json -I --show-fec`
    virtual ToolOutput moduleEeprom(const std::string& netdev) = 0; // the EEPROM image
    virtual ToolOutput devlinkHealth() = 0;                         // `devlink -j health show`
    virtual ToolOutput dcb(const std::string& netdev) = 0;          // run/nicd-sim/dcb format
};

// Where each output lives in a node, relative to its root.
std::string ethtoolPath(const std::string& netdev);
std::string fecPath(const std::string& netdev);
std::string modulePath(const std::string& netdev);
std::string devlinkHealthPath();
std::string dcbPath(const std::string& netdev);

std::unique_ptr<ToolOutputs> simulatedToolOutputs(const std::filesystem::path& src,
                                                  std::shared_ptr<const FileReader> reader);
std::unique_ptr<ToolOutputs> kernelToolOutputs(std::chrono::milliseconds timeout);
std::unique_ptr<ToolOutputs> unavailableToolOutputs();

} // namespace nicd::sim::capture
