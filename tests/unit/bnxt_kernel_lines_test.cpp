// The bnxt plugin's kernel classifiers on lines in the exact printk formats of bnxt_en (bnxt.c,
// bnxt_hwrm.c) and bnxt_re (qplib_rcfw.c, main.c), one of them captured on a real node (Proxmox
// 6.8, BCM57416): what each means, that it counts against the device journald recorded, that a
// forged or device-less line never matches, and that every code is documented as raised.
#include "bnxt/bnxt_kernel_lines.hpp"
#include "bnxt/bnxt_kernel_reports.hpp"
#include "health/kernel_rules.hpp"
#include "model/action.hpp"
#include "support/conditions_doc.hpp"
#include "support/kernel_records.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace pv1 = nicd::plugin::v1;
using nicd::test::ConditionsDoc;
using nicd::test::deviceLess;
using nicd::test::logged;
using nicd::test::printedAbout;

namespace {

constexpr const char* kPci = "0000:41:00.0";

struct Expected {
    std::string line; // as dev_printk printed it about kPci
    std::string code;
    bool fatal;
    std::string netdev;
};

const std::vector<Expected>& expectedLines()
{
    static const std::vector<Expected> lines{
        // qplib_rcfw.c bnxt_re_is_fw_stalled (the real line, its address changed)
        {"bnxt_en 0000:41:00.0: QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0xe]=0x3 "
         "waited (103641 > 100000) msec active 1 ",
         "bnxt_re.fw_stall", true, ""},
        // bnxt.c bnxt_async_event_process (RESET_NOTIFY), bnxt_fw_exception, bnxt_fw_reset_task
        {"bnxt_en 0000:41:00.0 ens2f0np0: Fatal firmware reset event, data1: 0x20001, data2: "
         "0x0, min wait 100 ms, max wait 5000 ms",
         "bnxt.fw_fatal_reset", false, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Non-fatal firmware reset event, data1: 0x10001, "
         "data2: 0x0, min wait 100 ms, max wait 5000 ms",
         "bnxt.fw_reset", false, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Firmware fatal reset event received",
         "bnxt.fw_fatal_reset", false, "ens2f0np0"}, // 5.6-5.11
        {"bnxt_en 0000:41:00.0 ens2f0np0: Detected firmware fatal condition, initiating reset",
         "bnxt.fw_hang_detected", false, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Firmware reset aborted, rc = -16", "bnxt.fw_reset_failed",
         true, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Firmware reset aborted, subsequent func_qcfg cmd "
         "failed, rc = -110, 5040 msecs since reset timestamp",
         "bnxt.fw_reset_failed", true, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: bnxt_open() failed during FW reset",
         "bnxt.fw_reset_failed", true, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Cannot re-enable PCI device", "bnxt.fw_reset_failed",
         true, "ens2f0np0"},
        // bnxt_hwrm.c __hwrm_send; at probe, before the netdev has a name
        {"bnxt_en 0000:41:00.0 ens2f0np0: Error (timeout: 500015) msg {0x23 0x9a3} len:0",
         "bnxt.hwrm_timeout", false, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 (unnamed net_device) (uninitialized): Error (timeout: 100000) "
         "msg {0xaf 0x3} len:0 v:1",
         "bnxt.hwrm_timeout", false, ""},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Abandoning msg {0x20 0x1c} len: 0 due to firmware "
         "status: 0x80000000",
         "bnxt.hwrm_timeout", false, "ens2f0np0"},
        // bnxt.c bnxt_tx_timeout, bnxt_sched_reset_txr, bnxt_event_error_report
        {"bnxt_en 0000:41:00.0 ens2f0np0: TX timeout detected, starting reset task!",
         "bnxt.tx_timeout", false, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Invalid Tx completion (ring:3 tx_hw_cons:17 cons:16 "
         "prod:40 curr:16)",
         "bnxt.invalid_tx_completion", false, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Pause Storm detected!", "bnxt.pause_storm", false,
         "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: One or more MMIO doorbells dropped by the device!",
         "bnxt.doorbell_drop", false, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Chip temperature has gone above the critical thermal "
         "threshold!",
         "bnxt.thermal", true, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Chip temperature has gone above the shutdown thermal "
         "threshold!",
         "bnxt.thermal", true, "ens2f0np0"},
        {"bnxt_en 0000:41:00.0 ens2f0np0: Chip temperature has gone above the warning thermal "
         "threshold!",
         "bnxt.thermal_warning", false, "ens2f0np0"},
        // bnxt.c bnxt_io_error_detected, bnxt_io_slot_reset; bnxt_init_one
        {"bnxt_en 0000:41:00.0 ens2f0np0: PCI I/O error detected", "bnxt.pci_error", false,
         "ens2f0np0"},
        {"bnxt_en 0000:41:00.0: Cannot re-enable PCI device after reset.",
         "bnxt.pci_recovery_failed", true, ""},
        {"bnxt_en 0000:41:00.0: Firmware not ready", "bnxt.pci_recovery_failed", true, ""},
        {"bnxt_en 0000:41:00.0: Firmware init phase 1 failed", "bnxt.fw_init_failed", true, ""},
        {"bnxt_en 0000:41:00.0: hwrm query capability failure rc: 2", "bnxt.fw_init_failed", true,
         ""},
        // bnxt_re main.c bnxt_re_dev_init: ibdev_err, through the PCI parent
        {"bnxt_en 0000:41:00.0 bnxt_re0: Failed to allocate RCFW Channel: 0xfffffff4",
         "bnxt_re.probe_failed", true, ""},
        {"bnxt_en 0000:41:00.0 bnxt_re0: Failed to initialize RCFW: 0xffffff92",
         "bnxt_re.probe_failed", true, ""},
    };
    return lines;
}

} // namespace

