// libFuzzer target for the configuration value parsers: the same bytes, as one value, go to every
// parser of config/value_parsers.hpp. None throws; each returns a value within what it documents,
// or nullopt with `why` saying what is allowed.
#include "config/value_parsers.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

namespace cfg = nicd::config;

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// A parser's answer: a value, or nullopt and the reason.
template <class T> bool answered(const std::optional<T>& value, const std::string& why)
{
    require(value.has_value() || !why.empty());
    return value.has_value();
}

void numbers(std::string_view v)
{
    std::string why;
    if (auto n = cfg::parseUint(v, 100, 3600000, why); answered(n, why))
        require(*n >= 100 && *n <= 3600000);
    why.clear();
    (void)answered(cfg::parseUint(v, 0, std::numeric_limits<uint64_t>::max(), why), why);
    why.clear();
    if (auto d = cfg::parseDecimal(v, -40.0, 10.0, why); answered(d, why))
        require(*d >= -40.0 && *d <= 10.0);
    why.clear();
    if (auto r = cfg::parseRate(v, why); answered(r, why)) {
        require(std::isfinite(r->count) && r->count >= 0);
        require(r->window_sec == 1 || r->window_sec == 60 || r->window_sec == 3600);
    }
    why.clear();
    if (auto p = cfg::parsePriorities(v, why); answered(p, why)) {
        require(std::is_sorted(p->begin(), p->end()));
        require(std::adjacent_find(p->begin(), p->end()) == p->end());
        require(p->empty() || p->back() <= 7);
    }
}

void words(std::string_view v)
{
    std::string why;
    (void)answered(cfg::parseBool(v, why), why);
    why.clear();
    if (auto path = cfg::parseAbsolutePath(v, why); answered(path, why))
        require(path->front() == '/' && !isSpace(path->back()));
    why.clear();
    (void)answered(cfg::parseProvisionMode(v, why), why);
    why.clear();
    (void)answered(cfg::parseTrustMode(v, why), why);
    why.clear();
    (void)answered(cfg::parseBondPolicy(v, why), why);
    why.clear();
    (void)answered(cfg::parseRuleSeverity(v, why), why);
    why.clear();
    (void)answered(cfg::parseActionValue(v, why), why);
    for (const auto& w : cfg::splitWords(v))
        require(!w.empty() && std::none_of(w.begin(), w.end(), isSpace));
    auto t = cfg::trim(v);
    require(t.empty() || (!isSpace(t.front()) && !isSpace(t.back())));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view v(reinterpret_cast<const char*>(data), size);
    numbers(v);
    words(v);
    return 0;
}
