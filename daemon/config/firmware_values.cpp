#include "config/firmware_values.hpp"

#include "config/value_parsers.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace nicd::config {

namespace {

constexpr size_t kMaxPsid = 64;  // mlx5's board_id is at most 64 bytes (MLX5_BOARD_ID_LEN)
constexpr size_t kMaxParts = 8;  // "28.39.1002", bnxt's "230.0.157.0"
constexpr size_t kMaxDigits = 9; // per part

bool psidChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
}

bool isVersion(std::string_view v)
{
    size_t parts = 0;
    while (true) {
        auto dot = v.find('.');
        auto part = v.substr(0, dot);
        if (part.empty() || part.size() > kMaxDigits ||
            !std::all_of(part.begin(), part.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
            return false;
        if (++parts > kMaxParts)
            return false;
        if (dot == std::string_view::npos)
            return true;
        v.remove_prefix(dot + 1);
    }
}

// The PSID:VERSION items of a value, each checked.
Result<std::vector<std::pair<std::string, std::string>>> items(std::string_view v)
{
    std::string text(v);
    std::replace(text.begin(), text.end(), ',', ' ');
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& word : splitWords(text)) {
        auto colon = word.find(':');
        if (colon == std::string::npos)
            return Error{"expected PSID:VERSION items separated by commas or spaces "
                         "(MT_0000000838:28.39.1002: the board_id, then dotted decimal numbers) "
                         "('" +
                         word + "' is not one)"};
        auto psid = word.substr(0, colon);
        auto version = word.substr(colon + 1);
        if (psid == "*")
            return Error{"'" + word +
                         "': no '*' entry: firmware versions belong to a card's family (one "
                         "family's 20.x is another's 28.x), so name each board's PSID"};
        if (psid.empty() || psid.size() > kMaxPsid ||
            !std::all_of(psid.begin(), psid.end(), psidChar))
            return Error{"'" + word +
                         "': PSID must be the board_id as sysfs prints it (letters, digits, '_', "
                         "'-', '.'; at most 64)"};
        if (!isVersion(version))
            return Error{"'" + word +
                         "': VERSION must be dotted decimal numbers as fw_ver prints them "
                         "(28.39.1002)"};
        out.emplace_back(std::move(psid), std::move(version));
    }
    return out;
}

} // namespace

Result<std::map<std::string, std::string>> parseFirmwareMin(std::string_view v)
{
    auto list = items(v);
    if (!list)
        return list.error();
    std::map<std::string, std::string> out;
    for (auto& [psid, version] : *list)
        if (!out.emplace(psid, version).second)
            return Error{"board " + psid + " is given twice (one lowest version per board)"};
    return out;
}

Result<std::map<std::string, std::vector<std::string>>> parseFirmwareAllowed(std::string_view v)
{
    auto list = items(v);
    if (!list)
        return list.error();
    std::map<std::string, std::vector<std::string>> out;
    for (auto& [psid, version] : *list) {
        auto& versions = out[psid];
        if (std::find(versions.begin(), versions.end(), version) != versions.end())
            return Error{psid + ":" + version + " is listed twice"};
        versions.push_back(std::move(version));
    }
    return out;
}

} // namespace nicd::config
