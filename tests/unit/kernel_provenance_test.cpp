// Kernel lines by provenance: a line counts against a device only when the kernel said it about
// that device (journald's _KERNEL_DEVICE), device-less reports match only where the kernel's own
// report starts, and the kernel's reports about user programs are never classified. Forged lines
// are built from real report formats: x86's segfault report (show_signal_msg + print_vma_addr:
// "<comm>[<pid>]: segfault at <addr> ip <ip> sp <sp> error <n> in <file>[<base>+<size>]", where
// both the comm (up to 15 bytes) and the file name are the user's choice, printed unescaped),
// "traps: <comm>[<pid>] general protection fault ..." and "traps: <comm>[<pid>] trap ...".
#include "health/kernel_rules.hpp"
#include "kernel_log/trusted_fields.hpp"
#include "kernel_log/user_reports.hpp"
#include "kernel_patterns.hpp"
#include "support/health_fixture.hpp"
#include "support/kernel_records.hpp"
#include "support/mlx5_reports.hpp"

#include <nicd/plugin/sdk/stack_frame.h>

#include <gtest/gtest.h>

using namespace nicd;
using nicd::test::deviceLess;
using nicd::test::logged;
using nicd::test::printedAbout;
namespace pv1 = nicd::plugin::v1;

namespace {

// What a user can make the kernel print: a crashing program named `comm` whose file is `file`.
std::string segfault(const std::string& comm, const std::string& file)
{
    return comm + "[4212]: segfault at 0 ip 000055d0c0ffee00 sp 00007ffd2f1c8e10 error 6 in " +
           file + "[55d0c0ffe000+1000] likely on CPU 3 (core 3, socket 0)";
}
std::string gpf(const std::string& comm, const std::string& file)
{
    return "traps: " + comm + "[4212] general protection fault ip:55d0c0ffee00 sp:7ffd2f1c8e10 " +
           "error:0 in " + file + "[55d0c0ffe000+1000]";
}
std::string trap(const std::string& comm, const std::string& file)
{
    return "traps: " + comm + "[4212] trap invalid opcode ip:55d0c0ffee00 sp:7ffd2f1c8e10 " +
           "error:0 in " + file + "[55d0c0ffe000+1000]";
}

const std::vector<std::string>& forgedTexts()
{
    static const std::vector<std::string> t{
        "mlx5_core 0000:10:00.1: poll_health:694:(pid 0): Fatal error 1 detected",
        "mlx5_core 0000:10:00.1: wait_func:1132:(pid 1): QUERY_VPORT_COUNTER(0x770) timeout. "
        "Will cause a leak of a command resource",
        "BUG: soft lockup - CPU#3 stuck for 23s!",
        "NETDEV WATCHDOG: ens1f0np0 (mlx5_core): transmit queue 19 timed out",
        "mlx5_core: probe of 0000:10:00.1 failed with error -22",
        "pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:10:00.1",
    };
    return t;
}

// Every way to put a forged text in a line about a user program, including comms of 15 bytes
// that start like a kernel report.
std::vector<std::string> forgedLines()
{
    std::vector<std::string> out;
    for (const auto& text : forgedTexts())
        for (const std::string comm : {"prog", "mlx5_core 0000:", "NETDEV WATCHDOG",
                                       "watchdog: BUG: ", "mlx5e_napi_poll", "pcieport 0000:0"}) {
            out.push_back(segfault(comm, text));
            out.push_back(gpf(comm, text));
            out.push_back(trap(comm, text));
        }
    return out;
}

} // namespace

TEST(KernelOrigin, TrustedFieldsNameTheDevice)
{
    EXPECT_EQ(kernel_log::parseKernelOrigin("+pci:0000:3b:00.0", "pci"),
              (KernelOrigin{"pci", "0000:3b:00.0"}));
    EXPECT_EQ(kernel_log::parseKernelOrigin("+pci:0000:3b:00.0", ""),
              (KernelOrigin{"pci", "0000:3b:00.0"}));
    EXPECT_EQ(kernel_log::parseKernelOrigin("+infiniband:mlx5_0", "infiniband"),
              (KernelOrigin{"infiniband", "mlx5_0"}));
    EXPECT_EQ(kernel_log::parseKernelOrigin("n3", "net"), (KernelOrigin{"net", "3"}));
    EXPECT_EQ(kernel_log::parseKernelOrigin("c189:1", "usb"), (KernelOrigin{"char", "189:1"}));
    EXPECT_EQ(kernel_log::parseKernelOrigin("", ""), KernelOrigin{}) << "a device-less line";
}

