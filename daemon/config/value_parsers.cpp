#include "config/value_parsers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace nicd::config {

namespace {

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string lower(std::string_view v)
{
    std::string s(v);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// Words separated by any of the characters in `separators` or by whitespace.
std::vector<std::string> split(std::string_view v, std::string_view separators)
{
    std::vector<std::string> out;
    auto is_sep = [&](char c) {
        return isSpace(c) || separators.find(c) != std::string_view::npos;
    };
    size_t i = 0;
    while (i < v.size()) {
        while (i < v.size() && is_sep(v[i]))
            ++i;
        size_t start = i;
        while (i < v.size() && !is_sep(v[i]))
            ++i;
        if (i > start)
            out.emplace_back(v.substr(start, i - start));
    }
    return out;
}

// Case-insensitive lookup of `v` among `names`; `why` lists them.
template <typename E>
Result<E> parseName(std::string_view v, std::initializer_list<std::pair<const char*, E>> names)
{
    auto wanted = lower(trim(v));
    for (const auto& [name, value] : names)
        if (wanted == name)
            return value;
    std::string why = "expected one of";
    const char* sep = " ";
    for (const auto& [name, value] : names) {
        why += sep;
        why += name;
        sep = ", ";
    }
    return Error{why};
}

} // namespace

Result<bool> parseBool(std::string_view v)
{
    auto s = lower(trim(v));
    if (s == "yes" || s == "true" || s == "1" || s == "on")
        return true;
    if (s == "no" || s == "false" || s == "0" || s == "off")
        return false;
    return Error{"expected a boolean (yes/no, true/false, on/off, 1/0)"};
}

Result<uint64_t> parseUint(std::string_view v, uint64_t min, uint64_t max)
{
    v = trim(v);
    uint64_t out = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || out < min || out > max) {
        return Error{"expected an integer from " + std::to_string(min) + " to " +
                     std::to_string(max)};
    }
    return out;
}

Result<std::string> parseAbsolutePath(std::string_view v)
{
    v = trim(v);
    if (v.empty() || v.front() != '/') {
        return Error{"expected an absolute path"};
    }
    return std::string(v);
}

std::vector<std::string> splitWords(std::string_view v)
{
    return split(v, "");
}

Result<void> checkGlob(std::string_view glob)
{
    auto refuse = [&](const std::string& why) {
        return Error{"'" + std::string(glob) + "' is not a glob: " + why};
    };
    for (size_t i = 0; i < glob.size(); ++i) {
        if (glob[i] == ']')
            return refuse("a ']' without its '['");
        if (glob[i] != '[')
            continue;
        // A class: [abc], [!abc], [a-z]; a ']' first in it (after any '!') is one of its members.
        size_t j = i + 1;
        if (j < glob.size() && glob[j] == '!')
            ++j;
        const size_t first = j;
        while (j < glob.size() && (glob[j] != ']' || j == first))
            ++j;
        if (j >= glob.size())
            return refuse("its '[' has no ']' (fnmatch would take it literally and match nothing)");
        for (size_t k = first; k + 2 < j; ++k)
            if (glob[k + 1] == '-' && glob[k] > glob[k + 2])
                return refuse(std::string("the range ") + glob[k] + "-" + glob[k + 2] +
                              " is empty");
        i = j;
    }
    return {};
}

Result<std::vector<std::string>> parseGlobs(std::string_view v)
{
    auto words = splitWords(v);
    for (const auto& w : words)
        if (auto good = checkGlob(w); !good)
            return good.error();
    return words;
}

Result<std::vector<std::string>> parseDeviceSelectors(std::string_view v)
{
    auto isHex = [](std::string_view t) {
        return std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isxdigit(c); });
    };
    // "3b:00.0" or "0000:3b:00.0": [domain:]bus:device.function, in hex.
    auto pciAddress = [&](std::string_view w) -> std::optional<std::string> {
        std::string full = w.size() == 7 ? "0000:" + std::string(w) : std::string(w);
        if (full.size() != 12 || full[4] != ':' || full[7] != ':' || full[10] != '.' ||
            !isHex(full.substr(0, 4)) || !isHex(full.substr(5, 2)) || !isHex(full.substr(8, 2)) ||
            !isHex(full.substr(11)))
            return std::nullopt;
        return lower(full);
    };
    auto globChar = [](unsigned char c) {
        return std::isalnum(c) ||
               std::string_view("_*?[]!-").find(static_cast<char>(c)) != std::string_view::npos;
    };
    std::vector<std::string> out;
    for (auto& word : splitWords(v)) {
        if (auto pci = pciAddress(word)) {
            out.push_back(std::move(*pci));
        } else if (std::all_of(word.begin(), word.end(), globChar)) {
            if (auto glob = checkGlob(word); !glob)
                return glob.error();
            out.push_back(std::move(word));
        } else {
            return Error{"expected RDMA device names, globs over them (rocep59s0f*) or PCI "
                         "addresses (0000:3b:00.0 or 3b:00.0), separated by spaces ('" +
                         word + "' is none of these)"};
        }
    }
    return out;
}

Result<TextfileCounters> parseTextfileCounters(std::string_view v)
{
    auto words = splitWords(v);
    TextfileCounters out;
    if (words.empty())
        return out;
    auto set = parseName<CounterSet>(
        words.front(),
        {{"default", CounterSet::Default}, {"all", CounterSet::All}, {"none", CounterSet::None}});
    if (!set)
        return Error{"expected default, all or none, then (not after all) statistic-name globs to "
                     "add, e.g. 'default rx_prio*_bytes np_cnp_sent'"};
    out.set = *set;
    if (out.set == CounterSet::All && words.size() > 1)
        return Error{"all writes every statistic already: a glob after it ('" + words[1] +
                     "') adds nothing; use default or none with globs"};
    for (size_t i = 1; i < words.size(); ++i) {
        bool good = std::all_of(words[i].begin(), words[i].end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) ||
                   std::string_view("_.:-*?[]!").find(c) != std::string_view::npos;
        });
        if (!good) {
            return Error{
                "'" + words[i] +
                "' is not a statistic glob: letters, digits, _ . : - and the glob characters "
                "* ? [ ] !"};
        }
        if (auto glob = checkGlob(words[i]); !glob)
            return glob.error();
        out.extra.push_back(words[i]);
    }
    return out;
}