TEST(BnxtKernelLines, EachPatternAgainstItsDevice)
{
    for (const auto& e : expectedLines()) {
        pv1::KernelLineMatch m;
        ASSERT_TRUE(nicd::bnxt::classifyKernelRecord(printedAbout("pci", kPci, e.line).record(), m))
            << e.line;
        EXPECT_EQ(m.code, e.code) << e.line;
        EXPECT_EQ(m.severity == pv1::Severity::Fatal, e.fatal) << e.line;
        EXPECT_EQ(m.pci_address, kPci) << e.line;
        EXPECT_EQ(m.netdev, e.netdev) << e.line;
        EXPECT_FALSE(m.message.empty() || m.action.empty() || m.action_code.empty()) << e.line;
    }
}

// What is no fault, or not bnxt's: a requested reset, recovery news, the VF wait given up, a
// temperature going back down, bnxt_re's runtime notes (real lines).
TEST(BnxtKernelLines, NoMatchForWhatIsNoFault)
{
    for (const char* line :
         {"bnxt_en 0000:41:00.0 ens2f0np0: Solicited firmware reset event, data1: 0x1, data2: "
          "0x0, min wait 0 ms, max wait 0 ms",
          "bnxt_en 0000:41:00.0 ens2f0np0: Firmware reset aborted, bnxt_get_registered_vfs() "
          "returns -5",
          "bnxt_en 0000:41:00.0 ens2f0np0: Chip temperature has gone below the critical thermal "
          "threshold!",
          "bnxt_en 0000:41:00.0 ens2f0np0: PCI Slot Resume",
          "bnxt_en 0000:41:00.0 bnxt_re0: Failed to modify HW QP",
          "bnxt_en 0000:41:00.0 eth0: Broadcom BCM57608 NetXtreme-E 10Gb/25Gb/50Gb/100Gb/200Gb/"
          "400Gb Ethernet found at mem 20000000, node addr 00:0a:f7:00:00:01"}) {
        pv1::KernelLineMatch m;
        EXPECT_FALSE(nicd::bnxt::classifyKernelRecord(printedAbout("pci", kPci, line).record(), m))
            << line << " -> " << m.code;
    }
}

