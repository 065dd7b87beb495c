#include "inventory/gpu_profiles.hpp"

#include <array>
#include <charconv>

namespace nicd::inventory {

namespace {

// Device IDs and names from pci.ids (github.com/pciutils/pciids, vendor 10de). Why each family
// expects what it does: docs/conditions.md, "Expected inventory".
constexpr auto kPerGpu = GpuShape::PerGpu;
constexpr auto kAtLeastOne = GpuShape::AtLeastOne;
constexpr std::array kProfiles{
    // Ampere HGX: partner boards carried 1 to 8 HDR NICs (DGX A100: 8); gpud expects >= 1 at 200.
    GpuProfile{0x20b0, "NVIDIA A100 SXM4 40GB", kAtLeastOne, 200},
    GpuProfile{0x20b2, "NVIDIA A100 SXM4 80GB", kAtLeastOne, 200},
    GpuProfile{0x20b3, "NVIDIA A100 SXM 64GB", kAtLeastOne, 200},
    GpuProfile{0x20bd, "NVIDIA A800 SXM4 40GB", kAtLeastOne, 200},
    GpuProfile{0x20f3, "NVIDIA A800 SXM4 80GB", kAtLeastOne, 200},
    // Hopper HGX: a ConnectX-7 400G beside each GPU (DGX H100/H200: 8 x 400G; gpud: 8 at 400);
    // partner boards with 4 x 400G (a NIC per two GPUs) or 16 x 200G.
    GpuProfile{0x2324, "NVIDIA H800", kPerGpu, 400},
    GpuProfile{0x2330, "NVIDIA H100 SXM5 80GB", kPerGpu, 400},
    GpuProfile{0x2335, "NVIDIA H200 SXM 141GB", kPerGpu, 400},
    GpuProfile{0x2337, "NVIDIA H100 SXM5 64GB", kPerGpu, 400},
    GpuProfile{0x2338, "NVIDIA H100 SXM5 96GB", kPerGpu, 400},
    GpuProfile{0x2339, "NVIDIA H100 SXM5 94GB", kPerGpu, 400},
    // H20 boards ship with 4 or 8 NICs per 8 GPUs, at 200 or 400: the HGX designs, any rate.
    GpuProfile{0x230c, "NVIDIA H20 NVL16", kPerGpu, 0},
    GpuProfile{0x230e, "NVIDIA H20 NVL16", kPerGpu, 0},
    GpuProfile{0x2328, "NVIDIA H20B", kPerGpu, 0}, GpuProfile{0x2329, "NVIDIA H20", kPerGpu, 0},
    GpuProfile{0x232c, "NVIDIA H20 HBM3e", kPerGpu, 0},
    // GH200 superchips come in several designs: at least one compute port, any rate.
    GpuProfile{0x2342, "NVIDIA GH200 120GB / 480GB", kAtLeastOne, 0},
    GpuProfile{0x2348, "NVIDIA GH200 144G HBM3e", kAtLeastOne, 0},
    // Blackwell HGX and NVL72 compute trays: a NIC per GPU, ConnectX-7 400G or (B300, GB300)
    // ConnectX-8 800G; 400 is the floor both meet (a ConnectX-8 trained at 400 is
    // port_rate_degraded, by its peers).
    GpuProfile{0x2901, "NVIDIA B200", kPerGpu, 400},
    GpuProfile{0x2909, "NVIDIA HGX B200 168GB", kPerGpu, 400},
    GpuProfile{0x2920, "NVIDIA B100", kPerGpu, 400},
    GpuProfile{0x2941, "NVIDIA HGX GB200", kPerGpu, 400},
    GpuProfile{0x29bc, "NVIDIA B100", kPerGpu, 400},
    GpuProfile{0x3182, "NVIDIA B300 SXM6 AC", kPerGpu, 400},
    GpuProfile{0x31a1, "NVIDIA GB300 MaxQ", kPerGpu, 400},
    GpuProfile{0x31c2, "NVIDIA GB300", kPerGpu, 400},
    GpuProfile{0x31c3, "NVIDIA GB300", kPerGpu, 400},
    // PCIe cards (A100/A800 PCIe, H100 PCIe and NVL, H800 PCIe, H200 NVL) are not here: their
    // servers carry one NIC per GPU, one per two, or none but the front end. Nothing expected.
};

} // namespace

const GpuProfile* gpuProfile(std::string_view device_id)
{
    if (!device_id.starts_with("0x") && !device_id.starts_with("0X"))
        return nullptr;
    device_id.remove_prefix(2);
    unsigned id = 0;
    auto [ptr, ec] = std::from_chars(device_id.data(), device_id.data() + device_id.size(), id, 16);
    if (device_id.empty() || ec != std::errc() || ptr != device_id.data() + device_id.size() ||
        id > 0xffff)
        return nullptr;
    for (const auto& p : kProfiles)
        if (p.device_id == id)
            return &p;
    return nullptr;
}

} // namespace nicd::inventory
