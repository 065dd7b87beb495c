// RoCE ToS of one IB device port: rdma_cm's default for RDMA-CM connections (ib_core, the same for
// every vendor; reference §4), configfs
// <root>/sys/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_tos ("106\n"). The <ibdev>
// group exists only after a mkdir; the kernel then fills in ports/. Under a simulated root
// configfs is a plain directory, so the group's port file is created here ("0\n", as the kernel
// starts). On a real root configfs is mounted when missing.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/qos_call.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace nicd::plugin::sdk {

struct TosTarget {
    std::filesystem::path root; // "/" on a real node
    bool simulated = false;
    std::string ibdev;
    uint32_t port = 1;
    v1::IHost* knobs = nullptr; // writes and the group's mkdir go through it (knobHost)
};

std::filesystem::path roceTosFile(const TosTarget& t);
v1::Status readRoceTos(const TosTarget& t, uint8_t& out);
v1::Status writeRoceTos(const TosTarget& t, uint8_t tos);

// The call's port, knobs written through its host.
TosTarget tosTarget(const QosCall& call);
// The setting "roce_tos": rdma_cm's default read, and when applying and different, written.
v1::QosSettingReport roceTosSetting(QosCall& call);

} // namespace nicd::plugin::sdk