// Text that reads like bnxt's but that the kernel did not print about that device: a device-less
// record (a program's name or a file name can hold anything), another driver's line about the
// same device, a prefix that names another device, and bnxt text under mlx5's name.
TEST(BnxtKernelLines, ForgedOrDeviceLessLinesNeverMatch)
{
    const std::string stall = "QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0xe]=0x3 "
                              "waited (103641 > 100000) msec active 1";
    for (const auto& rec : {
             deviceLess("bnxt_en 0000:41:00.0: " + stall),
             deviceLess("bnxt_en[4242]: segfault at 0 ip 0 sp 0 error 4 in bnxt_en Firmware reset "
                        "aborted, rc = -16"),
             deviceLess("traps: bnxt_en 0000:41:00.0 ens2f0np0: TX timeout detected[9] general "
                        "protection fault"),
             printedAbout("pci", kPci, "mlx5_core 0000:41:00.0: " + stall),
             printedAbout("pci", kPci, "bnxt_en 0000:99:00.0: " + stall),
             printedAbout("pci", kPci, "bnxt_en 0000:41:00.0" + stall),
             printedAbout("infiniband", "mlx5_0", "infiniband mlx5_0: " + stall),
         }) {
        pv1::KernelLineMatch m;
        EXPECT_FALSE(nicd::bnxt::classifyKernelRecord(rec.record(), m)) << rec.message;
        EXPECT_TRUE(m.code.empty()) << rec.message;
    }
}

// bnxt_re's dev_* lines on its IB device (older kernels printed its probe errors so): counted
// against the RDMA device, which names no PCI address or netdev.
TEST(BnxtKernelLines, InfinibandLinesAboutABnxtDevice)
{
    pv1::KernelLineMatch m;
    ASSERT_TRUE(nicd::bnxt::classifyKernelRecord(
        logged("infiniband bnxt_re1: Failed to allocate CREQ: 0xfffffff4").record(), m));
    EXPECT_EQ(m.code, "bnxt_re.probe_failed");
    EXPECT_TRUE(m.pci_address.empty());
    EXPECT_TRUE(m.netdev.empty());
    EXPECT_FALSE(nicd::bnxt::classifyKernelRecord(
        logged("infiniband bnxt_re0: Couldn't change QP1 state to INIT: -110").record(), m));
}

// The PCIe AER/DPC reports about a bnxt function (real formats: the port's aer_isr lines, the
// function's own aer_print_error line): the port names the function below it, which the daemon
// counts them against; bnxt alone must see them on a node with no mlx5 NIC.
TEST(BnxtKernelLines, PcieReportsAboutTheBnxtFunction)
{
    struct Case {
        const char* line;
        const char* code;
        pv1::Severity severity;
        const char* pci;
    };
    using S = pv1::Severity;
    const Case cases[] = {
        {"pcieport 0000:40:01.1: AER: Uncorrected (Fatal) error received: 0000:41:00.0",
         "pcie.aer_fatal", S::Fatal, kPci},
        {"pcieport 0000:40:01.1: AER: Uncorrected (Non-Fatal) error received: 0000:41:00.0",
         "pcie.aer_nonfatal", S::NonFatal, kPci},
        {"pcieport 0000:40:01.1: AER: device recovery failed", "pcie.recovery_failed", S::Fatal,
         "0000:40:01.1"},
        {"pcieport 0000:40:01.1: DPC: containment event, status:0x1f01 source:0x0000",
         "pcie.dpc_containment", S::Fatal, "0000:40:01.1"},
        {"bnxt_en 0000:41:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), "
         "type=Inaccessible, (Unregistered Agent ID)",
         "pcie.aer_fatal", S::Fatal, kPci},
    };
    for (const auto& c : cases) {
        pv1::KernelLineMatch m;
        ASSERT_TRUE(nicd::bnxt::classifyKernelRecord(logged(c.line).record(), m)) << c.line;
        EXPECT_EQ(m.code, c.code) << c.line;
        EXPECT_EQ(m.severity, c.severity) << c.line;
        EXPECT_EQ(m.pci_address, c.pci) << c.line;
        EXPECT_TRUE(m.netdev.empty()) << c.line;
    }
    // A corrected error, and another driver's report about its own function, are not bnxt's.
    pv1::KernelLineMatch m;
    for (const char* l :
         {"bnxt_en 0000:41:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, "
          "(Receiver ID)",
          "nvme 0000:01:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Inaccessible"})
        EXPECT_FALSE(nicd::bnxt::classifyKernelRecord(logged(l).record(), m)) << l;
}

