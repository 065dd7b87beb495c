// RoCE ToS of one IB device port, in the two places the kernel keeps it (reference §4):
//  - rdma_cm's default for RDMA-CM connections, configfs
//    <root>/sys/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_tos ("106\n"). The
//    <ibdev> group exists only after a mkdir; the kernel then fills in ports/. Under a simulated
//    root configfs is a plain directory, so the group's port file is created here ("0\n", as the
//    kernel starts). On a real root configfs is mounted when missing.
//  - MOFED's global verbs traffic class, <root>/sys/class/infiniband/<ibdev>/tc/<port>/
//    traffic_class: read "106" (MOFED <= 4.3-1) or "Global tclass=106" (later; empty when
//    unset), written as a bare number. Absent on inbox drivers: then there is nothing to do.
#pragma once

#include <nicd/plugin/plugin.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

struct TosTarget {
    std::filesystem::path root; // "/" on a real node
    bool simulated = false;
    std::string ibdev;
    uint32_t port = 1;
    pv1::IHost* knobs = nullptr; // writes and the group's mkdir go through it (knobHost)
};

std::filesystem::path roceTosFile(const TosTarget& t);
pv1::Status readRoceTos(const TosTarget& t, uint8_t& out);
pv1::Status writeRoceTos(const TosTarget& t, uint8_t tos);

// What a traffic_class file says: `valid` false for text in neither format; `tclass` empty
// when no global value is set ("-1", empty, or only per-address rules).
struct TrafficClass {
    bool valid = false;
    std::optional<uint8_t> tclass;
};
TrafficClass parseTrafficClass(std::string_view text);

std::filesystem::path trafficClassFile(const TosTarget& t);
bool hasTrafficClass(const TosTarget& t);
pv1::Status readTrafficClass(const TosTarget& t, std::optional<uint8_t>& out);
pv1::Status writeTrafficClass(const TosTarget& t, uint8_t tclass);

} // namespace nicd::mlx5
