// The fixture of the docs/conditions.md tests: the doc's condition table as rows, and a check that
// a code is documented with the severity and action the code gives it.
#pragma once

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

struct Row {
    std::regex code;
    std::string code_text;
    std::string severity;
    std::string action;
};

inline std::string readDoc()
{
    std::ifstream in(std::string(NICD_SOURCE_DIR) + "/docs/conditions.md");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// `counter.rx_prio*_pause.<netdev>` -> ^counter\.rx_prio[a-z0-9_]*_pause\.[^.]+$
inline std::regex patternOf(const std::string& code)
{
    std::string re = "^";
    for (size_t i = 0; i < code.size(); ++i) {
        char c = code[i];
        if (c == '<') {
            i = code.find('>', i);
            re += "[^.]+";
        } else if (c == '*') {
            re += "[a-z0-9_]*";
        } else if (c == '.') {
            re += "\\.";
        } else {
            re += c;
        }
    }
    return std::regex(re + "$");
}

inline std::vector<Row> conditionRows(const std::string& doc)
{
    std::vector<Row> rows;
    static const std::regex row(
        R"(\| `([^`]+)`(?: \([^)]*\))? \| (fatal|degraded|info) \| `([a-z_]+)` \|)");
    for (std::sregex_iterator it(doc.begin(), doc.end(), row), end; it != end; ++it)
        rows.push_back({patternOf((*it)[1]), (*it)[1], (*it)[2], (*it)[3]});
    return rows;
}

class ConditionsDoc : public ::testing::Test {
protected:
    // True when a row of the table documents `code` with this severity and action.
    ::testing::AssertionResult documented(const std::string& code, const std::string& severity,
                                          const std::string& action)
    {
        std::string seen;
        for (const auto& r : rows_)
            if (std::regex_match(code, r.code)) {
                if (r.severity == severity && r.action == action)
                    return ::testing::AssertionSuccess();
                seen += " [" + r.code_text + ": " + r.severity + ", " + r.action + "]";
            }
        return ::testing::AssertionFailure()
               << code << " (" << severity << ", " << action << ") is not in docs/conditions.md"
               << (seen.empty() ? "" : "; rows for it say" + seen);
    }

    std::string doc_ = readDoc();
    std::vector<Row> rows_ = conditionRows(doc_);
};

} // namespace nicd::test
