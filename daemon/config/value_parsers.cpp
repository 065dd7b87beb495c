#include "config/value_parsers.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace nicd::config {

std::string_view trim(std::string_view v)
{
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front())))
        v.remove_prefix(1);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back())))
        v.remove_suffix(1);
    return v;
}

std::optional<bool> parseBool(std::string_view v, std::string& why)
{
    std::string s(trim(v));
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s == "yes" || s == "true" || s == "1" || s == "on")
        return true;
    if (s == "no" || s == "false" || s == "0" || s == "off")
        return false;
    why = "expected a boolean (yes/no, true/false, on/off, 1/0)";
    return std::nullopt;
}

std::optional<uint64_t> parseUint(std::string_view v, uint64_t min, uint64_t max, std::string& why)
{
    v = trim(v);
    uint64_t out = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || out < min || out > max) {
        why = "expected an integer from " + std::to_string(min) + " to " + std::to_string(max);
        return std::nullopt;
    }
    return out;
}

std::optional<std::string> parseAbsolutePath(std::string_view v, std::string& why)
{
    v = trim(v);
    if (v.empty() || v.front() != '/') {
        why = "expected an absolute path";
        return std::nullopt;
    }
    return std::string(v);
}

std::vector<std::string> splitWords(std::string_view v)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < v.size()) {
        while (i < v.size() && (std::isspace(static_cast<unsigned char>(v[i])) || v[i] == ','))
            ++i;
        size_t start = i;
        while (i < v.size() && !std::isspace(static_cast<unsigned char>(v[i])) && v[i] != ',')
            ++i;
        if (i > start)
            out.emplace_back(v.substr(start, i - start));
    }
    return out;
}

std::optional<std::vector<uint8_t>> parsePriorities(std::string_view v, std::string& why)
{
    std::vector<uint8_t> out;
    auto t = trim(v);
    if (t.empty() || t == "none")
        return out;
    for (const auto& w : splitWords(t)) {
        std::string sub;
        auto p = parseUint(w, 0, 7, sub);
        if (!p) {
            why = "expected priorities 0 to 7 separated by spaces or commas, or 'none' ('" + w +
                  "' is not one)";
            return std::nullopt;
        }
        auto prio = static_cast<uint8_t>(*p);
        if (std::find(out.begin(), out.end(), prio) != out.end()) {
            why = "priority " + w + " is listed twice";
            return std::nullopt;
        }
        out.push_back(prio);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<double> parseRate(std::string_view v, std::string& why)
{
    why = "expected a rate such as 10/s, 5/min or 120/h";
    v = trim(v);
    auto slash = v.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    auto num = trim(v.substr(0, slash));
    auto unit = std::string(trim(v.substr(slash + 1)));
    double n = 0;
    auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), n);
    if (num.empty() || ec != std::errc() || ptr != num.data() + num.size() || n < 0)
        return std::nullopt;
    double seconds = 0;
    if (unit == "s" || unit == "sec" || unit == "second")
        seconds = 1;
    else if (unit == "min" || unit == "minute")
        seconds = 60;
    else if (unit == "h" || unit == "hour")
        seconds = 3600;
    else
        return std::nullopt;
    return n / seconds;
}

} // namespace nicd::config
