// `inject kernel-line`'s lines are the drivers' own: the exact printk text with dev_printk's
// prefix for the PCI function, its netdev or its RDMA device, and the device the kernel records
// beside it (what support/kernel_records.hpp reads back from the prefix, as journald stores it).
#include "bnxt/bnxt_kernel_lines.hpp"
#include "driver_lines.hpp"
#include "kernel_patterns.hpp"
#include "sim.hpp"
#include "support/kernel_records.hpp"

#include <map>
#include <string>

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

// What `inject kernel-line` injects must raise the condition it is meant to: the first line of each
// event (its headline; the rest may be the driver's follow-up notes) is recognised by that
// vendor's plugin, with the code below. A new event fails here until its code is listed.
TEST(SimDriverLines, EachEventIsRecognisedByItsPlugin)
{
    using Classify = bool (*)(const plugin::v1::KernelRecord&, plugin::v1::KernelLineMatch&);
    const std::map<std::string, std::pair<Classify, std::map<std::string, std::string>>> vendors{
        {"bnxt",
         {&bnxt::classifyKernelRecord,
          {{"fw-fatal-reset", "bnxt.fw_fatal_reset"},
           {"fw-hang", "bnxt.fw_hang_detected"},
           {"fw-reset-failed", "bnxt.fw_reset_failed"},
           {"tx-timeout", "bnxt.tx_timeout"},
           {"hwrm-timeout", "bnxt.hwrm_timeout"},
           {"pause-storm", "bnxt.pause_storm"},
           {"thermal", "bnxt.thermal"},
           {"pci-error", "bnxt.pci_error"},
           {"fw-stall", "bnxt_re.fw_stall"},
           {"roce-probe-failed", "bnxt_re.probe_failed"}}}},
        {"mlx5",
         {&mlx5::classifyKernelRecord,
          {{"fw-fatal", "mlx5.fatal_error"},
           {"cmd-timeout", "mlx5.cmd_timeout"},
           {"tx-timeout", "mlx5.tx_timeout"}}}},
    };
    for (const auto& [vendor, classifier] : vendors) {
        const auto& [classify, codes] = classifier;
        for (const auto& event : sim::driverEvents(vendor)) {
            const auto lines =
                sim::driverLines(vendor, event, "0000:5d:00.0", "ens4f0np0", "bnxt_re0");
            ASSERT_FALSE(lines.empty()) << vendor << " " << event;
            plugin::v1::KernelLineMatch m;
            EXPECT_TRUE(classify(test::logged(lines.front().message).record(), m))
                << lines.front().message;
            ASSERT_TRUE(codes.contains(event)) << vendor << " " << event << " has no code here";
            EXPECT_EQ(m.code, codes.at(event)) << lines.front().message;
            EXPECT_EQ(m.pci_address, "0000:5d:00.0") << lines.front().message;
        }
    }
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
