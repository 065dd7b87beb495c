// Every real kernel line of ../shared/fixtures/kernel-log-lines.txt, classified as the kernel
// logged it (support/kernel_records.hpp: the message and the device dev_printk recorded): which
// are mlx5 driver errors, how severe, and which device (PCI address or netdev) they name.
#include "kernel_patterns.hpp"
#include "support/kernel_records.hpp"

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace pv1 = nicd::plugin::v1;

namespace {

struct Expect {
    const char* code; // "" = not a driver error
    const char* pci;
    const char* netdev;
};

// Keyed by a piece of the line that identifies it; every fixture line must match exactly one key.
const std::vector<std::pair<std::string, Expect>>& expectations()
{
    static const std::vector<std::pair<std::string, Expect>> e{
        {"0000:05:00.0: mlx5_cmd_out_err:835", {"mlx5.access_reg_failed", "0000:05:00.0", ""}},
        {"0000:05:00.1: mlx5_cmd_out_err:835", {"mlx5.access_reg_failed", "0000:05:00.1", ""}},
        {"No done completion", {"", "", ""}},
        {"CREATE_DCT(0x710) timeout. Will cause a leak", {"mlx5.cmd_timeout", "0000:61:00.0", ""}},
        {"Fatal error 1 detected", {"mlx5.fatal_error", "0000:00:00.0", ""}},
        {"assert_var[0]", {"", "", ""}},
        {"fw_ver 65535", {"", "", ""}},
        {"unrecognized error", {"", "", ""}},
        {"health compromised", {"mlx5.health_compromised", "0000:00:00.0", ""}},
        {"2RST_QP(0x50a) timeout", {"mlx5.cmd_timeout", "0000:00:00.0", ""}},
        {"modify QP 0x00072c to RESET failed", {"", "", ""}},
        {"QUERY_VPORT_COUNTER(0x770) timeout", {"mlx5.cmd_timeout", "0000:00:00.0", ""}},
        {"DESTROY_QP(0x501) timeout", {"mlx5.cmd_timeout", "0000:00:00.0", ""}},
        {"transmit queue 19 timed out", {"netdev.tx_watchdog", "", "eth1"}},
        {"WARNING: CPU: 15 PID: 30568", {"", "", ""}},
        {"eth1: TX timeout detected", {"mlx5.tx_timeout", "0000:13:00.1", "eth1"}},
        {"TX timeout on queue: 19", {"", "", ""}},
        {"EQ 0x1a", {"", "", ""}},
        {"transmit queue 5 timed out", {"netdev.tx_watchdog", "", "eth1"}},
        {"modify lag map", {"", "", ""}},
        {"DPC: containment event", {"pcie.dpc_containment", "0004:00:00.0", ""}},
        {"severity=Uncorrected (Non-Fatal)", {"pcie.aer_nonfatal", "0004:00:00.0", ""}},
        {"error status/mask", {"", "", ""}},
        {"AER: TLP Header", {"", "", ""}},
        {"health sensors: 1 pci_status: 1. Enter", {"", "", ""}},
        {"PCI channel offline", {"mlx5.pci_channel_offline", "0004:01:00.0", ""}},
        {"print_health:819:(pid 0): Fatal error detected",
         {"mlx5.fatal_error", "0004:01:00.1", ""}},
        {"PCI slot 1 is unavailable", {"", "", ""}},
        {"Exit, result = 3, need reset",
         {"mlx5.pci_channel_error", "", ""}}, // two lines: 0004:01:00.0, 0000:55:00.0
        {"crdump: failed to lock", {"", "", ""}},
        {"pciehp: Slot(41): Link Down", {"", "", ""}},
        {"handling bad device here", {"", "", ""}},
        {"health recovery flow aborted", {"mlx5.health_recovery_failed", "0004:01:00.1", ""}},
        {"subordinate device reset failed", {"", "", ""}},
        {"AER: device recovery failed", {"pcie.recovery_failed", "0004:00:00.0", ""}},
        {"mlx5_pci_slot_reset Device state = 1 pci_status: 0. Enter", {"", "", ""}},
        {"wait vital counter", {"", "", ""}},
        {"recovered", {"", "", ""}},
        {"Detected insufficient power", {"mlx5.insufficient_power", "0000:5c:00.0", ""}},
        {"power capability was not advertised", {"", "", ""}},
        {"available PCIe bandwidth", {"", "", ""}},
        {"advertised sufficient power", {"", "", ""}},
        {"firmware version: 16.27.2048", {"", "", ""}},
        {"E-Switch: Total vports", {"", "", ""}},
        {"Cable plugged", {"", "", ""}},
        {"Cable unplugged", {"mlx5.cable_unplugged", "0000:08:00.0", ""}},
        {"MLX5E: StrdRq", {"", "", ""}},
        {"renamed from eth0", {"", "", ""}},
        {"Mellanox Connect-IB Infiniband driver", {"", "", ""}},
        {"enp1s0f0: Link up", {"", "", ""}},
        {"link becomes ready", {"", "", ""}},
        {"log_max_qp value in current profile", {"", "", ""}},
        {"handle_hca_cap failed", {"", "", ""}},
        {"mlx5_load_one failed with error code -22", {"mlx5.load_failed", "0000:03:00.0", ""}},
        {"probe of 0000:03:00.0 failed with error -22", {"mlx5.probe_failed", "0000:03:00.0", ""}},
        // The source elided the line's dev_printk prefix ("[...] mlx5_port_module_event..."): as
        // quoted, a device-less line, and a device-less line is matched only as one of the
        // kernel's own report shapes (the same text about a device: PrintedAboutADevice below).
        {"High Temperature", {"", "", ""}},
        {"mlx5_cmd_check:756", {"mlx5.access_reg_failed", "0000:04:00.0", ""}},
    };
    return e;
}

std::vector<std::string> fixtureLines()
{
    std::ifstream in(std::string(NICD_SHARED_DIR) + "/fixtures/kernel-log-lines.txt");
    std::vector<std::string> lines;
    std::string l;
    while (std::getline(in, l))
        if (!l.empty() && l[0] != '#')
            lines.push_back(l);
    return lines;
}

} // namespace

