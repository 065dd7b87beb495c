#include "config/wiring_map.hpp"

#include "config/value_parsers.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <map>
#include <sstream>

namespace nicd::config {

namespace {

// Names (netdevs, PCI addresses, switch and port names: "Ethernet1/1", "swp12s0") and glob
// characters; no space, quote, control byte or anything a shell or a log would read otherwise.
bool wordAllowed(const std::string& word)
{
    if (word.size() > 255)
        return false;
    for (unsigned char c : word)
        if (!(std::isalnum(c) ||
              std::string_view("-_.:/*?[]!").find(static_cast<char>(c)) != std::string_view::npos))
            return false;
    return true;
}

} // namespace

bool globMatches(const std::string& glob, const std::string& value)
{
    return ::fnmatch(glob.c_str(), value.c_str(), 0) == 0;
}

std::vector<WiringMapError> parseWiringMap(std::string_view text, std::vector<WiringRule>& rules)
{
    std::vector<WiringMapError> errors;
    std::map<std::string, int> first;
    std::istringstream in{std::string(text)};
    std::string raw;
    int line = 0;
    while (std::getline(in, raw)) {
        ++line;
        if (auto hash = raw.find('#'); hash != std::string::npos)
            raw.erase(hash);
        std::istringstream words(raw);
        std::vector<std::string> w;
        for (std::string word; words >> word;)
            w.push_back(word);
        if (w.empty())
            continue;
        if (w.size() < 2 || w.size() > 3) {
            errors.push_back({line, fmt::format("{} words; a line is: <port (netdev or PCI "
                                                "address)> <switch> [<switch port>]",
                                                w.size())});
            continue;
        }
        bool ok = true;
        for (const auto& word : w)
            if (!wordAllowed(word)) {
                errors.push_back(
                    {line, fmt::format("\"{:.60}\": a name or glob has letters, digits and "
                                       "-_.:/ and the glob characters *?[]! only",
                                       word)});
                ok = false;
                break;
            }
        for (const auto& word : w)
            if (auto glob = checkGlob(word); ok && !glob) {
                errors.push_back({line, glob.error().message});
                ok = false;
            }
        if (!ok)
            continue;
        if (auto [it, fresh] = first.try_emplace(w[0], line); !fresh) {
            errors.push_back({line, fmt::format("port {} given twice (first on line {}); give it "
                                                "once",
                                                w[0], it->second)});
            continue;
        }
        if (rules.size() == kMaxWiringRules) {
            errors.push_back({line, fmt::format("more than {} lines", kMaxWiringRules)});
            break;
        }
        rules.push_back({w[0], w[1], w.size() == 3 ? w[2] : "*", line});
    }
    return errors;
}

} // namespace nicd::config
