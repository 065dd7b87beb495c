// A capture replays as the node it was taken from: for every fault `nicd-sim inject` knows (read
// from its --help, so a new fault is covered or the test says what it needs), the node is created,
// the fault injected, nicd --once judges it; the node is captured; nicd --once on the capture
// gives the same textfile series and the same verdicts as nicd said on the node (the textfile the
// capture took along, run/nicd-sim/capture/said/nicd.prom). Kernel lines round-trip through the
// journal export format too, and a real sysfs tree (the procfs fixture) captures as well.
#include "neighbors/neighbor_twin.hpp"
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/fault_plans.hpp"
#include "support/journal_writer.hpp"
#include "support/temp_dir.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;
using test::FaultPlan;
using test::injectableFaults;
using test::injection;
using test::planFor;
using test::plans;

namespace {

// What the capture of `src` into `cap` put in place of each switch's identity (its system name,
// chassis ID and management address: a capture scrubs them like a host's), longest first, read
// from the two twins; empty when either has none.
std::vector<std::pair<std::string, std::string>> switchFakes(const fs::path& src,
                                                             const fs::path& cap)
{
    std::error_code ec;
    if (!fs::exists(sim::neighborTwinFile(src), ec) || !fs::exists(sim::neighborTwinFile(cap), ec))
        return {};
    const auto was = sim::readNeighborTwin(src);
    const auto now = sim::readNeighborTwin(cap);
    std::map<std::string, std::string> fake;
    for (const auto& [netdev, list] : was) {
        auto it = now.find(netdev);
        if (it == now.end() || it->second.size() != list.size())
            continue;
        for (size_t i = 0; i < list.size(); ++i)
            for (auto [a, b] : {std::pair{list[i].system_name, it->second[i].system_name},
                                std::pair{list[i].chassis_id, it->second[i].chassis_id},
                                std::pair{list[i].mgmt_address, it->second[i].mgmt_address}})
                if (!a.empty() && a != b)
                    fake.emplace(a, b);
    }
    std::vector<std::pair<std::string, std::string>> out(fake.begin(), fake.end());
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    return out;
}

// `text` with every original switch identity replaced by its fake, as the capture wrote it.
std::string withFakes(std::string text,
                      const std::vector<std::pair<std::string, std::string>>& fakes)
{
    for (const auto& [original, fake] : fakes)
        for (size_t at = text.find(original); at != std::string::npos;
             at = text.find(original, at + fake.size()))
            text.replace(at, original.size(), fake);
    return text;
}

class CaptureRoundTrip : public test::TempDirTest {
protected:
    CaptureRoundTrip() : TempDirTest("capture", test::TempOn::Memory) {}

    // Captures `src` (nicd having run on it) into `cap`, replays it, and compares.
    void expectSameReplay(const fs::path& src, const fs::path& cap, const test::OnceRun& said,
                          const std::vector<std::string>& capture_args = {})
    {
        std::string out;
        ASSERT_EQ(test::captureNode(src, cap, out, capture_args), 0) << out;
        // A scrubbed capture names the switches by their fakes, in its twin and in what nicd
        // said and says of it.
        const auto fakes = switchFakes(src, cap);
        auto said_file = test::readFile(cap / "run/nicd-sim/capture/said/nicd.prom");
        EXPECT_EQ(said_file, withFakes(said.textfile, fakes))
            << "the capture takes what nicd said along";
        replay_ = test::once(cap);
        ASSERT_EQ(replay_.rc, said.rc) << replay_.output;
        auto want = test::textfileSeries(said_file);
        auto got = test::textfileSeries(replay_.textfile);
        EXPECT_GT(want.size(), 100U);
        EXPECT_TRUE(want == got) << "textfile series that differ:\n" << test::seriesDiff(want, got);
        EXPECT_EQ(test::onceVerdicts(replay_.output, cap),
                  withFakes(test::onceVerdicts(said.output, src), fakes));
    }

    void replayEveryThirdFault(size_t third);

    test::OnceRun replay_;
};

} // namespace