TEST(KernelPatterns, EveryFixtureLineIsClassifiedAsExpected)
{
    auto lines = fixtureLines();
    ASSERT_GE(lines.size(), 60U);
    size_t matched = 0;
    for (const auto& line : lines) {
        const Expect* want = nullptr;
        int keys = 0;
        for (const auto& [key, e] : expectations())
            if (line.find(key) != std::string::npos) {
                want = &e;
                ++keys;
            }
        ASSERT_EQ(keys, 1) << "no single expectation for: " << line;
        pv1::KernelLineMatch m;
        auto rec = nicd::test::logged(line);
        bool hit = nicd::mlx5::classifyKernelRecord(rec.record(), m);
        EXPECT_EQ(hit ? m.code : "", want->code) << line;
        if (hit && want->pci[0] != '\0') {
            EXPECT_EQ(m.pci_address, want->pci) << line;
        }
        if (hit && want->netdev[0] != '\0') {
            EXPECT_EQ(m.netdev, want->netdev) << line;
        }
        if (hit) {
            ++matched;
            EXPECT_FALSE(m.message.empty());
            EXPECT_FALSE(m.action.empty());
        }
    }
    EXPECT_GE(matched, 25U);
}

TEST(KernelPatterns, SeverityFollowsTheImpact)
{
    pv1::KernelLineMatch m;
    ASSERT_TRUE(nicd::mlx5::classifyKernelRecord(
        nicd::test::logged("mlx5_core 0000:03:00.0: wait_func:964:(pid 112): ENABLE_HCA(0x104) "
                           "timeout. Will cause a leak of a command resource")
            .record(),
        m));
    EXPECT_EQ(m.severity, pv1::Severity::Fatal);
    pv1::KernelLineMatch w;
    ASSERT_TRUE(nicd::mlx5::classifyKernelRecord(
        nicd::test::deviceLess(
            "NETDEV WATCHDOG: ens1f0np0 (mlx5_core): transmit queue 0 timed out 5376 ms")
            .record(),
        w));
    EXPECT_EQ(w.severity, pv1::Severity::NonFatal);
    EXPECT_EQ(w.netdev, "ens1f0np0");
}

