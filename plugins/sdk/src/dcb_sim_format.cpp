#include <nicd/plugin/dcb_sim_format.h>

#include <charconv>
#include <map>
#include <vector>

namespace nicd::plugin::sdk {

namespace {

bool parseNumber(std::string_view s, uint32_t max, uint32_t& out)
{
    if (s.empty())
        return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && out <= max;
}

std::vector<std::string_view> split(std::string_view s, char sep)
{
    std::vector<std::string_view> out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

} // namespace

std::string formatDcbSimState(const dcb::DcbState& state)
{
    dcb::Pfc pfc = state.pfc.value_or(dcb::Pfc{});
    std::string s = "pfc_cap=" + std::to_string(pfc.cap) + "\n";
    s += "pfc_en=" + std::to_string(pfc.enabled) + "\n";
    s += "mbc=" + std::to_string(pfc.mbc) + "\n";
    s += "delay=" + std::to_string(pfc.delay) + "\n";
    for (const auto& a : state.apps)
        s += "app=" + std::to_string(a.selector) + "," + std::to_string(a.priority) + "," +
             std::to_string(a.protocol) + "\n";
    return s;
}

dcb::DcbState parseDcbSimState(std::string_view text)
{
    static const std::map<std::string_view, uint32_t> kScalars = {
        {"pfc_cap", 255}, {"pfc_en", 255}, {"mbc", 255}, {"delay", 65535}};
    std::map<std::string_view, uint32_t> values;
    dcb::DcbState st;
    int line_no = 0;
    for (auto line : split(text, '\n')) {
        ++line_no;
        auto where = "line " + std::to_string(line_no) + ": ";
        if (line.empty() || line.front() == '#')
            continue;
        auto eq = line.find('=');
        if (eq == std::string_view::npos)
            throw plugin::sdk::DecodeError(where + "not key=value");
        auto key = line.substr(0, eq);
        auto value = line.substr(eq + 1);
        if (key == "app") {
            auto parts = split(value, ',');
            uint32_t sel = 0, prio = 0, proto = 0;
            if (parts.size() != 3 || !parseNumber(parts[0], 255, sel) ||
                !parseNumber(parts[1], 7, prio) || !parseNumber(parts[2], 65535, proto))
                throw plugin::sdk::DecodeError(where + "app wants selector,priority(0-7),protocol");
            st.apps.push_back({static_cast<uint8_t>(sel), static_cast<uint8_t>(prio),
                               static_cast<uint16_t>(proto)});
            continue;
        }
        auto known = kScalars.find(key);
        if (known == kScalars.end())
            throw plugin::sdk::DecodeError(where + "unknown key '" + std::string(key) + "'");
        if (values.contains(key))
            throw plugin::sdk::DecodeError(where + std::string(key) + " given twice");
        uint32_t v = 0;
        if (!parseNumber(value, known->second, v))
            throw plugin::sdk::DecodeError(where + std::string(key) + " wants a number from 0 to " +
                                           std::to_string(known->second));
        values[known->first] = v;
    }
    for (const auto& [key, max] : kScalars)
        if (!values.contains(key))
            throw plugin::sdk::DecodeError("missing " + std::string(key));
    dcb::Pfc pfc;
    pfc.cap = static_cast<uint8_t>(values["pfc_cap"]);
    pfc.enabled = static_cast<uint8_t>(values["pfc_en"]);
    pfc.mbc = static_cast<uint8_t>(values["mbc"]);
    pfc.delay = static_cast<uint16_t>(values["delay"]);
    st.pfc = pfc;
    return st;
}

} // namespace nicd::plugin::sdk
