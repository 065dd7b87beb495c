#include "capture/capture_scrub.hpp"

#include "capture/module_serial.hpp"
#include "capture/scrub_text.hpp"

#include <algorithm>

namespace nicd::sim::capture {

namespace {

// "b8:3f:d2:5a:00:02\n" -> fake + the same line end.
std::string scrubOneValue(const std::string& text, IdentifierMap& ids, bool guid)
{
    auto end = text.find_last_not_of(" \t\r\n");
    auto value = end == std::string::npos ? std::string() : text.substr(0, end + 1);
    auto rest = end == std::string::npos ? text : text.substr(end + 1);
    return (guid ? ids.guid(value) : ids.hwAddress(value)) + rest;
}

void scrubEntry(Entry& e, IdentifierMap& ids)
{
    switch (e.scrub) {
    case Scrub::HwAddress:
        e.data = scrubOneValue(e.data, ids, false);
        break;
    case Scrub::Guid:
        e.data = scrubOneValue(e.data, ids, true);
        break;
    case Scrub::Ipv4Routes:
        e.data = scrubIpv4Routes(e.data, ids);
        break;
    case Scrub::Ipv6Routes:
        e.data = scrubIpv6Routes(e.data, ids);
        break;
    case Scrub::FreeText:
        e.data = scrubFreeText(e.data, ids);
        break;
    case Scrub::ModuleEeprom: {
        auto blob = scrubModuleSerial({e.data.begin(), e.data.end()}, ids);
        e.data.assign(blob.begin(), blob.end());
        break;
    }
    case Scrub::Known:
    case Scrub::Done:
        break;
    }
}

// Counter values and the like: nothing in them can hold an identifier.
bool onlyDigits(const std::string& s)
{
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return (c >= '0' && c <= '9') || c == '\n' || c == ' '; });
}

} // namespace

void scrubCapture(CaptureTree& tree, std::vector<KernelEntry>& lines, const HostNames& names,
                  IdentifierMap& ids)
{
    if (ids.keep())
        return;
    for (const auto& h : names.hostnames)
        (void)ids.hostname(h);
    if (!names.machine_id.empty())
        (void)ids.machineId(names.machine_id);
    for (const auto& text : names.if_inet6)
        learnIpv6Addresses(text, ids);

    for (auto& [rel, e] : tree.entries())
        if (e.kind == EntryKind::File)
            scrubEntry(e, ids);
    for (auto& line : lines)
        line.message = scrubFreeText(line.message, ids);

    const auto forms = ids.knownForms();
    if (forms.empty())
        return;
    for (auto& [rel, e] : tree.entries())
        if (e.kind == EntryKind::File && e.scrub != Scrub::Done && e.scrub != Scrub::ModuleEeprom &&
            !onlyDigits(e.data))
            e.data = replaceKnownForms(e.data, forms);
    for (auto& line : lines)
        line.message = replaceKnownForms(line.message, forms);
}

} // namespace nicd::sim::capture