// Every fault nicd-sim can inject (a third of them per test: each fault makes a node, runs nicd
// twice and captures, ~1 s each, several under ASan).
void CaptureRoundTrip::replayEveryThirdFault(size_t third)
{
    auto faults = injectableFaults();
    ASSERT_GT(faults.size(), 30U);
    for (size_t i = third; i < faults.size(); i += 3) {
        const auto& fault = faults[i];
        SCOPED_TRACE("fault " + fault);
        auto plan = planFor(fault);
        ASSERT_TRUE(plan) << "no plan for the fault " << fault
                          << ": add how to inject it to plans() in this test";
        const auto src = dir_ / fault / "src";
        const auto cap = dir_ / fault / "cap";
        // Two channels a netdev: the per-channel statistics round-trip in their real format; the
        // real volume (64 a netdev) is the mixed node's, below, and would make ~80 nodes here.
        sim::CreateOptions options{.channels = 2, .vendors = plan->vendors};
        if (!plan->profile.empty())
            sim::applyProfile(options, plan->profile);
        options.infiniband = plan->infiniband;
        sim::create(src, options);
        sim::createNeighborTwin(src); // as nicd-sim create does
        test::writeNodeConfig(src);
        std::string out;
        for (const auto& b : plan->before)
            ASSERT_EQ(test::sim(injection(src, b, plan->dev), out), 0) << out;
        auto inject = injection(src, fault, plan->dev);
        inject.insert(inject.end(), plan->args.begin(), plan->args.end());
        ASSERT_EQ(test::sim(inject, out), 0) << out;
        sim::tick(src, 5); // counters move (at the injected rates too)
        auto said = test::once(src);
        expectSameReplay(src, cap, said);
        if (!plan->shows.empty()) {
            EXPECT_NE(replay_.textfile.find(plan->shows), std::string::npos)
                << "the replay does not show the fault: no " << plan->shows;
        }
        fs::remove_all(dir_ / fault);
    }
}

TEST_F(CaptureRoundTrip, EveryInjectableFaultReplaysWithTheSameSeriesAndVerdicts1)
{
    replayEveryThirdFault(0);
}

TEST_F(CaptureRoundTrip, EveryInjectableFaultReplaysWithTheSameSeriesAndVerdicts2)
{
    replayEveryThirdFault(1);
}

TEST_F(CaptureRoundTrip, EveryInjectableFaultReplaysWithTheSameSeriesAndVerdicts3)
{
    replayEveryThirdFault(2);
}

TEST_F(CaptureRoundTrip, KernelLinesReplayAsTheSameKernelConditions)
{
    const auto src = dir_ / "src";
    sim::create(src, {});
    test::writeNodeConfig(src);
    const std::string boot = "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d"; // nicd-sim's default boot ID
    std::vector<test::JournalEntry> entries;
    uint64_t t = 1700000000000000;
    for (const char* m :
         {"mlx5_core 0000:1a:00.0: poll_health:694:(pid 0): Fatal error 1 detected",
          "mlx5_core 0000:3b:00.0 ens2f0np0: TX timeout detected",
          "pcieport 0000:4b:01.0: AER: Uncorrected (Non-Fatal) error received: 0000:4c:00.0",
          "NETDEV WATCHDOG: ens4f0np0 (mlx5_core): transmit queue 3 timed out 5376 ms",
          "e1000e 0000:00:1f.6 eno1: NIC Link is Up 1000 Mbps Full Duplex",
          "usb 1-1: new high-speed USB device number 2 using xhci_hcd"})
        entries.push_back(test::kernelEntry(m, t += 1000000, boot));
    entries.push_back(
        test::kernelEntry("mlx5_core 0000:5d:00.0: an older boot's line: Fatal error 2 detected",
                          t += 1000000, "99999999999999999999999999999999"));
    if (!test::journalRemoteInstalled())
        GTEST_SKIP() << "systemd-journal-remote is not installed, so no journal to capture "
                        "kernel lines from can be written (apt-get install systemd-journal-remote)";
    std::string error;
    ASSERT_TRUE(test::writeJournal(src, "node", entries, error)) << error;
    auto said = test::once(src);
    ASSERT_NE(said.textfile.find("kernel.mlx5.fatal_error"), std::string::npos) << said.output;

    const auto cap = dir_ / "cap";
    expectSameReplay(src, cap, said);
    auto exported = test::readFile(cap / "run/nicd-sim/capture/kernel.export");
    EXPECT_NE(exported.find("TX timeout detected"), std::string::npos);
    EXPECT_NE(exported.find("_KERNEL_DEVICE=+pci:0000:3b:00.0\n_KERNEL_SUBSYSTEM=pci\nMESSAGE="
                            "mlx5_core 0000:3b:00.0 ens2f0np0: TX timeout detected"),
              std::string::npos)
        << "a line keeps the device the kernel printed it about";
    EXPECT_NE(exported.find("AER: Uncorrected (Non-Fatal)"), std::string::npos);
    EXPECT_EQ(exported.find("e1000e"), std::string::npos) << "not a NIC nicd watches";
    EXPECT_EQ(exported.find("USB"), std::string::npos);
    EXPECT_EQ(exported.find("older boot"), std::string::npos) << "the current boot only";
    std::regex kernel_condition(R"(nicd_condition_active\{[^}]*code="kernel\.[^}]*\} 1)");
    EXPECT_EQ(std::distance(std::sregex_iterator(replay_.textfile.begin(), replay_.textfile.end(),
                                                 kernel_condition),
                            std::sregex_iterator()),
              4)
        << replay_.textfile;
}

