// The kernel lines a capture keeps: every line nicd's classifier recognises (the real lines of
// ../shared/fixtures/kernel-log-lines.txt), soft-lockup reports, and lines naming a captured
// device; and the journal export format they are written in.
#include "capture/kernel_lines.hpp"
#include "kernel_patterns.hpp"
#include "support/kernel_records.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd::sim::capture;

TEST(CaptureKernelLines, EveryLineNicdRecognisesIsKept)
{
    std::ifstream in(std::string(NICD_SHARED_DIR) + "/fixtures/kernel-log-lines.txt");
    ASSERT_TRUE(in);
    int recognised = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line.front() == '#')
            continue;
        nicd::plugin::v1::KernelLineMatch m;
        auto rec = nicd::test::logged(line);
        if (nicd::mlx5::classifyKernelRecord(rec.record(), m)) {
            ++recognised;
            EXPECT_TRUE(isNicLine(rec.message, rec.kernel_device, {})) << line;
        }
    }
    EXPECT_GT(recognised, 20) << "the fixture's recognised lines";
}

TEST(CaptureKernelLines, UnrelatedLinesAreLeftOnTheNode)
{
    const std::vector<std::string> names = {"ens1f0np0", "0000:1a:00.0", "mlx5_0"};
    EXPECT_FALSE(isNicLine("e1000e 0000:00:1f.6 eno1: NIC Link is Up 1000 Mbps", "", names));
    EXPECT_FALSE(isNicLine("audit: type=1400 apparmor=\"DENIED\"", "", names));
    EXPECT_FALSE(isNicLine("ens1f0np01: renamed", "", names)) << "a longer name is another netdev";
    EXPECT_TRUE(isNicLine("ens1f0np0: renamed from eth2", "", names));
    EXPECT_TRUE(isNicLine("pci 0000:1a:00.0: [15b3:1021] type 00 class 0x020000", "", names));
    EXPECT_TRUE(
        isNicLine("watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [kworker/3:1:99]", "", {}));
}

// bnxt's lines are kept as mlx5's are, even about a function the capture did not walk (its RDMA
// device failed to probe) and the bnxt_re frames of a multi-line report (real lines of a 6.8
// node, research notes §5).
TEST(CaptureKernelLines, BnxtLinesAreKept)
{
    for (const char* l :
         {"bnxt_en 0000:12:00.0: QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0xe]=0x3 "
          "waited (103641 > 100000) msec active 1",
          "bnxt_en 0000:12:00.0 bnxt_re0: Failed to modify HW QP",
          "bnxt_en 0000:12:00.0 eth0: TX timeout detected, starting reset task!"}) {
        auto rec = nicd::test::logged(l);
        EXPECT_TRUE(isNicLine(rec.message, rec.kernel_device, {})) << l;
    }
    EXPECT_TRUE(isNicLine(" bnxt_re_probe+0xe7d/0x11a0 [bnxt_re]", "", {}));
}

// What the kernel printed about a captured device is kept whatever its text; the kernel's reports
// about user programs never are, whatever they name.
TEST(CaptureKernelLines, LinesByTheirOriginAndNeverAUserProgramsReport)
{
    const std::vector<std::string> names = {"ens1f0np0", "0000:1a:00.0", "mlx5_0"};
    EXPECT_TRUE(isNicLine("ixgbe 0000:1a:00.0: something", "+pci:0000:1a:00.0", names));
    EXPECT_TRUE(isNicLine("firmware said so", "+infiniband:mlx5_0", names));
    EXPECT_FALSE(isNicLine("nvme 0000:01:00.0: ready", "+pci:0000:01:00.0", names));
    EXPECT_FALSE(isNicLine("x", "not an origin", names));
    for (const char* l :
         {"mlx5_core 0000:[4212]: segfault at 0 ip 0 sp 0 error 6 in 1a:00.0: x[1+2]",
          "traps: prog[4212] general protection fault ip:1 sp:2 error:0 in ens1f0np0[1+2]",
          "prog[4212]: segfault at 0 ip 0 sp 0 error 6 in BUG: soft lockup - CPU#3[1+2]"})
        EXPECT_FALSE(isNicLine(l, "", names)) << l;
}

TEST(CaptureKernelLines, ExportFormatHasWhatJournalRemoteNeeds)
{
    auto text = journalExport({{1700000000000000, "mlx5_core 0000:1a:00.0: Fatal error 1 detected",
                                "+pci:0000:1a:00.0", "pci"},
                               {1700000000500000, "two\nlines", "", ""},
                               {1699999999000000, "clock stepped back", "", ""}},
                              "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d", std::string(32, '1'), "host-1");
    EXPECT_NE(text.find("__REALTIME_TIMESTAMP=1700000000000000\n__MONOTONIC_TIMESTAMP=1000000\n"
                        "_BOOT_ID=5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d\n"),
              std::string::npos);
    EXPECT_NE(text.find("_TRANSPORT=kernel\n"), std::string::npos);
    EXPECT_NE(text.find("_KERNEL_DEVICE=+pci:0000:1a:00.0\n_KERNEL_SUBSYSTEM=pci\n"
                        "MESSAGE=mlx5_core 0000:1a:00.0: Fatal error 1 detected\n\n"),
              std::string::npos)
        << "the origin travels with the line";
    // A message with a newline is a binary field: the name, a little-endian length, the bytes.
    const std::string binary =
        std::string("MESSAGE\n") + '\x09' + std::string(7, '\0') + "two\nlines\n";
    EXPECT_NE(text.find(binary), std::string::npos);
    // Monotonic time never goes back, even when the wall clock did.
    EXPECT_NE(text.find("__MONOTONIC_TIMESTAMP=1500001\n"), std::string::npos) << text;
}

TEST(CaptureKernelLines, ProcessNamesAreLeftOnTheNode)
{
    EXPECT_EQ(withoutProcessNames("watchdog: BUG: soft lockup - CPU#3 stuck for 23s! "
                                  "[train_llama.py:4242]"),
              "watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [process:4242]");
    EXPECT_EQ(withoutProcessNames("CPU: 3 PID: 4242 Comm: train_llama.py Tainted: G OE"),
              "CPU: 3 PID: 4242 Comm: process Tainted: G OE");
    const std::string plain = "mlx5_core 0000:1a:00.0: poll_health:694: Fatal error 1 detected";
    EXPECT_EQ(withoutProcessNames(plain), plain);
}