TEST(KernelOrigin, AnOriginTheKernelDoesNotWriteIsRefused)
{
    for (auto [dev, sub] : std::vector<std::pair<const char*, const char*>>{
             {"+pci:0000:3b:00.0", "net"}, // the subsystem contradicts the device
             {"pci:0000:3b:00.0", "pci"},
             {"+pci:", "pci"},
             {"+PCI:0000:3b:00.0", ""},
             {"+pci:00 00", "pci"},
             {"+pci:../x", "pci"},
             {"nx", ""},
             {"c1", ""},
             {"", "pci"}})
        EXPECT_FALSE(kernel_log::parseKernelOrigin(dev, sub)) << dev << " " << sub;
}

TEST(UserProgramReports, TheKernelsReportsAboutProgramsAreRecognisedFromTheirStart)
{
    for (const auto& l : forgedLines())
        EXPECT_TRUE(kernel_log::isUserProgramReport(l)) << l;
    EXPECT_TRUE(kernel_log::isUserProgramReport("a.out[99]: unhandled signal 11 code 0x1 at 0x0"));
    EXPECT_TRUE(kernel_log::isUserProgramReport("potentially unexpected fatal signal 11."));
}

TEST(UserProgramReports, AGenuineReportIsNeverTakenForOne)
{
    // A soft-lockup header names the task on the CPU at its end: a user's name there (even one
    // shaped like a segfault report) does not hide the report.
    for (const char* l :
         {"watchdog: BUG: soft lockup - CPU#3 stuck for 23s! []: segfault at :4212]",
          "watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [kworker/3:1:99]",
          "NETDEV WATCHDOG: eth1 (mlx5_core): transmit queue 19 timed out",
          "mlx5_core: probe of 0000:03:00.0 failed with error -22",
          "INFO: task kworker/u8:2:123 blocked for more than 120 seconds."})
        EXPECT_FALSE(kernel_log::isUserProgramReport(l)) << l;
}

TEST(KernelProvenance, ForgedLinesAboutUserProgramsMatchNoPattern)
{
    for (const auto& l : forgedLines()) {
        pv1::KernelLineMatch m;
        EXPECT_FALSE(mlx5::classifyKernelRecord(deviceLess(l).record(), m)) << l;
    }
}

TEST(KernelProvenance, TextThatOnlyLooksLikeADevicesLineMatchesNothing)
{
    pv1::KernelLineMatch m;
    // The dev_printk text without the kernel's record of the device: not classified.
    for (const auto& text : {forgedTexts()[0], forgedTexts()[1], forgedTexts()[5]})
        EXPECT_FALSE(mlx5::classifyKernelRecord(deviceLess(text).record(), m)) << text;
    // A line about one function whose text starts with another's name.
    auto other = printedAbout("pci", "0000:10:00.0", forgedTexts()[0]);
    EXPECT_FALSE(mlx5::classifyKernelRecord(other.record(), m));
    // The same text as the kernel prints it about 0000:10:00.1 counts.
    auto genuine = logged(forgedTexts()[0]);
    ASSERT_TRUE(mlx5::classifyKernelRecord(genuine.record(), m));
    EXPECT_EQ(m.code, "mlx5.fatal_error");
    EXPECT_EQ(m.pci_address, "0000:10:00.1");
}

TEST(KernelProvenance, DeviceLessReportsCountWhereTheKernelsReportStarts)
{
    pv1::KernelLineMatch m;
    ASSERT_TRUE(mlx5::classifyKernelRecord(deviceLess(forgedTexts()[3]).record(), m));
    EXPECT_EQ(m.netdev, "ens1f0np0");
    ASSERT_TRUE(mlx5::classifyKernelRecord(deviceLess(forgedTexts()[4]).record(), m));
    EXPECT_EQ(m.pci_address, "0000:10:00.1");
    for (const std::string l :
         {"x NETDEV WATCHDOG: ens1f0np0 (mlx5_core): transmit queue 1 timed out",
          "NETDEV WATCHDOG: a b (mlx5_core): transmit queue 1 timed out",
          " mlx5_core: probe of 0000:10:00.1 failed with error -22"}) {
        pv1::KernelLineMatch x;
        EXPECT_FALSE(mlx5::classifyKernelRecord(deviceLess(l).record(), x)) << l;
    }
}

