// `nicd-sim create --gpus N --gpu-model M` (or --profile hgx-h100, ...): a GPU node of a known
// shape, as HGX boards are built. GPU i sits beside compute NIC i under one PCIe switch (the
// simulator's root port), the first half of them on socket 0; a dual-port storage card sits on
// socket 1 under a switch of its own; the management NIC carries the default route. Each GPU
// has its model's PCI device ID, and each NIC the one its platform ships (ConnectX-6 200G beside
// an A100, ConnectX-8 800G beside a B300 or GB300, ConnectX-7 400G elsewhere), so nicd's
// ExpectPorts=auto sees what it would on the real node.
#pragma once

#include "node_state.hpp"
#include "tree_builder.hpp"

#include <functional>

namespace nicd::sim {

// Takes in a device made under the node (NodePlanner::add: its ib_dir and traffic load).
using AddDevice = std::function<void(SimDevice d, const fs::path& ib_dir)>;

// Builds the GPUs and RDMA NICs of `o` (o.gpus >= 0); throws SimError for an unknown model or
// counts out of range, naming them.
void buildGpuNode(TreeBuilder& b, const CreateOptions& o, const AddDevice& add);

} // namespace nicd::sim
