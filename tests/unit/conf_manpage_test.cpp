// nicd.conf(5) is generated from the parser's key table and the shipped nicd.conf: every key the
// parser takes is on the page with what the parser accepts, and a key the file does not explain
// stops the build instead of leaving the page behind.
#include "conf_manpage.hpp"
#include "config/config.hpp"

#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

using nicd::manpage::renderConfManpage;

namespace {

std::string shippedConf()
{
    std::ifstream in(std::string(NICD_BUILD_DIR) + "/etc/nicd.conf");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(ConfManpage, EveryKeyOfTheParserIsOnThePage)
{
    auto text = shippedConf();
    ASSERT_FALSE(text.empty());
    auto page = renderConfManpage(text, "2026-11-25", "0.1.0");
    ASSERT_TRUE(page.errors.empty()) << page.errors.front();
    for (const auto& [section, keys] : nicd::configKeys())
        for (const auto& key : keys) {
            bool entry = page.roff.find(".B \"" + key + "=\"") != std::string::npos;
            bool listed = std::regex_search(page.roff, std::regex("Keys: .*\\b" + key + "\\b"));
            EXPECT_TRUE(entry || listed) << "[" << section << "] " << key << "= is not on the page";
        }
}

TEST(ConfManpage, SaysDefaultsAndWhatTheParserAccepts)
{
    auto page = renderConfManpage(shippedConf(), "2026-11-25", "0.1.0");
    auto poll = page.roff.find(".B \"PollIntervalMs=\"");
    ASSERT_NE(poll, std::string::npos);
    auto entry = page.roff.substr(poll, page.roff.find(".TP", poll) - poll);
    EXPECT_NE(entry.find("Default: \\fB5000\\fR."), std::string::npos) << entry;
    EXPECT_NE(entry.find("Accepts: an integer from 100 to 3600000."), std::string::npos) << entry;
    EXPECT_NE(page.roff.find(".TH NICD.CONF 5 \"2026-11-25\" \"nicd 0.1.0\""), std::string::npos);
    // No line may start with a roff control character that is not a macro of the page.
    std::istringstream lines(page.roff);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("'") ||
            (line.starts_with(".") &&
             !std::regex_match(line, std::regex(R"(\.(TH|SH|TP|IP|PP|B|BI|BR|br)( .*)?)"))))
            ADD_FAILURE() << "stray control line: " << line;
}

TEST(ConfManpage, AKeyTheFileDoesNotExplainIsAnError)
{
    auto text = shippedConf();
    // Drop PollIntervalMs' explanation and its default: the page must not be made without it.
    text = std::regex_replace(
        text, std::regex("# How often link state[^\n]*\n#PollIntervalMs=[^\n]*\n"), "");
    auto page = renderConfManpage(text, "2026-11-25", "0.1.0");
    ASSERT_EQ(page.errors.size(), 1U);
    EXPECT_NE(page.errors[0].find("[daemon] PollIntervalMs="), std::string::npos) << page.errors[0];
}