// Every code at the severity and action docs/conditions.md gives it; a non-fatal one that repeats
// escalates to a reset.
TEST_F(ConditionsDoc, EveryBnxtKernelLine)
{
    for (const auto& e : expectedLines()) {
        pv1::KernelLineMatch m;
        ASSERT_TRUE(
            nicd::bnxt::classifyKernelRecord(printedAbout("pci", kPci, e.line).record(), m));
        const bool fatal = m.severity == pv1::Severity::Fatal;
        EXPECT_TRUE(documented("kernel." + m.code, fatal ? "fatal" : "degraded",
                               nicd::toString(nicd::health::kernelAction(m, fatal))))
            << e.line;
    }
}

namespace {

bool lockup(const std::vector<std::string>& lines, pv1::KernelLineMatch& m)
{
    const pv1::KernelReport report{"soft_lockup", "BUG: soft lockup - CPU#12 stuck for 22s!",
                                   lines};
    return nicd::plugin::sdk::classifySoftLockup(report, nicd::bnxt::kPollLoop, m);
}

} // namespace

// A soft lockup running in bnxt_en's NAPI poll or bnxt_re's NQ tasklet is the driver's; a frame
// the unwinder only guessed ("? ...") or another driver's is not.
TEST(BnxtKernelReports, SoftLockupInBnxtPolling)
{
    pv1::KernelLineMatch m;
    ASSERT_TRUE(lockup({"Modules linked in: bnxt_re bnxt_en", "CPU: 12 PID: 0 Comm: swapper/12",
                        "RIP: 0010:__bnxt_poll_work+0x1e5/0x8d0 [bnxt_en]", "Call Trace:", " <IRQ>",
                        " bnxt_poll_p5+0x9a/0x1c0 [bnxt_en]"},
                       m));
    EXPECT_EQ(m.code, "driver_soft_lockup");
    EXPECT_EQ(m.severity, pv1::Severity::Fatal);
    EXPECT_NE(m.message.find("CPU#12"), std::string::npos) << m.message;
    EXPECT_NE(m.message.find("__bnxt_poll_work"), std::string::npos) << m.message;
    EXPECT_EQ(m.action_code, "reboot_node");
    EXPECT_TRUE(lockup({" bnxt_qplib_service_nq+0x12c/0x350 [bnxt_re]"}, m));
    pv1::KernelLineMatch none;
    EXPECT_FALSE(
        lockup({" ? bnxt_poll_p5+0x9a/0x1c0 [bnxt_en]", " mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]",
                "Comm: bnxt_poll_p5+0x9a/0x1c0"},
               none));
    const std::vector<std::string> frames{" bnxt_poll_p5+0x9a/0x1c0 [bnxt_en]"};
    const pv1::KernelReport hung{"hung_task",
                                 "INFO: task kworker blocked for more than 122 seconds.", frames};
    EXPECT_FALSE(nicd::plugin::sdk::classifySoftLockup(hung, nicd::bnxt::kPollLoop, none))
        << "only soft lockups";
}