TEST(KernelProvenance, ForgedSoftLockupHeadersAndFramesDoNotCount)
{
    test::Mlx5Reports d;
    // Forged headers: no genuine header armed, so no frame counts after them.
    for (const auto& l : forgedLines())
        EXPECT_FALSE(d.feed(deviceLess(l).record())) << l;
    EXPECT_FALSE(d.feed(deviceLess(" mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]").record()));
    // A genuine lockup elsewhere, then a program named after an mlx5 poll frame crashes.
    EXPECT_FALSE(
        d.feed(deviceLess("watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [a:1]").record()));
    EXPECT_FALSE(d.feed(deviceLess(" ext4_writepages+0x1a2/0x6a0").record()));
    for (const auto& l : {segfault("mlx5e_napi_poll", "mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]"),
                          gpf("x", " mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]")})
        EXPECT_FALSE(d.feed(deviceLess(l).record())) << l;
    // Nor a frame in a line about a device.
    EXPECT_FALSE(d.feed(
        printedAbout("pci", "0000:10:00.0", " mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]").record()));
    // The genuine frame still confirms it.
    auto hit = d.feed(deviceLess("  mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]").record());
    ASSERT_TRUE(hit);
    EXPECT_NE(hit->message.find("CPU#3 stuck for 23s"), std::string::npos);
}

TEST(KernelProvenance, StackFramesAreWholeTraceLines)
{
    using plugin::sdk::runningFrame;
    EXPECT_EQ(runningFrame(" mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]"), "mlx5e_napi_poll");
    EXPECT_EQ(runningFrame("RIP: 0010:mlx5e_poll_ico_cq+0x8b/0x1a0 [mlx5_core]"),
              "mlx5e_poll_ico_cq");
    EXPECT_EQ(runningFrame(" [<ffffffffa0123456>] mlx5e_napi_poll+0x1d5/0x6e0 [mlx5_core]"),
              "mlx5e_napi_poll");
    EXPECT_EQ(runningFrame("net_rx_action+0x146/0x3e0"), "net_rx_action");
    for (const char* l : {" ? mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]", "mlx5e_napi_poll+0x1f",
                          "x mlx5e_napi_poll+0x1f/0x2a0", "mlx5e_napi_poll+0x1f/0x2a0 [a b]",
                          "mlx5e_napi_poll+0x1f/0x2a0 trailing", "+0x1/0x2", ""})
        EXPECT_FALSE(runningFrame(l)) << l;
}

TEST(KernelProvenance, ALineCountsAgainstTheDeviceTheKernelSaidItWasAbout)
{
    auto inv = test::kernelInventory(); // mlx5_0 0004:01:00.0 below port 0004:00:00.0, its VF
    auto d2 = test::device("mlx5_2", 4);
    d2.pci_address = "0000:3b:00.0";
    d2.pci_path = "/sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0";
    inv.devices.push_back(d2);
    auto finding = [](std::string subsystem, std::string device, std::string pci,
                      std::string netdev = "") {
        KernelFinding f;
        f.match.code = "x";
        f.match.pci_address = std::move(pci);
        f.match.netdev = std::move(netdev);
        f.origin = {std::move(subsystem), std::move(device)};
        return f;
    };
    auto on = [&](const KernelFinding& f) {
        const Device* d = health::deviceForKernelLine(f, inv);
        return d ? d->ibdev : std::string("-");
    };
    EXPECT_EQ(on(finding("pci", "0000:3b:00.0", "0000:3b:00.0")), "mlx5_2");
    // The text of a line about mlx5_2 names mlx5_0's function: still mlx5_2's.
    EXPECT_EQ(on(finding("pci", "0000:3b:00.0", "0004:01:00.0", "ens1f0np0")), "mlx5_2");
    // A port's report names a function below it, or not (its first PF); one not below it: no.
    EXPECT_EQ(on(finding("pci", "0004:00:00.0", "0004:01:00.0")), "mlx5_0");
    EXPECT_EQ(on(finding("pci", "0004:00:00.0", "")), "mlx5_0");
    EXPECT_EQ(on(finding("pci", "0004:00:00.0", "0000:3b:00.0")), "mlx5_0");
    EXPECT_EQ(on(finding("pci", "0000:3a:00.0", "0004:01:00.0")), "mlx5_2");
    EXPECT_EQ(on(finding("infiniband", "mlx5_2", "0004:01:00.0")), "mlx5_2");
    EXPECT_EQ(on(finding("pci", "0000:99:00.0", "0000:3b:00.0")), "-") << "another function";
    EXPECT_EQ(on(finding("net", "7", "", "ens1f0np0")), "-");
    // Device-less: by what the anchored report names.
    EXPECT_EQ(on(finding("", "", "", "ens1f0np0")), "mlx5_0");
    EXPECT_EQ(on(finding("", "", "0000:3b:00.0")), "mlx5_2");
}
