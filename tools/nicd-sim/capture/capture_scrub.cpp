#include "capture/capture_scrub.hpp"

#include "capture/module_scrub.hpp"
#include "capture/neighbors_capture.hpp"
#include "capture/scrub_text.hpp"
#include "capture/text_util.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd::sim::capture {

namespace {

constexpr std::string_view kDropIns = "etc/nicd/nicd.conf.d/";

// "b8:3f:d2:5a:00:02\n" -> fake + the same line end.
template <typename Fake> std::string scrubOneValue(const std::string& text, Fake fake)
{
    auto end = text.find_last_not_of(" \t\r\n");
    auto value = end == std::string::npos ? std::string() : text.substr(0, end + 1);
    auto rest = end == std::string::npos ? text : text.substr(end + 1);
    return fake(value) + rest;
}

// False when the entry is not to be kept at all.
bool scrubEntry(const std::string& rel, Entry& e, IdentifierMap& ids, Manifest& manifest)
{
    switch (e.scrub) {
    case Scrub::HwAddress:
        e.data = scrubOneValue(e.data, [&](const auto& v) { return ids.hwAddress(v); });
        break;
    case Scrub::Guid:
        e.data = scrubOneValue(e.data, [&](const auto& v) { return ids.guid(v); });
        break;
    case Scrub::BootId:
        e.data = scrubOneValue(e.data, [&](const auto& v) { return ids.bootId(v); });
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
    case Scrub::LldpNeighbors:
        try {
            e.data = scrubNeighbors(e.data, ids);
        } catch (const std::exception& x) { // validated when read: never expected
            manifest.skip("lldp neighbours", rel, std::string("left out: ") + x.what());
            return false;
        }
        break;
    case Scrub::ModuleEeprom: {
        std::vector<uint8_t> blob(e.data.begin(), e.data.end());
        if (!moduleImageScrubbable(blob)) {
            manifest.skip("module eeprom", rel,
                          fmt::format("left out: a layout nicd does not know (identifier "
                                      "0x{:02X}, {} bytes) may hold a serial number anywhere",
                                      blob.empty() ? 0 : blob[0], blob.size()));
            return false;
        }
        blob = scrubModuleImage(std::move(blob), ids);
        e.data.assign(blob.begin(), blob.end());
        break;
    }
    case Scrub::Known:
    case Scrub::Done:
        break;
    }
    return true;
}

// Counter values and the like: nothing in them can hold an identifier.
bool onlyDigits(const std::string& s)
{
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return (c >= '0' && c <= '9') || c == '\n' || c == ' '; });
}

// The drop-ins under names of their place in nicd's order (the map's, as nicd sorts them).
void renameDropIns(CaptureTree& tree, IdentifierMap& ids)
{
    std::vector<std::string> names;
    for (const auto& [rel, e] : tree.entries())
        if (rel.starts_with(kDropIns) && rel.find('/', kDropIns.size()) == std::string::npos)
            names.push_back(rel);
    size_t ordinal = 0;
    for (const auto& rel : names) {
        auto to = std::string(kDropIns) + ids.confName(rel.substr(kDropIns.size()), ++ordinal);
        if (to == rel)
            continue;
        auto e = *tree.find(rel);
        tree.erase(rel);
        tree.entries()[to] = std::move(e);
    }
}

// `path` with each component that is a name derived from an identifier renamed.
std::string renamedPath(std::string_view path, IdentifierMap& ids)
{
    std::string out;
    while (true) {
        const auto slash = path.find('/');
        out += ids.name(path.substr(0, slash));
        if (slash == std::string_view::npos)
            return out;
        out += '/';
        path.remove_prefix(slash + 1);
    }
}

// Netdevs named after their MAC and RDMA devices after their GUID: in every path of the capture
// and every link's target (the contents follow with the last pass, through the map's forms).
void renameNames(CaptureTree& tree, IdentifierMap& ids)
{
    std::map<std::string, Entry> renamed;
    for (auto& [rel, e] : tree.entries()) {
        if (e.kind == EntryKind::Symlink)
            e.data = renamedPath(e.data, ids);
        renamed.emplace(renamedPath(rel, ids), std::move(e));
    }
    tree.entries() = std::move(renamed);
}

// sys/devices/.../infiniband/<device>/fw_ver: the firmware version an RDMA device reports.
bool isRdmaFirmwareVersion(std::string_view rel)
{
    constexpr std::string_view kName = "/fw_ver";
    if (!rel.starts_with("sys/") || !rel.ends_with(kName))
        return false;
    const auto device_dir = rel.substr(0, rel.size() - kName.size());
    const auto slash = device_dir.rfind('/');
    return slash != std::string_view::npos && device_dir.substr(0, slash).ends_with("/infiniband");
}

// "218.0.169.4": four decimal numbers between dots, nothing else.
bool fourDottedNumbers(std::string_view v)
{
    int parts = 0;
    for (size_t b = 0; b <= v.size(); ++parts) {
        const auto e = std::min(v.find('.', b), v.size());
        if (e == b || !std::all_of(v.begin() + static_cast<std::ptrdiff_t>(b),
                                   v.begin() + static_cast<std::ptrdiff_t>(e), isDigit))
            return false;
        b = e + 1;
    }
    return parts == 4;
}

} // namespace

void scrubCapture(CaptureTree& tree, std::vector<KernelEntry>& lines, const HostNames& names,
                  IdentifierMap& ids, Manifest& manifest)
{
    if (ids.keep())
        return;
    for (const auto& h : names.hostnames)
        (void)ids.hostname(h);
    if (!names.machine_id.empty())
        (void)ids.machineId(names.machine_id);
    (void)ids.bootId(names.boot_id);
    for (const auto& text : names.if_inet6)
        learnIpv6Addresses(text, ids);
    // Firmware versions are no addresses, even where they look like one (bnxt_re's "a.b.c.d"):
    // only an RDMA device's, and only four numbers, so a tree shaped by a user cannot exempt
    // an address by putting it in a file of that name.
    for (const auto& [rel, e] : tree.entries())
        if (e.kind == EntryKind::File && isRdmaFirmwareVersion(rel)) {
            auto version = trimmed(firstLine(e.data));
            if (fourDottedNumbers(version))
                ids.notAnIdentifier(version);
        }

    std::vector<std::string> dropped;
    for (auto& [rel, e] : tree.entries())
        if (e.kind == EntryKind::File && !scrubEntry(rel, e, ids, manifest))
            dropped.push_back(rel);
    for (const auto& rel : dropped)
        tree.erase(rel);
    for (auto& line : lines)
        line.message = scrubFreeText(line.message, ids);
    renameDropIns(tree, ids);
    renameNames(tree, ids);

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
