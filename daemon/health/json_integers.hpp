// Integers read back from the health memory of the state file (HealthEngine::restore).
// nlohmann's get<T>() for an integer T casts a floating-point number to T: undefined behaviour
// when the number is out of T's range. The file comes from outside (corrupt, hand-edited, written
// by another build) and may hold 1e300 where nicd wrote a count (UBSan in fuzz-state_file reports
// it: tests/data/fuzz/state_file/regressions/). nicd writes its integers as JSON integers, so a
// float there is refused.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <vector>

namespace nicd::health {

// Throws std::runtime_error when `j`, or anything in it at any depth, is a floating-point number.
inline void requireNoFloats(const nlohmann::json& j)
{
    std::vector<const nlohmann::json*> pending{&j}; // no recursion: a document may nest deeply
    while (!pending.empty()) {
        const nlohmann::json* at = pending.back();
        pending.pop_back();
        if (at->is_number_float())
            throw std::runtime_error("a number with a fraction or exponent (" + at->dump() +
                                     ") where an integer was written");
        if (at->is_structured())
            for (const auto& child : *at)
                pending.push_back(&child);
    }
}

// j.get<T>() for T an integer type or a container of them, once requireNoFloats(j) holds.
template <class T> T getIntegers(const nlohmann::json& j)
{
    requireNoFloats(j);
    return j.get<T>();
}

} // namespace nicd::health
