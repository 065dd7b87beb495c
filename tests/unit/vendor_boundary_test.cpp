// The vendor boundary (issue 31): everything a NIC vendor decides lives in its plugin, so daemon/
// names no NIC vendor outside comments. This reads every source under daemon/, blanks its
// comments, and fails on a vendor name left in code or text, except the few listed below with the
// reason each stays. NVIDIA is a GPU vendor to the daemon (the GPU inventory and GPUDirect
// readiness read NVIDIA's PCI IDs and driver files): allowed there, and only there. Nor does
// daemon/ name a vendor's counters in its strings: the rules read what a plugin says its counters
// mean (plugin.h Meaning); only the IB PMA counters (IBTA's names, every vendor's) go by name.
#include "support/sim_tree.hpp"
#include "support/source_text.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

using nicd::test::withoutComments;

const std::regex kVendor("mlx5|mellanox|connectx|nvidia|mlnx|bnxt|broadcom|bcm57|thor2",
                         std::regex::icase);

struct Found {
    std::string file; // below daemon/
    std::string word; // lower case
    std::string line;
};

std::vector<Found> vendorNames(const std::string& file, const std::string& text)
{
    std::vector<Found> found;
    std::istringstream lines(withoutComments(text));
    std::string line;
    while (std::getline(lines, line))
        for (std::sregex_iterator it(line.begin(), line.end(), kVendor), end; it != end; ++it) {
            std::string word = it->str();
            std::transform(word.begin(), word.end(), word.begin(),
                           [](unsigned char ch) { return std::tolower(ch); });
            found.push_back({file, word, line});
        }
    return found;
}

// What stays, and why. A new entry needs a reason a reviewer accepts: a vendor decision goes
// behind the plugin ABI instead (plugins/sdk/include/nicd/plugin/plugin.h).
const std::set<std::pair<std::string, std::string>> kAllowed{
    // NVIDIA GPUs: the GPU inventory (PCI IDs, product names) and GPUDirect readiness
    // (/proc/driver/nvidia/version, nvidia_peermem) are GPU facts, not a NIC vendor's.
    {"inventory/gpu_profiles.cpp", "nvidia"},       {"inventory/gpu_scan.cpp", "nvidia"},
    {"inventory/gpu_scan.hpp", "nvidia"},           {"readiness/gpudirect_evidence.cpp", "nvidia"},
    {"readiness/gpudirect_evidence.hpp", "nvidia"}, {"health/readiness_gpu_checks.cpp", "nvidia"},
    {"health/readiness_rules.cpp", "nvidia"},
};

// The vendors' hw_counters and ethtool statistics that a rule would read (plugins/mlx5's and
// plugins/bnxt's counter_meanings.cpp name them), as they would appear in a string literal: the
// mlx5 names the daemon's rules used to name, and bnxt's.
const std::regex kVendorCounter(
    "roce_slow_restart|local_ack_timeout_err|out_of_buffer|rnr_nak_retry_err|out_of_sequence|"
    "packet_seq_err|roce_adp_retrans|np_ecn_marked_roce_packets|np_cnp_sent|rp_cnp_handled|"
    "rp_cnp_ignored|rx_icrc_encapsulated|[rt]x_prio|pause_duration|pause_transition|"
    "tx_pause_storm|rx_corrected_bits_phy|rx_crc_errors_phy|[rt]x_discards_phy|"
    "to_retransmits|max_retry_exceeded|rx_pfc_ena_frames_pri|tx_pfc_ena_frames_pri|pfc_pri[0-7]_|"
    "continuous_roce_pause_events|np_cnp_pkts|rx_cnp_pkts|tx_cnp_pkts|oos_drop_count|"
    "seq_err_naks_rcvd|rx_fcs_err_frames|rx_stat_discard");

