// The machinery of a configuration section's key table: each key's name and how it stores a
// parsed value into the section's struct. Shared by the files that define sections
// (config_keys.cpp, prefailure_keys.cpp).
#pragma once

#include "config/value_parsers.hpp"

#include <strings.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::config {

// One key of a section: its name and how it stores a value into the section's struct.
template <typename T> using Setter = std::function<Result<void>(T&, std::string_view)>;
template <typename T> using Keys = std::vector<std::pair<std::string, Setter<T>>>;

template <typename Field, typename Value> Result<void> assign(Field& field, Result<Value> parsed)
{
    if (!parsed)
        return parsed.error();
    field = std::move(*parsed);
    return {};
}

template <typename N> Result<N> parseNumber(std::string_view v, uint64_t min, uint64_t max)
{
    auto n = parseUint(v, min, max);
    if (!n)
        return n.error();
    return static_cast<N>(*n);
}

template <typename T> std::vector<std::string> namesOf(const Keys<T>& keys)
{
    std::vector<std::string> out;
    for (const auto& [name, set] : keys)
        out.push_back(name);
    return out;
}

// Levenshtein distance, for "did you mean": short names (keys, counter names) only.
inline size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min(
                {row[j] + 1, row[j - 1] + 1, diagonal + static_cast<size_t>(a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

inline std::string unknownKey(const std::vector<std::string>& names, const std::string& label,
                              const std::string& key)
{
    for (const auto& n : names)
        if (strcasecmp(n.c_str(), key.c_str()) == 0)
            return "unknown key; did you mean " + n + "? (keys are case-sensitive)";
    for (const auto& n : names)
        if (editDistance(n, key) <= 2 && key.size() > 3)
            return "unknown key; did you mean " + n + "?";
    std::string why = "unknown key; " + label + " takes ";
    for (size_t i = 0; i < names.size(); ++i)
        why += (i == 0 ? "" : ", ") + names[i];
    return why;
}

template <typename T>
Result<void> applyFrom(const Keys<T>& keys, T& target, const std::string& label,
                       const std::string& key, std::string_view value)
{
    for (const auto& [name, set] : keys)
        if (name == key) {
            T candidate = target; // a failed parse leaves the target as it was
            if (auto set_ok = set(candidate, value); !set_ok)
                return set_ok;
            target = std::move(candidate);
            return {};
        }
    return Error{unknownKey(namesOf(keys), label, key)};
}

} // namespace nicd::config
