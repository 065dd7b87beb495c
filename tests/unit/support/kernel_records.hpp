// Kernel lines as the kernel logs them, for tests. A line quoted in a bug report carries the log's
// own prefix ("[ 36.447442] ", "b1360: ", "host kernel: "); the kernel's record is the message
// after it, and, for a line dev_printk() printed ("mlx5_core 0000:3b:00.0: ...", netdev_printk's
// "mlx5_core 0000:13:00.1 eth1: ...", "infiniband mlx5_0: ..."), the device it was printed about,
// which the kernel stores beside the text and journald keeps as _KERNEL_DEVICE/_KERNEL_SUBSYSTEM.
// A forged line (text that merely looks like dev_printk's) is built with deviceLess().
#pragma once

#include "kernel_log/trusted_fields.hpp"

#include <nicd/plugin/plugin.h>

#include <cctype>
#include <regex>
#include <string>
#include <string_view>

namespace nicd::test {

struct LoggedLine {
    std::string message;
    std::string kernel_device;    // "+pci:0000:3b:00.0"; empty: none
    std::string kernel_subsystem; // "pci"
    KernelOrigin origin;          // as nicd reads the two fields

    plugin::v1::KernelRecord record() const { return {message, origin.subsystem, origin.device}; }
};

inline LoggedLine deviceLess(std::string message)
{
    return {std::move(message), "", "", {}};
}

// A line the kernel printed about `subsystem`/`device` ("pci", "0000:3b:00.0").
inline LoggedLine printedAbout(std::string subsystem, std::string device, std::string message)
{
    LoggedLine l{std::move(message), "+" + subsystem + ":" + device, subsystem, {}};
    l.origin = {l.kernel_subsystem, device};
    return l;
}

// The record of a verbatim log line: its prefix dropped, its device as dev_printk recorded it.
inline LoggedLine logged(std::string_view verbatim)
{
    static const std::regex prefix(
        R"(^(?:[A-Za-z0-9]+: )?(?:\d+ ?)?(?:\[[^\]]*\] ?)?(?:\S+ kernel: )?)");
    static const std::regex pci(R"(^\S+ ([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])[ :])");
    static const std::regex ibdev(R"(^infiniband (\S+): )");
    std::string line(verbatim);
    std::smatch m;
    std::string message = std::regex_search(line, m, prefix) ? m.suffix().str() : line;
    if (std::regex_search(message, m, pci))
        return printedAbout("pci", m[1].str(), message);
    if (std::regex_search(message, m, ibdev))
        return printedAbout("infiniband", m[1].str(), message);
    return deviceLess(message);
}

} // namespace nicd::test