// The vendor counter names in the string literals of `text` (outside comments).
std::vector<Found> counterNames(const std::string& file, const std::string& text)
{
    static const std::regex literal(R"re("((?:[^"\\]|\\.)*)")re");
    std::vector<Found> found;
    std::istringstream lines(withoutComments(text));
    std::string line;
    while (std::getline(lines, line))
        for (std::sregex_iterator it(line.begin(), line.end(), literal), end; it != end; ++it) {
            const std::string body = (*it)[1];
            for (std::sregex_iterator n(body.begin(), body.end(), kVendorCounter), e; n != e; ++n)
                found.push_back({file, n->str(), line});
        }
    return found;
}

// What stays, and why: keep it short.
const std::set<std::pair<std::string, std::string>> kAllowedCounters{
    // The example of a user's statistic globs in the error message of [textfile] Counters=: the
    // user's own words for series to add by name, as nicd.conf(5) documents them.
    {"config/value_parsers.cpp", "rx_prio"},
    {"config/value_parsers.cpp", "np_cnp_sent"},
};

} // namespace

TEST(VendorBoundary, CommentsAreBlankedAndCodeIsNot)
{
    auto found = vendorNames("x.cpp", "// mlx5 here\n"
                                      "int a; /* Mellanox\n ConnectX */ int b;\n"
                                      "auto s = \"// not a comment: mlx5_core\";\n"
                                      "auto r = R\"(/* \"mlnx\" */)\"; char c = '/'; // nvidia\n"
                                      "if (d.driver != \"mlx5_core\") return;\n");
    std::vector<std::string> words;
    for (const auto& f : found)
        words.push_back(f.word);
    EXPECT_EQ(words, (std::vector<std::string>{"mlx5", "mlnx", "mlx5"}));
}

TEST(VendorBoundary, TheDaemonNamesNoNicVendorOutsideComments)
{
    const fs::path daemon = fs::path(NICD_SOURCE_DIR) / "daemon";
    ASSERT_TRUE(fs::is_directory(daemon));
    std::set<std::pair<std::string, std::string>> used;
    size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(daemon)) {
        auto ext = e.path().extension();
        if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h"))
            continue;
        ++files;
        const std::string rel = fs::relative(e.path(), daemon).string();
        for (const auto& f : vendorNames(rel, nicd::test::readFile(e.path()))) {
            if (kAllowed.contains({f.file, f.word}))
                used.insert({f.file, f.word});
            else
                ADD_FAILURE() << "daemon/" << f.file << " names the vendor \"" << f.word
                              << "\" in code: " << f.line
                              << "\n  move the decision behind the plugin ABI";
        }
    }
    EXPECT_GT(files, 100U);
    for (const auto& a : kAllowed)
        EXPECT_TRUE(used.contains(a)) << "daemon/" << a.first << " no longer names " << a.second
                                      << ": drop it from the allowed list";
}

TEST(VendorBoundary, VendorCounterNamesAreFoundInStringsOnly)
{
    auto found = counterNames("x.cpp", "double out_of_sequence = 0; // local_ack_timeout_err\n"
                                       "if (s.name == \"rp_cnp_handled\") return \"pause_storm\";\n"
                                       "auto g = \"a \\\"rx_prio3_pause\\\" b\";\n");
    std::vector<std::string> words;
    for (const auto& f : found)
        words.push_back(f.word);
    EXPECT_EQ(words, (std::vector<std::string>{"rp_cnp_handled", "rx_prio"}));
}

// The rules read counter meanings (issue 31 item 1): no mlx5 counter name in daemon/'s strings.
TEST(VendorBoundary, TheDaemonNamesNoVendorCounter)
{
    const fs::path daemon = fs::path(NICD_SOURCE_DIR) / "daemon";
    std::set<std::pair<std::string, std::string>> used;
    for (const auto& e : fs::recursive_directory_iterator(daemon)) {
        auto ext = e.path().extension();
        if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h"))
            continue;
        const std::string rel = fs::relative(e.path(), daemon).string();
        for (const auto& f : counterNames(rel, nicd::test::readFile(e.path()))) {
            if (kAllowedCounters.contains({f.file, f.word}))
                used.insert({f.file, f.word});
            else
                ADD_FAILURE()
                    << "daemon/" << f.file << " names the vendor counter \"" << f.word
                    << "\": " << f.line
                    << "\n  rules read its meaning (plugin.h Meaning), which its plugin says";
        }
    }
    for (const auto& a : kAllowedCounters)
        EXPECT_TRUE(used.contains(a)) << "daemon/" << a.first << " no longer names " << a.second
                                      << ": drop it from the allowed list";
}
