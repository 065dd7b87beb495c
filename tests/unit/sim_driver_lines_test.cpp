// `inject kernel-line`'s lines are the drivers' own: the exact printk text with dev_printk's
// prefix for the PCI function, its netdev or its RDMA device, and the device the kernel records
// beside it (what support/kernel_records.hpp reads back from the prefix, as journald stores it).
#include "driver_lines.hpp"
#include "sim.hpp"
#include "support/kernel_records.hpp"

#include <gtest/gtest.h>

using namespace nicd;

namespace {

std::string only(const std::vector<sim::DriverLine>& lines)
{
    EXPECT_EQ(lines.size(), 1U);
    return lines.empty() ? std::string() : lines.front().message;
}

} // namespace

TEST(SimDriverLines, BnxtLinesInTheirPrintkFormats)
{
    auto line = [](const std::string& event) {
        return only(sim::driverLines("bnxt", event, "0000:5d:00.0", "ens4f0np0", "bnxt_re0"));
    };
    EXPECT_EQ(line("fw-fatal-reset"),
              "bnxt_en 0000:5d:00.0 ens4f0np0: Fatal firmware reset event, data1: 0x10000, "
              "data2: 0x0, min wait 1500 ms, max wait 8000 ms");
    EXPECT_EQ(line("tx-timeout"),
              "bnxt_en 0000:5d:00.0 ens4f0np0: TX timeout detected, starting reset task!");
    EXPECT_EQ(line("fw-stall"), "bnxt_en 0000:5d:00.0: QPLIB: bnxt_re_is_fw_stalled: FW STALL "
                                "Detected. cmdq[0xe]=0x3 waited (103641 > 100000) msec active 1 ");
    EXPECT_EQ(line("roce-probe-failed"),
              "bnxt_en 0000:5d:00.0 bnxt_re0: Failed to allocate RCFW Channel: 0xfffffff4");
    auto pci = sim::driverLines("bnxt", "pci-error", "0000:5d:00.0", "ens4f0np0", "bnxt_re0");
    ASSERT_EQ(pci.size(), 3U);
    EXPECT_EQ(pci[2].message, "bnxt_en 0000:5d:00.0: Cannot re-enable PCI device after reset.");
}

TEST(SimDriverLines, EveryLineCarriesTheDeviceTheKernelRecords)
{
    for (const char* vendor : {"bnxt", "mlx5"})
        for (const auto& event : sim::driverEvents(vendor))
            for (const auto& l :
                 sim::driverLines(vendor, event, "0000:5d:00.0", "ens4f0np0", "bnxt_re0")) {
                auto rec = test::logged(l.message);
                EXPECT_EQ(l.kernel_device, rec.kernel_device) << l.message;
                EXPECT_EQ(l.kernel_subsystem, "pci") << l.message;
            }
    EXPECT_EQ(sim::driverEvents("bnxt").size(), 10U);
}

TEST(SimDriverLines, AnEventTheDriverDoesNotPrintIsRefusedWithTheKnownOnes)
{
    try {
        sim::driverLines("mlx5", "fw-stall", "0000:1a:00.0", "ens1f0np0", "mlx5_0");
        FAIL() << "mlx5 has no fw-stall line";
    } catch (const sim::SimError& e) {
        EXPECT_STREQ(e.what(),
                     "mlx5 prints no 'fw-stall' lines (its events: fw-fatal, cmd-timeout, "
                     "tx-timeout)");
    }
}