TEST(KernelPatterns, OtherDriversAndNoiseDoNotMatch)
{
    pv1::KernelLineMatch m;
    for (const char* l : {"NETDEV WATCHDOG: eth0 (ixgbe): transmit queue 2 timed out",
                          "ice 0000:17:00.0: wait_func timeout. Will cause a leak",
                          "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode", "",
                          "mlx5", "pcieport 0000:00:01.0: PME: Signaling with IRQ 24"})
        EXPECT_FALSE(nicd::mlx5::classifyKernelRecord(nicd::test::logged(l).record(), m)) << l;
}

// Formats the fixture has no real line for, as quoted in reference/nic-health.md §3.1 (from the
// kernel sources and NVSentinel's tests) and in the kernel's AER code: each must be classified
// and mapped to its device.
TEST(KernelPatterns, DocumentedFormatsWithoutAFixtureLine)
{
    struct Case {
        const char* line;
        const char* code;
        pv1::Severity severity;
        const char* pci;
        const char* netdev;
    };
    using S = pv1::Severity;
    const Case cases[] = {
        {"mlx5_core 0000:65:00.0 ens15np0: NETDEV WATCHDOG: CPU: 94: transmit queue 3 timed out "
         "5032 ms",
         "netdev.tx_watchdog", S::NonFatal, "0000:65:00.0", "ens15np0"},
        {"mlx5_core 0000:65:00.0 ens15np0: RX timeout on channel: 20, ICOSQ: 0x9a, RQ: 0x9b, CQ: "
         "0x4f1",
         "mlx5.rx_timeout", S::NonFatal, "0000:65:00.0", "ens15np0"},
        {"mlx5_core 0000:d2:00.0: poll_health:174: device's health compromised - reached miss "
         "count.",
         "mlx5.health_compromised", S::Fatal, "0000:d2:00.0", ""},
        // health.c prints it with mlx5_core_err() (NVSentinel's test quotes it without the device).
        {"mlx5_core 0000:d2:00.0: print_health_info:423:(pid 0): synd 0x8: unrecoverable "
         "hardware error",
         "mlx5.unrecoverable", S::Fatal, "0000:d2:00.0", ""},
        {"mlx5_core 0000:5c:00.0: Port module event[error]: module 0, Cable error, High "
         "Temperature",
         "mlx5.module_high_temperature", S::NonFatal, "0000:5c:00.0", ""},
        {"mlx5_core 0000:5c:00.0: Port module event[error]: module 1, Cable error, Bad or shorted "
         "cable/module",
         "mlx5.module_error", S::NonFatal, "0000:5c:00.0", ""},
        {"mlx5_core 0000:d2:00.0: mlx5_cmd_out_err:838: ACCESS_REG(0x805) op_mod(0x1) failed, "
         "status bad operation(0x2)",
         "mlx5.access_reg_failed", S::NonFatal, "0000:d2:00.0", ""},
        {"pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:3b:00.0",
         "pcie.aer_fatal", S::Fatal, "0000:3b:00.0", ""},
        {"pcieport 0000:3a:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction "
         "Layer, (Requester ID)",
         "pcie.aer_fatal", S::Fatal, "0000:3a:00.0", ""},
        {"mlx5_core 0000:3b:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), "
         "type=Inaccessible, (Unregistered Agent ID)",
         "pcie.aer_fatal", S::Fatal, "0000:3b:00.0", ""},
    };
    for (const auto& c : cases) {
        pv1::KernelLineMatch m;
        ASSERT_TRUE(nicd::mlx5::classifyKernelRecord(nicd::test::logged(c.line).record(), m))
            << c.line;
        EXPECT_EQ(m.code, c.code) << c.line;
        EXPECT_EQ(m.severity, c.severity) << c.line;
        EXPECT_EQ(m.pci_address, c.pci) << c.line;
        EXPECT_EQ(m.netdev, c.netdev) << c.line;
    }
}

TEST(KernelPatterns, CorrectedAndOtherDevicesPcieErrorsDoNotMatch)
{
    pv1::KernelLineMatch m;
    for (const char* l :
         {"mlx5_core 0000:3b:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, "
          "(Receiver ID)",
          "nvme 0000:01:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Inaccessible",
          "mlx5_core 0000:3b:00.0: Port module event: module 0, Cable plugged",
          "watchdog: BUG: soft lockup - CPU#94 stuck for 226906s! [swapper/94:0]"})
        EXPECT_FALSE(nicd::mlx5::classifyKernelRecord(nicd::test::logged(l).record(), m)) << l;
}
