// The INI layer under the configuration: every entry carries its line number, every malformed
// line is reported (not only the first), and nothing is misread (indented keys, keys under a
// broken header, lines too long for inih's buffer).
#include "ini/ini_lines.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd::ini;

namespace {

struct Seen {
    std::vector<std::string> events; // "12 section daemon", "13 entry daemon Key=Value", ...
};

Seen parse(const std::string& text)
{
    Seen seen;
    IniVisitor v;
    v.on_section = [&](int line, const std::string& s) {
        seen.events.push_back(std::to_string(line) + " section " + s);
    };
    v.on_entry = [&](int line, const std::string& s, const std::string& k, const std::string& val) {
        seen.events.push_back(std::to_string(line) + " entry [" + s + "] " + k + "=" + val);
    };
    v.on_syntax_error = [&](int line, const std::string& s, const std::string& why) {
        seen.events.push_back(std::to_string(line) + " error [" + s + "] " + why);
    };
    parseIni(text, v);
    return seen;
}

using Events = std::vector<std::string>;

} // namespace

TEST(ConfigIni, EntriesCarryTheirLineNumbers)
{
    auto seen = parse("# comment\n; other comment\n\n[daemon]\nA=1\n\n  B = two words  \n"
                      "[provision]\nC=\nD=x=y\n");
    EXPECT_EQ(seen.events, (Events{"4 section daemon", "5 entry [daemon] A=1",
                                   "7 entry [daemon] B=two words", "8 section provision",
                                   "9 entry [provision] C=", "10 entry [provision] D=x=y"}));
}

TEST(ConfigIni, EveryMalformedLineIsReported)
{
    auto seen = parse("[daemon]\nnot a key\nA=1\n[broken\nB=2\n[ok]\n=3\nKey:Colon=4\n"
                      "[x] trailing\nC=5\n[bad name]\nD=6\n[]\n");
    EXPECT_EQ(
        seen.events,
        (Events{"1 section daemon",
                "2 error [daemon] expected Key=Value, [section] or a # comment: 'not a key'",
                "3 entry [daemon] A=1", "4 error [] section header without closing ']': '[broken'",
                // B=2 belongs to the broken header: not reported again, not given to [daemon]
                "6 section ok", "7 error [ok] missing key name before '=': '=3'",
                "8 error [ok] key name 'Key:Colon' may contain only letters, digits and _ . -",
                "9 error [] unexpected text after ']' (comments go on their own line): "
                "'[x] trailing'",
                "11 error [] section name 'bad name' may contain only letters, digits "
                "and _ : / . -",
                "13 error [] section name '' may contain only letters, digits and _ : / "
                ". -"}));
}

TEST(ConfigIni, IndentedLinesAreKeysNotContinuations)
{
    // inih alone would append an indented line to the previous value.
    auto seen = parse("[daemon]\nA=1\n    B=2\n\tC=3\n");
    EXPECT_EQ(seen.events, (Events{"1 section daemon", "2 entry [daemon] A=1",
                                   "3 entry [daemon] B=2", "4 entry [daemon] C=3"}));
}

TEST(ConfigIni, CrlfBomAndMissingFinalNewline)
{
    auto seen = parse("\xEF\xBB\xBF[daemon]\r\nA=1\r\nB=2");
    EXPECT_EQ(seen.events,
              (Events{"1 section daemon", "2 entry [daemon] A=1", "3 entry [daemon] B=2"}));
}

TEST(ConfigIni, InlineSemicolonCommentEndsAValue)
{
    auto seen = parse("[daemon]\nA=106 ; the default\nB=a;b\n");
    EXPECT_EQ(seen.events,
              (Events{"1 section daemon", "2 entry [daemon] A=106", "3 entry [daemon] B=a;b"}));
}

TEST(ConfigIni, LongLinesAreErrorsNotCut)
{
    std::string long_value(300, 'x');
    auto seen = parse("[provision]\nExcludeNetdevs=" + long_value + "\nA=1\n# " + long_value +
                      "\n[" + std::string(120, 'c') + "]\nB=2\n");
    ASSERT_EQ(seen.events.size(), 5U);
    EXPECT_EQ(seen.events[0], "1 section provision");
    EXPECT_EQ(seen.events[1].rfind("2 error [provision] line is longer than ", 0), 0U)
        << seen.events[1];
    EXPECT_EQ(seen.events[2], "3 entry [provision] A=1"); // a long comment is fine
    // section names longer than inih's 50-byte buffer are kept whole
    EXPECT_EQ(seen.events[3], "5 section " + std::string(120, 'c'));
    EXPECT_EQ(seen.events[4], "6 entry [" + std::string(120, 'c') + "] B=2");
}

TEST(ConfigIni, KeysBeforeAnySectionHaveAnEmptySection)
{
    auto seen = parse("A=1\n[daemon]\n");
    EXPECT_EQ(seen.events, (Events{"1 entry [] A=1", "2 section daemon"}));
}
