// The NVIDIA GPUs on the PCI bus (vendor 0x10de, display class 0x0300 VGA or 0x0302 3D), from
// /sys/bus/pci/devices: where they sit decides which NICs are compute NICs (nic_roles.hpp), and
// their device IDs what ports the node should carry (gpu_profiles.hpp).
// Read with the full inventory walk; a function that cannot be read is left out.
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nicd::inventory {

// True for an NVIDIA GPU's vendor and class attributes ("0x10de", "0x030200").
bool isNvidiaGpu(std::string_view vendor, std::string_view pci_class);

// `skip`: PCI addresses whose functions are not looked at (an ignored NIC's: IgnoreDevices=).
std::vector<GpuFunction> readGpus(const HostPaths& paths,
                                  const std::vector<std::string>& skip = {});

} // namespace nicd::inventory
