// Decoders for devlink health reporters: iproute2's JSON (nlohmann) and the raw netlink
// attributes, walked with the SDK's attribute reader (every length checked against the bytes).
#include "prefailure/devlink_health.hpp"

#include <linux/devlink.h>
#include <linux/netlink.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <limits>
#include <set>

namespace nicd::prefailure {

namespace {

// ---- netlink attributes ----

using plugin::sdk::NetlinkAttr;
using plugin::sdk::NetlinkAttrs;

constexpr std::string_view kAttrsWhat = "devlink";
constexpr uint8_t kStateHealthy = 0; // enum devlink_health_reporter_state (kernel)
constexpr uint8_t kStateError = 1;

std::string at(size_t offset)
{
    return "offset " + std::to_string(offset);
}

// A NUL-terminated string attribute (the terminator is optional); empty is not a name.
std::string name(const NetlinkAttr& attr, const char* what)
{
    std::string text(attr.string());
    if (text.empty())
        throw DecodeError(std::string(what) + " at " + at(attr.offset) + " is empty");
    return text;
}

std::string stateName(uint8_t state)
{
    if (state == kStateHealthy)
        return "healthy";
    if (state == kStateError)
        return "error";
    return "unknown";
}

// The DEVLINK_ATTR_HEALTH_REPORTER nest into `out` (name, state, counters).
void decodeReporterNest(const NetlinkAttr& nest, HealthReporter& out)
{
    std::optional<uint8_t> state;
    std::optional<uint64_t> errors, recovers;
    for (const NetlinkAttr& a : NetlinkAttrs(nest.payload, kAttrsWhat, nest.payloadOffset())) {
        switch (a.type) {
        case DEVLINK_ATTR_HEALTH_REPORTER_NAME:
            out.name = name(a, "DEVLINK_ATTR_HEALTH_REPORTER_NAME");
            break;
        case DEVLINK_ATTR_HEALTH_REPORTER_STATE:
            state = a.u8("DEVLINK_ATTR_HEALTH_REPORTER_STATE");
            break;
        case DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT:
            errors = a.u64("DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT");
            break;
        case DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT:
            recovers = a.u64("DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT");
            break;
        default:
            break; // pad, grace/burst period, auto_*, dump timestamps
        }
    }
    const std::string where = "devlink health reporter nest at " + at(nest.offset);
    if (out.name.empty())
        throw DecodeError(where + ": no DEVLINK_ATTR_HEALTH_REPORTER_NAME");
    if (!state || !errors || !recovers)
        throw DecodeError(where + " ('" + out.name + "'): no " +
                          (!state    ? "STATE"
                           : !errors ? "ERR_COUNT"
                                     : "RECOVER_COUNT"));
    out.state = stateName(*state);
    out.healthy = *state == kStateHealthy;
    out.errors = *errors;
    out.recovers = *recovers;
}

// ---- iproute2 JSON ----

using nlohmann::json;

constexpr std::string_view kJsonWhat = "devlink health JSON: ";
constexpr std::string_view kUnlimited = "unlimited"; // how iproute2 prints a u64 of all ones
constexpr std::string_view kHealthKey = "health";

[[noreturn]] void devlinkJsonError(const std::string& where, const std::string& problem)
{
    throw DecodeError(std::string(kJsonWhat) + where + ": " + problem);
}

// The parsed document and its handles in the order they were printed (json objects are sorted
// maps; nlohmann's ordered_json would keep the order but grows quadratically on many keys).
struct Document {
    json doc;
    std::vector<std::string> handles;
};

// Parses the text, refusing a handle that appears twice under "health", or "health" twice (the
// DOM would keep only the last and lose reporters silently).
Document parseDocument(std::string_view text)
{
    Document out;
    std::string top_key, duplicate;
    std::set<std::string> seen;
    size_t health_keys = 0;
    const json::parser_callback_t watch = [&](int depth, json::parse_event_t event, json& parsed) {
        if (event != json::parse_event_t::key)
            return true;
        if (depth == 1) {
            top_key = parsed.get<std::string>();
            health_keys += top_key == kHealthKey ? 1 : 0;
        } else if (depth == 2 && top_key == kHealthKey) {
            std::string handle = parsed.get<std::string>();
            if (!seen.insert(handle).second && duplicate.empty())
                duplicate = handle;
            out.handles.push_back(std::move(handle));
        }
        return true;
    };
    try {
        out.doc = json::parse(text, watch);
    } catch (const json::exception& e) {
        devlinkJsonError("document", e.what());
    }
    if (health_keys > 1)
        devlinkJsonError("top level", "\"health\" appears twice");
    if (!duplicate.empty())
        devlinkJsonError("\"" + duplicate + "\"", "handle appears twice");
    return out;
}

std::string requiredString(const json& entry, const char* key, const std::string& where)
{
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_string())
        devlinkJsonError(where, std::string("\"") + key + "\" missing or not a string");
    return it->get<std::string>();
}

uint64_t counter(const json& entry, const char* key, const std::string& where)
{
    const auto it = entry.find(key);
    if (it != entry.end() && it->is_number_unsigned())
        return it->get<uint64_t>();
    if (it != entry.end() && it->is_string() && it->get<std::string>() == kUnlimited)
        return std::numeric_limits<uint64_t>::max();
    devlinkJsonError(where, std::string("\"") + key + "\" missing or not an unsigned number");
}

HealthReporter reporterFrom(const json& entry, const std::string& handle, size_t index)
{
    const std::string where = "\"" + handle + "\"[" + std::to_string(index) + "]";
    if (!entry.is_object())
        devlinkJsonError(where, "not an object");
    HealthReporter r;
    r.handle = handle;
    r.name = requiredString(entry, "reporter", where);
    if (r.name.empty())
        devlinkJsonError(where, "empty \"reporter\"");
    r.state = requiredString(entry, "state", where);
    r.healthy = r.state == "healthy";
    r.errors = counter(entry, "error", where);
    r.recovers = counter(entry, "recover", where);
    return r;
}

} // namespace

