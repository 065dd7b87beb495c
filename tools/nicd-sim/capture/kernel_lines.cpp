#include "capture/kernel_lines.hpp"

#include "capture/spawn.hpp"
#include "capture/text_util.hpp"
#include "kernel_log/kernel_journal.hpp"
#include "kernel_log/trusted_fields.hpp"
#include "kernel_log/user_reports.hpp"

#include <fmt/format.h>
#include <systemd/sd-journal.h>

#include <algorithm>
#include <cctype>
#include <deque>

namespace nicd::sim::capture {

namespace {

bool contains(std::string_view s, std::string_view needle)
{
    return s.find(needle) != std::string_view::npos;
}

// `name` stands alone in `s` (not part of a longer name: eth1 is not in eth10).
bool containsWord(std::string_view s, std::string_view name)
{
    for (size_t pos = s.find(name); pos != std::string_view::npos; pos = s.find(name, pos + 1)) {
        bool before = pos == 0 || !isWordChar(s[pos - 1]);
        size_t end = pos + name.size();
        bool after = end >= s.size() || !isWordChar(s[end]);
        if (before && after)
            return true;
    }
    return false;
}

bool needsBinary(std::string_view v)
{
    return std::any_of(v.begin(), v.end(), [](char c) {
        auto u = static_cast<unsigned char>(c);
        return u < 0x20 && c != '\t';
    });
}

void field(std::string& out, std::string_view name, std::string_view value)
{
    if (!needsBinary(value)) {
        out.append(name).append("=").append(value).append("\n");
        return;
    }
    out.append(name).append("\n");
    uint64_t n = value.size();
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((n >> (8 * i)) & 0xff); // little-endian length
    out.append(value).append("\n");
}

} // namespace

std::string withoutProcessNames(std::string_view message)
{
    std::string out(message);
    if (auto at = out.find("soft lockup - CPU#"); at != std::string::npos) {
        auto open = out.find("! [", at);
        auto close = open == std::string::npos ? open : out.find(']', open);
        if (close != std::string::npos) {
            auto inside = std::string_view(out).substr(open + 3, close - open - 3);
            auto colon = inside.rfind(':');
            auto pid =
                colon == std::string_view::npos ? std::string() : std::string(inside.substr(colon));
            out.replace(open + 3, close - open - 3, "process" + pid);
        }
    }
    for (auto at = out.find("Comm: "); at != std::string::npos; at = out.find("Comm: ", at + 1)) {
        auto end = out.find(' ', at + 6);
        out.replace(at + 6, (end == std::string::npos ? out.size() : end) - at - 6, "process");
    }
    return out;
}

bool isNicLine(std::string_view message, std::string_view kernel_device,
               const std::vector<std::string>& names)
{
    auto origin = kernel_log::parseKernelOrigin(kernel_device, {});
    if (!origin || (origin->deviceLess() && kernel_log::isUserProgramReport(message)))
        return false;
    if (!origin->deviceLess() &&
        std::find(names.begin(), names.end(), origin->device) != names.end())
        return true;
    for (const char* needle :
         {"mlx5", "bnxt", "pcieport", "PCIe", "AER:", "DPC:", "NETDEV WATCHDOG", "soft lockup"})
        if (contains(message, needle))
            return true;
    return std::any_of(names.begin(), names.end(),
                       [&](const auto& n) { return !n.empty() && containsWord(message, n); });
}

std::vector<KernelEntry> readKernelEntries(const std::filesystem::path& root,
                                           const std::string& boot_id,
                                           const std::vector<std::string>& names,
                                           Manifest& manifest)
{
    std::deque<KernelEntry> kept;
    try {
        kernel_log::KernelJournal journal(root, boot_id, std::nullopt);
        while (journal.read(
                   [&](const kernel_log::KernelLine& line) {
                       if (!isNicLine(line.message, line.kernel_device, names))
                           return;
                       kept.push_back({line.realtime_usec, withoutProcessNames(line.message),
                                       std::string(line.kernel_device),
                                       std::string(line.kernel_subsystem)});
                       if (kept.size() > kMaxKernelEntries)
                           kept.pop_front();
                   },
                   4096) > 0) {
        }
    } catch (const std::exception& e) {
        manifest.skip("journal", "", e.what());
    }
    return {kept.begin(), kept.end()};
}

std::vector<std::string> journalHostnames(const std::filesystem::path& root)
{
    sd_journal* j = nullptr;
    int r = root == "/" ? sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM)
                        : sd_journal_open_directory(&j, root.c_str(), SD_JOURNAL_OS_ROOT);
    std::vector<std::string> out;
    if (r < 0)
        return out;
    if (sd_journal_query_unique(j, "_HOSTNAME") >= 0) {
        const void* data = nullptr;
        size_t len = 0;
        constexpr std::string_view kPrefix = "_HOSTNAME=";
        SD_JOURNAL_FOREACH_UNIQUE(j, data, len)
        {
            std::string_view field(static_cast<const char*>(data), len);
            if (field.starts_with(kPrefix) && field.size() > kPrefix.size())
                out.emplace_back(field.substr(kPrefix.size()));
        }
    }
    sd_journal_close(j);
    return out;
}

std::string journalExport(const std::vector<KernelEntry>& entries, const std::string& boot_id,
                          const std::string& machine_id, const std::string& hostname)
{
    std::string out;
    const uint64_t base = entries.empty() ? 0 : entries.front().realtime_usec;
    uint64_t previous = 0;
    for (const auto& e : entries) {
        // One second after boot for the first line, then the wall clock's steps, never back.
        uint64_t mono = std::max<uint64_t>(
            e.realtime_usec >= base ? e.realtime_usec - base + 1000000 : 0, previous + 1);
        previous = mono;
        field(out, "__REALTIME_TIMESTAMP", std::to_string(e.realtime_usec));
        field(out, "__MONOTONIC_TIMESTAMP", std::to_string(mono));
        field(out, "_BOOT_ID", boot_id);
        field(out, "_MACHINE_ID", machine_id);
        field(out, "_HOSTNAME", hostname);
        field(out, "_TRANSPORT", "kernel");
        field(out, "SYSLOG_IDENTIFIER", "kernel");
        if (!e.kernel_device.empty())
            field(out, "_KERNEL_DEVICE", e.kernel_device);
        if (!e.kernel_subsystem.empty())
            field(out, "_KERNEL_SUBSYSTEM", e.kernel_subsystem);
        field(out, "MESSAGE", e.message);
        out += "\n";
    }
    return out;
}

std::string writeJournalFile(const std::filesystem::path& export_file,
                             const std::filesystem::path& journal)
{
    std::string tool;
    std::error_code ec;
    for (const char* p :
         {"/lib/systemd/systemd-journal-remote", "/usr/lib/systemd/systemd-journal-remote"})
        if (std::filesystem::exists(p, ec)) {
            tool = p;
            break;
        }
    if (tool.empty())
        return "systemd-journal-remote is not installed: convert " + export_file.string() +
               " with it to replay the kernel lines";
    std::filesystem::create_directories(journal.parent_path(), ec);
    if (ec)
        return "cannot create " + journal.parent_path().string() + ": " + ec.message();
    auto r = runProgram({tool, "--output=" + journal.string(), export_file.string()});
    if (!r.empty())
        return tool + ": " + r;
    return {};
}

} // namespace nicd::sim::capture
