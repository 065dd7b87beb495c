#include <nicd/plugin/sdk/printed_record.h>

#include <cctype>

namespace nicd::plugin::sdk {

bool startsWithPciAddress(std::string_view t)
{
    if (t.size() < 12 || t[4] != ':' || t[7] != ':' || t[10] != '.')
        return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11})
        if (!std::isxdigit(static_cast<unsigned char>(t[i])))
            return false;
    return true;
}

namespace {

// What follows the name: netdev_reg_state()'s " (unregistering)", " (uninitialized)" or nothing,
// then ": " and the text.
std::optional<PrintedRecord> afterName(std::string_view m, PrintedRecord p)
{
    if (m.starts_with(" (")) {
        auto close = m.find("):");
        if (close == std::string_view::npos)
            return std::nullopt;
        m.remove_prefix(close + 1);
    }
    if (!m.starts_with(": "))
        return std::nullopt;
    p.text = m.substr(2);
    return p;
}

} // namespace

std::optional<PrintedRecord> printedAbout(const v1::KernelRecord& rec)
{
    if (rec.deviceLess())
        return std::nullopt;
    std::string_view m = rec.message;
    auto space = m.find(' ');
    if (space == 0 || space == std::string_view::npos)
        return std::nullopt;
    PrintedRecord p;
    p.driver = m.substr(0, space);
    m.remove_prefix(space + 1);
    if (!m.starts_with(rec.device))
        return std::nullopt;
    m.remove_prefix(rec.device.size());
    if (m.starts_with(": ")) {
        p.text = m.substr(2);
        return p;
    }
    if (!m.starts_with(' '))
        return std::nullopt;
    m.remove_prefix(1);
    // netdev_name() of a netdev not yet named: "bnxt_en 0000:12:00.0 (unnamed net_device)
    // (uninitialized): ..." (bnxt's probe lines).
    constexpr std::string_view kUnnamed = "(unnamed net_device)";
    if (m.starts_with(kUnnamed)) {
        m.remove_prefix(kUnnamed.size());
        return afterName(m, p);
    }
    // An interface name holds no blank and no ':' (the kernel's dev_valid_name).
    auto end = m.find_first_of(" :");
    if (end == 0 || end == std::string_view::npos)
        return std::nullopt;
    p.netdev = m.substr(0, end);
    m.remove_prefix(end);
    return afterName(m, p);
}

} // namespace nicd::plugin::sdk
