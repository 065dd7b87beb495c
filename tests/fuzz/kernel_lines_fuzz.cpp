// libFuzzer target for the kernel-line classifiers: each line of the input (and the whole input,
// as one journal MESSAGE) goes to the mlx5 plugin's pattern classifier, and the lines in order go
// to the multi-line soft-lockup detector, as the journal delivers them. Neither throws: a crash, an
// exception or a sanitizer report is a finding. A match must be complete (code, message, action),
// and what it extracted (PCI address, netdev) must come from the line.
#include "health/soft_lockup.hpp"
#include "kernel_patterns.hpp"

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

void classify(std::string_view line)
{
    pv1::KernelLineMatch m;
    if (!nicd::mlx5::classifyKernelLine(line, m)) {
        require(m.code.empty());
        return;
    }
    require(!m.code.empty() && !m.message.empty() && !m.action.empty() && !m.action_code.empty());
    require(m.severity == pv1::Severity::Fatal || m.severity == pv1::Severity::NonFatal);
    if (!m.pci_address.empty())
        require(looksLikePci(m.pci_address) && line.find(m.pci_address) != std::string_view::npos);
    if (!m.netdev.empty())
        require(line.find(m.netdev) != std::string_view::npos);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view text(reinterpret_cast<const char*>(data), size);
    classify(text);
    nicd::health::SoftLockupDetector detector;
    while (!text.empty()) {
        auto end = text.find('\n');
        auto line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        classify(line);
        if (auto hit = detector.feed(line)) {
            require(hit->find("BUG: soft lockup - CPU#") != std::string::npos);
            require(hit->size() <= size + 64); // the armed header, and the frame's name
        }
    }
    return 0;
}
