// libFuzzer target for kernel-line matching by provenance. The input's first line is a
// _KERNEL_DEVICE value and its second a _KERNEL_SUBSYSTEM value (read by parseKernelOrigin), the
// rest journal MESSAGEs: each goes to the user-program filter, to the mlx5 and bnxt plugins'
// classifiers both as a record about that device and as a device-less record, and, in order, to
// the daemon's window over multi-line reports and both plugins' report classifiers, as the
// journal delivers them (bnxt never matches a device-less record). Nothing throws: a crash, an
// exception or a sanitizer report is a finding. A match is complete (code, message, action); what
// it names comes from the record (the device) or the line; a device-less match is never a line
// about a user program; a confirmed lockup carries its header.
#include "bnxt/bnxt_kernel_lines.hpp"
#include "bnxt/bnxt_kernel_reports.hpp"
#include "kernel_log/report_window.hpp"
#include "kernel_log/trusted_fields.hpp"
#include "kernel_log/user_reports.hpp"
#include "kernel_patterns.hpp"
#include "kernel_reports.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace pv1 = nicd::plugin::v1;

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

// "0000:3b:00.0": four, two and two hex digits, then the function digit.
bool looksLikePci(std::string_view s)
{
    if (s.size() != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.')
        return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11})
        if (!std::isxdigit(static_cast<unsigned char>(s[i])))
            return false;
    return true;
}

using Classifier = bool (*)(const pv1::KernelRecord&, pv1::KernelLineMatch&) noexcept;

void classify(const pv1::KernelRecord& rec, Classifier classifier)
{
    pv1::KernelLineMatch m;
    if (!classifier(rec, m)) {
        require(m.code.empty());
        return;
    }
    require(!m.code.empty() && !m.message.empty() && !m.action.empty() && !m.action_code.empty());
    require(m.severity == pv1::Severity::Fatal || m.severity == pv1::Severity::NonFatal);
    if (!m.pci_address.empty())
        require(looksLikePci(m.pci_address) &&
                (m.pci_address == rec.device ||
                 rec.message.find(m.pci_address) != std::string_view::npos));
    if (!m.netdev.empty())
        require(rec.message.find(m.netdev) != std::string_view::npos);
    if (rec.deviceLess())
        require(!nicd::kernel_log::isUserProgramReport(rec.message));
    else
        require(rec.message.find(rec.device) != std::string_view::npos); // its dev_printk prefix
}

std::string_view nextLine(std::string_view& text)
{
    auto end = text.find('\n');
    auto line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    return line;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto device_field = nextLine(text);
    auto subsystem_field = nextLine(text);
    auto origin = nicd::kernel_log::parseKernelOrigin(device_field, subsystem_field);
    if (origin && !origin->deviceLess())
        require(!origin->subsystem.empty());
    nicd::kernel_log::KernelReportWindow window;
    while (!text.empty()) {
        auto line = nextLine(text);
        (void)nicd::kernel_log::isUserProgramReport(line);
        for (Classifier c :
             {&nicd::mlx5::classifyKernelRecord, &nicd::bnxt::classifyKernelRecord}) {
            classify({line, {}, {}}, c);
            if (origin)
                classify({line, origin->subsystem, origin->device}, c);
        }
        pv1::KernelLineMatch bnxt;
        require(!nicd::bnxt::classifyKernelRecord({line, {}, {}}, bnxt));
        pv1::KernelLineMatch hit;
        if (window.feed({line, {}, {}}) &&
            (nicd::plugin::sdk::classifySoftLockup(window.report(), nicd::mlx5::kPollLoop, hit) ||
             nicd::plugin::sdk::classifySoftLockup(window.report(), nicd::bnxt::kPollLoop, hit))) {
            window.close();
            require(hit.message.find("BUG: soft lockup - CPU#") != std::string::npos);
            require(hit.message.size() <= size + 64); // the header, and the frame's name
        }
    }
    return 0;
}
