// The fixture of the docs/conditions.md tests: the doc's condition table as rows, and a check that
// a code is documented with the severity and action the code gives it.
#pragma once

#include "support/mlx5_samples.hpp"

#include <nicd/plugin/plugin.h>

#include <fstream>
#include <map>
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
    std::string meaning; // "(meaning LocalAckTimeout)": the rule for the counters of that meaning
};

// The names docs/conditions.md gives plugin::v1::Meaning's values (its enumerators').
inline const std::map<plugin::v1::Meaning, std::string>& meaningNames()
{
    using M = plugin::v1::Meaning;
    static const std::map<M, std::string> names{
        {M::LocalAckTimeout, "LocalAckTimeout"},
        {M::OutOfBuffer, "OutOfBuffer"},
        {M::OutOfSequence, "OutOfSequence"},
        {M::SequenceErrorNak, "SequenceErrorNak"},
        {M::AdaptiveRetransmit, "AdaptiveRetransmit"},
        {M::SlowRestart, "SlowRestart"},
        {M::RnrRetryExceeded, "RnrRetryExceeded"},
        {M::EcnMarked, "EcnMarked"},
        {M::CnpSent, "CnpSent"},
        {M::CnpHandled, "CnpHandled"},
        {M::CnpIgnored, "CnpIgnored"},
        {M::RxPauseFrames, "RxPauseFrames"},
        {M::TxPauseFrames, "TxPauseFrames"},
        {M::RxPauseDuration, "RxPauseDuration"},
        {M::TxPauseDuration, "TxPauseDuration"},
        {M::RxPauseTransitions, "RxPauseTransitions"},
        {M::RxPriorityDrops, "RxPriorityDrops"},
        {M::PauseStormWarning, "PauseStormWarning"},
        {M::PauseStormError, "PauseStormError"},
        {M::FecCorrectedBits, "FecCorrectedBits"},
        {M::RxCrcErrors, "RxCrcErrors"},
        {M::RxDiscards, "RxDiscards"},
        {M::TxDiscards, "TxDiscards"},
        {M::RetryExceeded, "RetryExceeded"},
        {M::LinkDownEvents, "LinkDownEvents"},
    };
    return names;
}

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
        R"(\| `([^`]+)`(?: \((?:meaning ([A-Za-z]+)|[^)]*)\))? \| (fatal|degraded|info) \| `([a-z_]+)` \|)");
    for (std::sregex_iterator it(doc.begin(), doc.end(), row), end; it != end; ++it)
        rows.push_back({patternOf((*it)[1]), (*it)[1], (*it)[3], (*it)[4], (*it)[2]});
    return rows;
}

class ConditionsDoc : public ::testing::Test {
protected:
    // True when a row of the table documents `code` with this severity and action; with
    // `meaning`, the row of the rule for the counters of that meaning (rows with a meaning are
    // read only so: a counter's code is looked up by what its mlx5 counter means).
    ::testing::AssertionResult documented(const std::string& code, const std::string& severity,
                                          const std::string& action,
                                          const std::string& meaning = "")
    {
        // counter.<name>[.<netdev>] of a counter that means something to mlx5: its meaning's row.
        if (meaning.empty() && code.starts_with("counter.")) {
            const std::string name = code.substr(8, code.find('.', 8) - 8);
            if (auto m = mlx5Meaning(name).meaning; m != plugin::v1::Meaning::None)
                return documented(code, severity, action, meaningNames().at(m));
        }
        std::string seen;
        for (const auto& r : rows_)
            if (r.meaning == meaning && std::regex_match(code, r.code)) {
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
