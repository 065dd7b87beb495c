// A bnxt device's counters as the bnxt plugin reads them under a test root: bnxt_re0's port 1
// hw_counters files (sys/class/infiniband/bnxt_re0/ports/1/hw_counters/<name>) and the `ethtool -S`
// text of its netdev, ens2f0np0, in the simulator's file (run/nicd-sim/ethtool/ens2f0np0).
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace nicd::test {

inline constexpr const char* kBnxtIbdev = "bnxt_re0";
inline constexpr const char* kBnxtNetdev = "ens2f0np0";

// Returns bnxt_re0's directory (a Device's sysfs_path). `ethtool_lines`: the statistics after
// the "NIC statistics:" header, each "     name: value\n".
inline std::filesystem::path
writeBnxtCounterFiles(const std::filesystem::path& root,
                      const std::map<std::string, std::string>& hw_counters,
                      const std::string& ethtool_lines)
{
    const auto ib = root / "sys/class/infiniband" / kBnxtIbdev;
    std::filesystem::create_directories(ib / "ports/1/hw_counters");
    for (const auto& [name, value] : hw_counters)
        std::ofstream(ib / "ports/1/hw_counters" / name) << value << "\n";
    std::filesystem::create_directories(root / "run/nicd-sim/ethtool");
    std::ofstream(root / "run/nicd-sim/ethtool" / kBnxtNetdev) << "NIC statistics:\n"
                                                               << ethtool_lines;
    return ib;
}

} // namespace nicd::test
