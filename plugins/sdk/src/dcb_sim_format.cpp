#include <nicd/plugin/sdk/dcb_sim_format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <set>
#include <tuple>
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

// The ETS arrays the file holds: key, the array, the largest value.
template <class E> auto etsArrays(E& ets)
{
    using Array = decltype(&ets.prio_tc);
    return std::array<std::tuple<std::string_view, Array, uint32_t>, 3>{
        {{"prio_tc", &ets.prio_tc, 7}, {"tc_tsa", &ets.tsa, 255}, {"tc_bw", &ets.tx_bw, 100}}};
}

// An ETS array's line: 8 numbers from 0 to `max`.
void parseEtsArray(std::string_view value, uint32_t max, std::array<uint8_t, 8>& out,
                   const std::string& where, std::string_view key)
{
    auto parts = split(value, ',');
    if (parts.size() != out.size())
        throw plugin::sdk::DecodeError(where + std::string(key) + " wants 8 numbers");
    for (size_t i = 0; i < out.size(); ++i) {
        uint32_t v = 0;
        if (!parseNumber(parts[i], max, v))
            throw plugin::sdk::DecodeError(where + std::string(key) + " wants numbers from 0 to " +
                                           std::to_string(max));
        out[i] = static_cast<uint8_t>(v);
    }
}

} // namespace

std::string formatDcbSimState(const dcb::DcbState& state)
{
    dcb::Pfc pfc = state.pfc.value_or(dcb::Pfc{});
    std::string s = "pfc_cap=" + std::to_string(pfc.cap) + "\n";
    s += "pfc_en=" + std::to_string(pfc.enabled) + "\n";
    s += "mbc=" + std::to_string(pfc.mbc) + "\n";
    s += "delay=" + std::to_string(pfc.delay) + "\n";
    if (state.dcbx)
        s += "dcbx=" + std::to_string(*state.dcbx) + "\n";
    if (state.ets) {
        s += "ets_cap=" + std::to_string(state.ets->cap) + "\n";
        for (const auto& [key, values, max] : etsArrays(*state.ets)) {
            s += std::string(key) + "=";
            for (size_t i = 0; i < values->size(); ++i)
                s += (i ? "," : "") + std::to_string((*values)[i]);
            s += "\n";
        }
    }
    for (const auto& a : state.apps)
        s += "app=" + std::to_string(a.selector) + "," + std::to_string(a.priority) + "," +
             std::to_string(a.protocol) + "\n";
    return s;
}

dcb::DcbState parseDcbSimState(std::string_view text)
{
    static const std::map<std::string_view, uint32_t> kScalars = {
        {"pfc_cap", 255}, {"pfc_en", 255}, {"mbc", 255},
        {"delay", 65535}, {"dcbx", 255},   {"ets_cap", 255}};
    static const std::set<std::string_view> kOptional = {"dcbx", "ets_cap"};
    std::map<std::string_view, uint32_t> values;
    std::set<std::string_view> arrays_seen;
    dcb::Ets ets;
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
        bool ets_array = false;
        for (auto& [name, array, max] : etsArrays(ets)) {
            if (name != key)
                continue;
            if (!arrays_seen.insert(key).second)
                throw plugin::sdk::DecodeError(where + std::string(key) + " given twice");
            parseEtsArray(value, max, *array, where, key);
            ets_array = true;
        }
        if (ets_array)
            continue;
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
        if (!values.contains(key) && !kOptional.contains(key))
            throw plugin::sdk::DecodeError("missing " + std::string(key));
    dcb::Pfc pfc;
    pfc.cap = static_cast<uint8_t>(values["pfc_cap"]);
    pfc.enabled = static_cast<uint8_t>(values["pfc_en"]);
    pfc.mbc = static_cast<uint8_t>(values["mbc"]);
    pfc.delay = static_cast<uint16_t>(values["delay"]);
    st.pfc = pfc;
    if (values.contains("dcbx"))
        st.dcbx = static_cast<uint8_t>(values["dcbx"]);
    if (values.contains("ets_cap")) {
        ets.cap = static_cast<uint8_t>(values["ets_cap"]);
        st.ets = ets;
    } else if (!arrays_seen.empty()) {
        throw plugin::sdk::DecodeError(std::string(*arrays_seen.begin()) + " without ets_cap");
    }
    return st;
}

} // namespace nicd::plugin::sdk
