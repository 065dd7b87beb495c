// JSON text the way the state file is written: compact, and a string that is not UTF-8 (a hostile
// fw_ver, a counter file's name) saved with U+FFFD in place of its bad bytes rather than failing
// the save (dump() throws by default).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace nicd::health {

inline void appendJsonText(std::string& out, const nlohmann::json& j)
{
    out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// `"key":`, the key escaped as dump() escapes it.
inline void appendJsonKey(std::string& out, std::string_view key)
{
    appendJsonText(out, nlohmann::json(key));
    out += ':';
}

// The ',' before each element of an array or object written piece by piece but the first.
inline void appendJsonComma(std::string& out, bool& first)
{
    if (!first)
        out += ',';
    first = false;
}

} // namespace nicd::health
