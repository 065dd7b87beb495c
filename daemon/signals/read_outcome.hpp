// What one read of a pre-failure source gave: a value, a missing interface (info, once), or a
// failure (a logged error for that device and source) — signals/source_notes.hpp.
#pragma once

#include <string>

namespace nicd::signals {

enum class ReadStatus : uint8_t { Ok, Missing, Failed };

template <typename T> struct ReadOutcome {
    ReadStatus status = ReadStatus::Missing;
    T value{};
    std::string message; // why Missing or Failed, naming the file, netdev or command

    static ReadOutcome ok(T v) { return {ReadStatus::Ok, std::move(v), {}}; }
    static ReadOutcome missing(std::string why)
    {
        return {ReadStatus::Missing, {}, std::move(why)};
    }
    static ReadOutcome failed(std::string why) { return {ReadStatus::Failed, {}, std::move(why)}; }
};

} // namespace nicd::signals
