// The verbs probe: open the device through rdma-core and query each port, as NCCL will
// (ibv_open_device + ibv_query_port). A device whose firmware stopped answering fails here even
// when sysfs still reads. Real root only (a simulated tree has no verbs devices). Blocks while the
// driver does: run it against a deadline.
#pragma once

#include <string>
#include <vector>

namespace nicd::collect {

struct VerbsProbeResult {
    bool listed = false; // rdma-core knows the device (no provider for it: not probed)
    std::string error;   // empty when the device opened and every port answered
    // The open was refused (EPERM, EACCES: a container not given the device, an LSM): nicd was not
    // let probe it, which says nothing about the device. Not an error.
    std::string refused;
    std::vector<int> port_states; // ibv_port_attr.state per port, from port 1
    // ibv_port_attr.active_mtu per port in bytes (256..4096), from port 1; 0 when out of range
    std::vector<uint32_t> port_active_mtus;
};

VerbsProbeResult probeVerbsDevice(const std::string& ibdev);

} // namespace nicd::collect