Result<ExpectPorts> parseExpectPorts(std::string_view v)
{
    const std::string expected =
        "expected auto, none, or ROLE:COUNT[@GBPS] items, one per role (compute:8@400 "
        "storage:2@200; ROLE compute, storage or management)";
    ExpectPorts out;
    const auto words = split(v, "");
    if (words.empty() || (words.size() == 1 && lower(words[0]) == "auto"))
        return out;
    if (words.size() == 1 && lower(words[0]) == "none") {
        out.mode = ExpectMode::None;
        return out;
    }
    out.mode = ExpectMode::Listed;
    for (const auto& word : words) {
        auto colon = word.find(':');
        auto at = word.find('@');
        auto role = colon == std::string::npos ? std::nullopt
                                               : parseRole(std::string_view(word).substr(0, colon));
        if (!role) {
            return Error{expected + " ('" + word + "' is not one)"};
        }
        auto count_text = std::string_view(word).substr(
            colon + 1, at == std::string::npos ? std::string::npos : at - colon - 1);
        auto count = parseUint(count_text, 1, 4096);
        if (!count) {
            return Error{"'" + word + "': COUNT must be an integer from 1 to 4096"};
        }
        PortExpectation e{*role, static_cast<uint32_t>(*count), 0};
        if (at != std::string::npos) {
            auto gbps = parseDecimal(std::string_view(word).substr(at + 1), 0, 10000);
            if (!gbps || *gbps <= 0) {
                return Error{"'" + word + "': GBPS must be a number of Gb/s above 0 up to 10000"};
            }
            e.min_gbps = *gbps;
        }
        if (std::any_of(out.listed.begin(), out.listed.end(),
                        [&](const PortExpectation& x) { return x.role == e.role; })) {
            return Error{fmt::format("'{}': {} is listed twice (one item per role)", word,
                                     toString(e.role))};
        }
        out.listed.push_back(e);
    }
    return out;
}

Result<std::vector<uint8_t>> parsePriorities(std::string_view v)
{
    std::vector<uint8_t> out;
    auto t = trim(v);
    if (t.empty() || lower(t) == "none")
        return out;
    for (const auto& word : split(t, ",")) {
        auto p = parseUint(word, 0, 7);
        if (!p) {
            return Error{"expected priorities 0 to 7 separated by spaces or commas, or none ('" +
                         word + "' is not a priority)"};
        }
        auto prio = static_cast<uint8_t>(*p);
        if (std::find(out.begin(), out.end(), prio) != out.end()) {
            return Error{"priority " + word + " is listed twice"};
        }
        out.push_back(prio);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Result<RateLimit> parseRate(std::string_view v)
{
    const Error why{"expected a rate N/s, N/min or N/h (N >= 0, e.g. 10/s, 5/min, 120/h)"};
    v = trim(v);
    auto slash = v.find('/');
    if (slash == std::string_view::npos)
        return why;
    auto num = trim(v.substr(0, slash));
    auto unit = lower(trim(v.substr(slash + 1)));
    double n = 0;
    auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), n);
    if (num.empty() || ec != std::errc() || ptr != num.data() + num.size() || !std::isfinite(n) ||
        n < 0)
        return why;
    double seconds = 0;
    if (unit == "s" || unit == "sec" || unit == "second")
        seconds = 1;
    else if (unit == "min" || unit == "minute")
        seconds = 60;
    else if (unit == "h" || unit == "hour")
        seconds = 3600;
    else
        return why;
    return RateLimit{n, seconds};
}

Result<double> parseDecimal(std::string_view v, double min, double max)
{
    v = trim(v);
    double n = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || !std::isfinite(n) ||
        n < min || n > max)
        return Error{fmt::format("expected a number from {} to {}", min, max)};
    return n;
}

Result<ProvisionMode> parseProvisionMode(std::string_view v)
{
    return parseName<ProvisionMode>(v, {{"enforce", ProvisionMode::Enforce},
                                        {"verify", ProvisionMode::Verify},
                                        {"off", ProvisionMode::Off}});
}

Result<TrustMode> parseTrustMode(std::string_view v)
{
    return parseName<TrustMode>(v, {{"dscp", TrustMode::Dscp}, {"pcp", TrustMode::Pcp}});
}

Result<BondPolicy> parseBondPolicy(std::string_view v)
{
    return parseName<BondPolicy>(
        v, {{"skip", BondPolicy::Skip}, {"configure", BondPolicy::Configure}});
}

Result<FlapMode> parseFlapMode(std::string_view v)
{
    return parseName<FlapMode>(
        v, {{"transitions", FlapMode::Transitions}, {"down-and-back", FlapMode::DownAndBack}});
}

Result<RuleSeverity> parseRuleSeverity(std::string_view v)
{
    return parseName<RuleSeverity>(
        v, {{"fatal", RuleSeverity::Fatal}, {"non-fatal", RuleSeverity::NonFatal}});
}

Result<Action> parseActionValue(std::string_view v)
{
    if (auto action = parseAction(trim(v)))
        return *action;
    std::string why = "expected one of:";
    for (auto a : kAllActions)
        why += std::string(" ") + toString(a);
    return Error{why};
}

} // namespace nicd::config
