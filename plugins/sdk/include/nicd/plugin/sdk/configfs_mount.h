// On a real node only: mounts configfs at /sys/kernel/config when nothing is mounted there, as
// cma_roce_tos does, so the rdma_cm directory can appear.
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::plugin::sdk {

v1::Status mountConfigfsIfMissing() noexcept;

} // namespace nicd::plugin::sdk