std::vector<HealthReporter> parseDevlinkHealthJson(std::string_view text)
{
    const Document parsed = parseDocument(text);
    const json& doc = parsed.doc;
    if (!doc.is_object())
        devlinkJsonError("top level", "not an object");
    const auto health = doc.find(kHealthKey);
    if (health == doc.end() || !health->is_object())
        devlinkJsonError("top level", "no \"health\" object");
    std::vector<HealthReporter> out;
    for (const std::string& handle : parsed.handles) {
        if (handle.empty())
            devlinkJsonError("\"\"", "empty handle");
        const auto it = health->find(handle);
        if (it == health->end())
            devlinkJsonError("\"" + handle + "\"", "handle lost while parsing");
        const json& reporters = *it;
        if (!reporters.is_array())
            devlinkJsonError("\"" + handle + "\"", "not an array");
        for (size_t i = 0; i < reporters.size(); ++i)
            out.push_back(reporterFrom(reporters[i], handle, i));
    }
    return out;
}

std::optional<HealthReporter> decodeReporterMessage(std::span<const uint8_t> attrs)
{
    std::optional<std::string> bus, dev;
    std::optional<uint32_t> port;
    std::optional<NetlinkAttr> nest;
    for (const NetlinkAttr& a : NetlinkAttrs(attrs, kAttrsWhat)) {
        switch (a.type) {
        case DEVLINK_ATTR_BUS_NAME:
            bus = name(a, "DEVLINK_ATTR_BUS_NAME");
            break;
        case DEVLINK_ATTR_DEV_NAME:
            dev = name(a, "DEVLINK_ATTR_DEV_NAME");
            break;
        case DEVLINK_ATTR_PORT_INDEX:
            port = a.u32("DEVLINK_ATTR_PORT_INDEX");
            break;
        case DEVLINK_ATTR_HEALTH_REPORTER:
            nest = a;
            break;
        default:
            break;
        }
    }
    if (!nest)
        return std::nullopt;
    if (!bus || !dev)
        throw DecodeError(std::string("devlink health message without ") +
                          (!bus ? "DEVLINK_ATTR_BUS_NAME" : "DEVLINK_ATTR_DEV_NAME"));
    HealthReporter r;
    r.handle = *bus + "/" + *dev;
    if (port)
        r.handle += "/" + std::to_string(*port);
    decodeReporterNest(*nest, r);
    return r;
}

std::string_view pciAddressView(std::string_view handle)
{
    constexpr std::string_view kPciBus = "pci/";
    if (!handle.starts_with(kPciBus))
        return {};
    const std::string_view rest = handle.substr(kPciBus.size());
    return rest.substr(0, rest.find('/'));
}

std::string pciAddressOf(const std::string& handle)
{
    return std::string(pciAddressView(handle));
}

} // namespace nicd::prefailure
