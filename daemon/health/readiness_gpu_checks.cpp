// The readiness checks about the GPUs a compute NIC serves: GPUDirect RDMA, ACS redirect on the
// bridges between them, their NUMA nodes and where on the PCIe tree they meet
// (readiness_checks.hpp says what each judges).
#include "health/readiness_checks.hpp"
#include "readiness/acs_config.hpp"

#include <fmt/format.h>

#include <set>

namespace nicd::health {

namespace {

using Verdict = ReadyCheck::Verdict;

constexpr uint16_t kRedirect = readiness::kAcsRequestRedirect | readiness::kAcsCompletionRedirect;

std::string redirectBits(uint16_t control)
{
    std::vector<std::string> on;
    if (control & readiness::kAcsRequestRedirect)
        on.emplace_back("Request Redirect");
    if (control & readiness::kAcsCompletionRedirect)
        on.emplace_back("Completion Redirect");
    return fmt::format("{}", fmt::join(on, " and "));
}

} // namespace

ReadyCheck checkGpuDirect(const GpuDirectInputs* in, bool node_has_gpus)
{
    if (!node_has_gpus)
        return readyCheck("gpudirect", Verdict::Skipped, "no NVIDIA GPU on this node");
    if (!in)
        return readyCheck("gpudirect", Verdict::Unknown, "not read yet");
    if (!in->peermem.empty())
        return readyCheck("gpudirect", Verdict::Ok, "peer memory client: " + in->peermem);
    if (!in->driver_loaded)
        return readyCheck("gpudirect", Verdict::Unknown,
                          "the NVIDIA driver is not loaded (no /proc/driver/nvidia/version)");
    auto kernel = in->kernel ? fmt::format("Linux {}.{}", in->kernel->first, in->kernel->second)
                             : std::string("Linux ?");
    auto driver =
        fmt::format("NVIDIA {} kernel module {}", in->open_module ? "open" : "proprietary",
                    in->driver_version.empty() ? "?" : in->driver_version);
    bool kernel_ok = in->kernel && *in->kernel >= std::pair{5U, 12U};
    bool driver_ok = in->open_module && in->driver_branch && *in->driver_branch >= 515;
    if (kernel_ok && driver_ok)
        return readyCheck("gpudirect", Verdict::Ok, "dma-buf: " + kernel + ", " + driver);
    if (!in->kernel || (in->open_module && !in->driver_branch))
        return readyCheck("gpudirect", Verdict::Unknown,
                          "no peer memory client; dma-buf undecided: " + kernel + ", " + driver);
    return readyCheck("gpudirect", Verdict::Failed,
                      "no peer memory client (nvidia_peermem not loaded) and no dma-buf path: " +
                          kernel + ", " + driver +
                          " (dma-buf needs Linux 5.12 or later and the open kernel module, 515 or "
                          "later)");
}

ReadyCheck checkAcs(const Device& device, const std::vector<GpuPairing>* pairs,
                    const std::map<std::string, AcsInputs>& bridges)
{
    if (!pairs)
        return readyCheck("acs", Verdict::Unknown, "not read yet");
    std::string unknown;
    std::vector<std::string> clear;
    std::set<std::string> seen;
    bool any = false;
    for (const auto& p : *pairs) {
        if (!p.shares_switch)
            continue;
        any = true;
        for (const auto& b : p.bridges) {
            auto it = bridges.find(b);
            if (it == bridges.end() || it->second.read == AcsInputs::Read::Failed) {
                if (unknown.empty())
                    unknown = "bridge " + b + ": config not read" +
                              (it == bridges.end() || it->second.error.empty()
                                   ? std::string()
                                   : " (" + it->second.error + ")");
                continue;
            }
            const auto& acs = it->second;
            if (acs.read == AcsInputs::Read::Short) {
                if (unknown.empty())
                    unknown = "bridge " + b +
                              ": its extended config space (ACS) is readable with "
                              "CAP_SYS_ADMIN only, which nicd's unit does not have";
                continue;
            }
            if (readiness::redirectsPeerTraffic(acs))
                return readyCheck(
                    "acs", Verdict::Failed,
                    fmt::format("ACS {} on bridge {} between {} and GPU {} (ACS "
                                "control 0x{:04x}): P2P traffic goes through the root "
                                "complex",
                                redirectBits(acs.control & kRedirect), b, device.ibdev, p.gpu,
                                acs.control));
            if (seen.insert(b).second)
                clear.push_back(acs.capability
                                    ? fmt::format("{} (ACS control 0x{:04x})", b, acs.control)
                                    : b + " (no ACS capability)");
        }
    }
    if (!any)
        return readyCheck("acs", Verdict::Skipped, "no GPU below a PCIe switch with it");
    if (!unknown.empty())
        return readyCheck("acs", Verdict::Unknown, unknown);
    return readyCheck("acs", Verdict::Ok,
                      fmt::format("no P2P redirect on {}", fmt::join(clear, ", ")));
}

ReadyCheck checkNuma(const Device& device, const std::vector<GpuPairing>* pairs)
{
    if (!pairs)
        return readyCheck("numa", Verdict::Unknown, "the NIC's GPUs are not read yet");
    if (pairs->empty())
        return readyCheck("numa", Verdict::Skipped, "no GPU to pair with");
    if (!device.numa_node)
        return readyCheck("numa", Verdict::Unknown, "the NIC's NUMA node is unknown (-1)");
    std::vector<std::string> others;
    for (const auto& p : *pairs) {
        if (p.gpu_numa == device.numa_node)
            return readyCheck("numa", Verdict::Ok,
                              fmt::format("NUMA node {} with GPU {}", *device.numa_node, p.gpu));
        if (p.gpu_numa)
            others.push_back(fmt::format("{} (node {})", p.gpu, *p.gpu_numa));
    }
    if (others.empty())
        return readyCheck("numa", Verdict::Unknown, "its GPUs' NUMA nodes are unknown (-1)");
    return readyCheck("numa", Verdict::Failed,
                      fmt::format("NUMA node {}; the GPUs it serves are on other nodes: {}",
                                  *device.numa_node, fmt::join(others, ", ")));
}

ReadyCheck checkGpuPath(const Device& device, const std::vector<GpuPairing>* pairs)
{
    if (!pairs)
        return readyCheck("gpu_path", Verdict::Unknown, "the NIC's GPUs are not read yet");
    if (pairs->empty())
        return readyCheck("gpu_path", Verdict::Skipped, "no GPU to pair with");
    for (const auto& p : *pairs)
        if (p.shares_switch && !p.bridges.empty())
            return readyCheck(
                "gpu_path", Verdict::Ok,
                fmt::format("below PCIe bridge {} with GPU {}", p.bridges.front(), p.gpu));
    if (!device.numa_node)
        return readyCheck("gpu_path", Verdict::Unknown,
                          "no PCIe bridge shared with a GPU, and NUMA node -1: a VM's PCI tree is "
                          "its hypervisor's, not the board's");
    std::vector<std::string> gpus;
    for (const auto& p : *pairs)
        gpus.push_back(p.gpu);
    // A note, not a failure: the board's wiring decides it, and NCCL still runs.
    return readyCheck(
        "gpu_path", Verdict::Ok,
        fmt::format("note: no PCIe switch shared with the GPUs it serves ({}): they meet "
                    "only at the root complex, so GPUDirect RDMA traffic crosses the "
                    "CPU (NCCL's PHB or SYS)",
                    fmt::join(gpus, ", ")));
}

} // namespace nicd::health
