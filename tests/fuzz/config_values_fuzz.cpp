// libFuzzer target for the configuration value parsers: the same bytes, as one value, go to every
// parser of config/value_parsers.hpp. None throws; each returns a value within what it documents,
// or an Error whose message says what is allowed.
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

// A parser's answer: a value, or an Error with the reason.
template <class T> bool answered(const nicd::Result<T>& value)
{
    require(value.has_value() || !value.error().message.empty());
    return value.has_value();
}

void numbers(std::string_view v)
{
    if (auto n = cfg::parseUint(v, 100, 3600000); answered(n))
        require(*n >= 100 && *n <= 3600000);
    (void)answered(cfg::parseUint(v, 0, std::numeric_limits<uint64_t>::max()));
    if (auto d = cfg::parseDecimal(v, -40.0, 10.0); answered(d))
        require(*d >= -40.0 && *d <= 10.0);
    if (auto r = cfg::parseRate(v); answered(r)) {
        require(std::isfinite(r->count) && r->count >= 0);
        require(r->window_sec == 1 || r->window_sec == 60 || r->window_sec == 3600);
    }
    if (auto p = cfg::parsePriorities(v); answered(p)) {
        require(std::is_sorted(p->begin(), p->end()));
        require(std::adjacent_find(p->begin(), p->end()) == p->end());
        require(p->empty() || p->back() <= 7);
    }
}

void words(std::string_view v)
{
    (void)answered(cfg::parseBool(v));
    if (auto path = cfg::parseAbsolutePath(v); answered(path))
        require(path->front() == '/' && !isSpace(path->back()));
    (void)answered(cfg::parseProvisionMode(v));
    (void)answered(cfg::parseTrustMode(v));
    (void)answered(cfg::parseBondPolicy(v));
    (void)answered(cfg::parseRuleSeverity(v));
    (void)answered(cfg::parseActionValue(v));
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