TEST_F(CaptureRoundTrip, ARealSysfsTreeCapturesAsWell)
{
    // prometheus/procfs's fixture: real kernel files (class entries are directories there).
    const fs::path fixture = fs::path(NICD_SHARED_DIR) / "fixtures/procfs/fixtures";
    const auto src = dir_ / "src";
    fs::copy(fixture, src, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    // Every counter in the textfile, so that the comparison covers each counter file read (a
    // handful of devices: the file stays far below what a capture takes along).
    test::writeNodeConfig(src, "[textfile]\nCounters=all\n");
    auto said = test::once(src);
    ASSERT_EQ(said.rc, 0) << said.output;
    expectSameReplay(src, dir_ / "cap", said);
    auto guid = test::readFile(dir_ / "cap/sys/class/infiniband/mlx5_0/node_guid");
    EXPECT_TRUE(guid.starts_with("0200:0000:")) << "scrubbed: " << guid;
    // No run/nicd-sim/state.json: a real node's files (the host's / in a pod), whose tool
    // outputs only that node's kernel has; the manifest says so.
    const auto manifest = test::readFile(dir_ / "cap/run/nicd-sim/capture/manifest.json");
    EXPECT_NE(manifest.find(R"("source": "real node's tree")"), std::string::npos) << manifest;
    EXPECT_NE(manifest.find("nsenter -t 1 -a nicd-sim capture"), std::string::npos) << manifest;
}

// What lldpd hears round-trips: with --keep-identifiers the capture's twin is the node's; scrubbed,
// each switch's chassis ID, name and management address are fakes (the same fake for the same
// switch) while ports and TLVs stay; with lldpd stopped there is no twin and the manifest says why.
TEST_F(CaptureRoundTrip, TheNeighboursTwinCapturesAsItWasWithTheSwitchesAddressesScrubbed)
{
    const auto src = dir_ / "src";
    sim::create(src, {.channels = 2});
    sim::createNeighborTwin(src);
    test::writeNodeConfig(src);
    sim::cableSwap(src, "mlx5_1", "mlx5_2");
    sim::switchPfcSet(src, "mlx5_0", 0x18);
    sim::neighborAdd(src, "mlx5_3", "hub-7.example.net", "1");
    const auto want = sim::readNeighborTwin(src);
    sim::tick(src, 5);
    auto said = test::once(src);

    expectSameReplay(src, dir_ / "kept", said, {"--keep-identifiers"});
    EXPECT_EQ(sim::readNeighborTwin(dir_ / "kept"), want);

    expectSameReplay(src, dir_ / "cap", said);
    const auto got = sim::readNeighborTwin(dir_ / "cap");
    ASSERT_EQ(got.size(), want.size());
    std::map<std::string, std::string> fake_of; // original chassis ID -> its fake
    for (const auto& [nd, list] : want) {
        ASSERT_TRUE(got.contains(nd)) << nd;
        ASSERT_EQ(got.at(nd).size(), list.size()) << nd;
        for (size_t i = 0; i < list.size(); ++i) {
            const auto& w = list[i];
            const auto& g = got.at(nd)[i];
            EXPECT_NE(g.chassis_id, w.chassis_id);
            EXPECT_EQ(g.system_name, w.system_name) << "a switch's name is kept";
            EXPECT_NE(g.mgmt_address, w.mgmt_address);
            EXPECT_EQ(g.port_id, w.port_id);
            EXPECT_EQ(g.org_tlvs, w.org_tlvs);
            EXPECT_EQ(g.ttl_seconds, w.ttl_seconds);
            auto [it, fresh] = fake_of.emplace(w.chassis_id, g.chassis_id);
            EXPECT_EQ(it->second, g.chassis_id) << "one switch, one fake";
        }
    }
    const auto text = test::readFile(sim::neighborTwinFile(dir_ / "cap"));
    EXPECT_EQ(text.find("10.0.1.1"), std::string::npos) << "a switch's address is faked";

    const auto stopped_src = dir_ / "stopped-src"; // a node nicd has not run on yet
    sim::create(stopped_src, {.channels = 2});
    sim::createNeighborTwin(stopped_src);
    test::writeNodeConfig(stopped_src);
    sim::lldpdStop(stopped_src, true);
    sim::tick(stopped_src, 5);
    expectSameReplay(stopped_src, dir_ / "stopped", test::once(stopped_src));
    EXPECT_FALSE(fs::exists(sim::neighborTwinFile(dir_ / "stopped")));
    EXPECT_FALSE(fs::exists(sim::stoppedTwinFile(dir_ / "stopped")));
    const auto manifest = test::readFile(dir_ / "stopped/run/nicd-sim/capture/manifest.json");
    EXPECT_NE(manifest.find(R"("source": "lldp neighbours")"), std::string::npos) << manifest;
}

// A mixed mlx5 + bnxt node captures and replays as one: the bnxt PFs carry through with their
// names, driver, counters and ethtool statistics (bnxt_en's "[ring]: name" lines), nicd says the
// same of them on both, and the capture's state knows them as bnxt (so faults on the capture
// move bnxt's statistics).
TEST_F(CaptureRoundTrip, AMixedMlx5AndBnxtNodeReplaysWithItsBnxtDevices)
{
    const auto src = dir_ / "src";
    sim::create(src, {.vendors = "mlx5,bnxt"});
    test::writeNodeConfig(src);
    sim::congestEcn(src, "bnxt_re0", true);
    sim::tick(src, 5);
    const bool journal = test::journalRemoteInstalled();
    std::string out;
    if (journal) {
        ASSERT_EQ(test::sim({"inject", src.string(), "kernel-line", "bnxt_re0", "fw-stall"}, out),
                  0)
            << out;
    }
    auto said = test::once(src);
    ASSERT_LE(said.rc, 2) /* it judged: the exit status is the verdict */ << said.output;
    for (const char* dev : {"bnxt_re0", "bnxt_re1"})
        ASSERT_NE(said.textfile.find(fmt::format(R"(nicd_device_info{{device="{}")", dev)),
                  std::string::npos)
            << said.textfile;

    const auto cap = dir_ / "cap";
    expectSameReplay(src, cap, said);
    EXPECT_NE(replay_.textfile.find(R"(driver="bnxt_en")"), std::string::npos);
    for (const char* f :
         {"sys/class/infiniband/bnxt_re0/hca_type", "sys/class/infiniband/bnxt_re0/fw_ver",
          "sys/class/infiniband/bnxt_re0/ports/1/hw_counters/np_cnp_pkts",
          "sys/class/infiniband/bnxt_re0/ports/1/hw_counters/rx_roce_good_bytes",
          "sys/bus/pci/devices/0000:5d:00.0/vendor", "run/nicd-sim/ethtool/ens4f0np0"}) {
        auto want = test::readFile(src / f);
        EXPECT_FALSE(want.empty()) << f;
        EXPECT_EQ(test::readFile(cap / f), want) << f;
    }
    EXPECT_EQ(fs::read_symlink(cap / "sys/bus/pci/devices/0000:5d:00.0/driver").filename(),
              "bnxt_en");
    auto state = nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/state.json"));
    EXPECT_EQ(state["devices"]["bnxt_re0"].value("vendor", ""), "bnxt") << state.dump();
    EXPECT_FALSE(state["devices"]["mlx5_0"].contains("vendor")) << "mlx5, as before vendors";
    if (journal) { // bnxt's kernel lines too, about the device the kernel printed them about
        EXPECT_NE(test::readFile(cap / "run/nicd-sim/capture/kernel.export")
                      .find("_KERNEL_DEVICE=+pci:0000:5d:00.0\n_KERNEL_SUBSYSTEM=pci\nMESSAGE="
                            "bnxt_en 0000:5d:00.0: QPLIB: bnxt_re_is_fw_stalled: FW STALL"),
                  std::string::npos);
    }
    sim::congestPfcOnly(cap, "bnxt_re0", true); // bnxt's names exist in the capture
    sim::tick(cap, 1);
    EXPECT_GE(sim::counterValue(cap, "bnxt_re0", "rx_pfc_ena_frames_pri3"), 600U);
}
