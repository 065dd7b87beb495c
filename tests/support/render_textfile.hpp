// The whole textfile of a snapshot as one string, for tests that compare or search it: the text
// nicd streams to its file (renderTextfileTo), gathered.
#pragma once

#include "textfile/render.hpp"

#include <string>
#include <string_view>

namespace nicd::test {

inline std::string renderTextfile(const Snapshot& snap,
                                  const textfile::CounterBudget& budget = textfile::CounterBudget())
{
    std::string text;
    textfile::renderTextfileTo(
        snap, [&text](std::string_view chunk) { text.append(chunk); }, budget);
    return text;
}

} // namespace nicd::test
