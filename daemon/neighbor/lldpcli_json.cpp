// lldpcli's json0 layout (lldpd src/client/json_writer.c with the "json0" writer): every object's
// value is an array, "lldp" -> [ { "interface": [ { "name", "via", "rid", "age", "chassis": [ {
// "id": [ {"type", "value"} ], "name": [ {"value"} ], "mgmt-ip": [ {"value"} ], ... } ], "port": [
// { "id": [ {"type", "value"} ], "descr": [ {"value"} ], "ttl": [ {"value"} ] } ], "unknown-tlvs":
// [ { "unknown-tlv": [ {"oui": "00,80,C2", "subtype": "11", "len": "2", "value": "08,18"} ] } ] } ]
// } ]. lldpd before 1.0 printed the TTL under the chassis: both are read.
#include "neighbor/lldpcli_json.hpp"

#include "text/hex_digit.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>

namespace nicd::neighbor {

namespace {

using nicd::text::hexDigit;
using plugin::sdk::DecodeError;
using json = nlohmann::json;

constexpr size_t kMaxLldpString = 255; // LLDP's string fields are at most 255 bytes
constexpr size_t kMaxTlvInfo = 507;    // an organisation TLV's information string

// The array under `key` of `obj`; an absent key is an empty array.
const json& arrayAt(const json& obj, const char* key, const std::string& where)
{
    static const json empty = json::array();
    auto it = obj.find(key);
    if (it == obj.end())
        return empty;
    if (!it->is_array())
        throw DecodeError(fmt::format("{}: \"{}\" is not an array (lldpcli -f json0)", where, key));
    return *it;
}

// The first object of the array under `key`, or an empty object.
const json& firstAt(const json& obj, const char* key, const std::string& where)
{
    static const json empty = json::object();
    const json& arr = arrayAt(obj, key, where);
    if (arr.empty())
        return empty;
    if (!arr.front().is_object())
        throw DecodeError(fmt::format("{}: \"{}\" holds a non-object", where, key));
    return arr.front();
}

std::string stringAt(const json& obj, const char* key, const std::string& where)
{
    auto it = obj.find(key);
    if (it == obj.end())
        return {};
    if (!it->is_string())
        throw DecodeError(fmt::format("{}: \"{}\" is not a string", where, key));
    auto s = it->get<std::string>();
    if (s.size() > kMaxLldpString)
        throw DecodeError(fmt::format("{}: \"{}\" is {} bytes, longer than LLDP carries ({})",
                                      where, key, s.size(), kMaxLldpString));
    return s;
}

// `[ {"value": "..."} ]` under `key`: its first value.
std::string valueAt(const json& obj, const char* key, const std::string& where)
{
    return stringAt(firstAt(obj, key, where), "value", where + " " + key);
}

uint32_t unsignedText(const std::string& text, const std::string& where)
{
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        throw DecodeError(fmt::format("{}: \"{}\" is not a number", where, text));
    return v;
}

// A netdev's name as the kernel allows it (dev_valid_name): 1-15 bytes, no '/', ':' or space, not
// "." or "..".
bool validNetdevName(const std::string& name)
{
    if (name.empty() || name.size() > 15 || name == "." || name == "..")
        return false;
    for (unsigned char c : name)
        if (c == '/' || c == ':' || c <= ' ' || c >= 0x7f)
            return false;
    return true;
}

OrgTlv orgTlv(const json& tlv, const std::string& where)
{
    if (!tlv.is_object())
        throw DecodeError(where + ": an unknown-tlv is not an object");
    OrgTlv out;
    auto oui = parseLldpcliHex(stringAt(tlv, "oui", where));
    if (oui.size() != 3)
        throw DecodeError(
            fmt::format("{}: OUI \"{}\" is not 3 bytes", where, stringAt(tlv, "oui", where)));
    std::copy(oui.begin(), oui.end(), out.oui.begin());
    uint32_t subtype = unsignedText(stringAt(tlv, "subtype", where), where + " subtype");
    if (subtype > 255)
        throw DecodeError(fmt::format("{}: subtype {} is not a byte", where, subtype));
    out.subtype = static_cast<uint8_t>(subtype);
    out.info = parseLldpcliHex(stringAt(tlv, "value", where));
    return out;
}

LldpNeighbor neighborOf(const json& iface, const std::string& where)
{
    LldpNeighbor n;
    const json& chassis = firstAt(iface, "chassis", where);
    const json& chassis_id = firstAt(chassis, "id", where + " chassis");
    n.chassis_id = stringAt(chassis_id, "value", where + " chassis id");
    n.chassis_id_type = stringAt(chassis_id, "type", where + " chassis id");
    n.system_name = valueAt(chassis, "name", where + " chassis");
    n.mgmt_address = valueAt(chassis, "mgmt-ip", where + " chassis");
    const json& port = firstAt(iface, "port", where);
    const json& port_id = firstAt(port, "id", where + " port");
    n.port_id = stringAt(port_id, "value", where + " port id");
    n.port_id_type = stringAt(port_id, "type", where + " port id");
    n.port_descr = valueAt(port, "descr", where + " port");
    std::string ttl = valueAt(port, "ttl", where + " port");
    if (ttl.empty())
        ttl = valueAt(chassis, "ttl", where + " chassis");
    if (!ttl.empty())
        n.ttl_seconds = unsignedText(ttl, where + " ttl");
    for (const json& group : arrayAt(iface, "unknown-tlvs", where)) {
        if (!group.is_object())
            throw DecodeError(where + ": \"unknown-tlvs\" holds a non-object");
        for (const json& tlv : arrayAt(group, "unknown-tlv", where))
            n.org_tlvs.push_back(orgTlv(tlv, where + " unknown-tlv"));
    }
    return n;
}

} // namespace

std::vector<uint8_t> parseLldpcliHex(std::string_view text)
{
    std::vector<uint8_t> out;
    if (text.empty())
        return out;
    size_t i = 0;
    while (true) {
        if (i + 2 > text.size() || hexDigit(text[i]) < 0 || hexDigit(text[i + 1]) < 0)
            throw DecodeError(fmt::format("\"{:.40}\" is not lldpcli's hex bytes (\"08,18\") at "
                                          "character {}",
                                          text, i));
        out.push_back(static_cast<uint8_t>(hexDigit(text[i]) * 16 + hexDigit(text[i + 1])));
        if (out.size() > kMaxTlvInfo)
            throw DecodeError(fmt::format("more than {} bytes in one TLV", kMaxTlvInfo));
        i += 2;
        if (i == text.size())
            return out;
        if (text[i] != ',')
            throw DecodeError(fmt::format("\"{:.40}\" is not lldpcli's hex bytes (\"08,18\") at "
                                          "character {}",
                                          text, i));
        ++i;
    }
}

std::string lldpcliHex(const std::vector<uint8_t>& bytes)
{
    std::string out;
    for (size_t i = 0; i < bytes.size(); ++i)
        out += fmt::format("{}{:02X}", i ? "," : "", bytes[i]);
    return out;
}

std::map<std::string, std::vector<LldpNeighbor>> parseLldpcliNeighbors(std::string_view text)
{
    std::map<std::string, std::vector<LldpNeighbor>> out;
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return out;
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        throw DecodeError("not lldpcli's JSON (lldpcli -f json0 show neighbors details)");
    size_t interfaces = 0;
    for (const json& lldp : arrayAt(doc, "lldp", "lldp")) {
        if (!lldp.is_object())
            throw DecodeError("lldp: holds a non-object");
        for (const json& iface : arrayAt(lldp, "interface", "lldp")) {
            if (!iface.is_object())
                throw DecodeError("lldp interface: not an object");
            if (++interfaces > kMaxLldpInterfaces)
                throw DecodeError(fmt::format("more than {} interfaces", kMaxLldpInterfaces));
            std::string name = stringAt(iface, "name", "lldp interface");
            if (!validNetdevName(name))
                throw DecodeError(fmt::format("interface \"{:.40}\": not a netdev's name", name));
            auto& list = out[name];
            if (list.size() == kMaxNeighborsPerNetdev)
                throw DecodeError(fmt::format("interface {}: more than {} neighbours", name,
                                              kMaxNeighborsPerNetdev));
            list.push_back(neighborOf(iface, "interface " + name));
        }
    }
    return out;
}

std::string toLldpcliJson(const std::map<std::string, std::vector<LldpNeighbor>>& neighbors)
{
    auto values = [](const std::string& v) {
        return v.empty() ? json::array() : json::array({json{{"value", v}}});
    };
    json interfaces = json::array();
    size_t rid = 0;
    for (const auto& [netdev, list] : neighbors) {
        for (const LldpNeighbor& n : list) {
            json chassis{
                {"id", json::array({json{{"type", n.chassis_id_type}, {"value", n.chassis_id}}})}};
            if (!n.system_name.empty())
                chassis["name"] = values(n.system_name);
            if (!n.mgmt_address.empty())
                chassis["mgmt-ip"] = values(n.mgmt_address);
            json port{{"id", json::array({json{{"type", n.port_id_type}, {"value", n.port_id}}})}};
            if (!n.port_descr.empty())
                port["descr"] = values(n.port_descr);
            port["ttl"] = values(std::to_string(n.ttl_seconds));
            json iface{{"name", netdev},
                       {"via", "LLDP"},
                       {"rid", std::to_string(++rid)},
                       {"age", "0 day, 00:00:00"},
                       {"chassis", json::array({chassis})},
                       {"port", json::array({port})}};
            if (!n.org_tlvs.empty()) {
                json tlvs = json::array();
                for (const OrgTlv& t : n.org_tlvs)
                    tlvs.push_back(json{
                        {"oui", lldpcliHex({t.oui.begin(), t.oui.end()})},
                        {"subtype", std::to_string(t.subtype)},
                        {"len", std::to_string(t.info.size())},
                        {"value", lldpcliHex(t.info)},
                    });
                iface["unknown-tlvs"] = json::array({json{{"unknown-tlv", tlvs}}});
            }
            interfaces.push_back(std::move(iface));
        }
    }
    json doc{{"lldp", json::array({json{{"interface", interfaces}}})}};
    return doc.dump(2) + "\n";
}

} // namespace nicd::neighbor
