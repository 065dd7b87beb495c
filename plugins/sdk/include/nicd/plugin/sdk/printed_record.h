// A kernel record about a device, read as dev_printk() printed it: "<driver> <device>: <text>",
// netdev_printk's "<driver> <device> <netdev>: <text>" (with " (unregistering)" and the like after
// a netdev that is not registered), ibdev_printk's "<driver> <device> <ibdev>: <text>". A plugin
// looks for its patterns in <text> only after this prefix has been checked against the device
// journald recorded (KernelRecord::device), never anywhere in a line. Pure, no allocation.
#pragma once

#include <nicd/plugin/plugin.h>

#include <optional>
#include <string_view>

namespace nicd::plugin::sdk {

struct PrintedRecord {
    std::string_view driver; // "mlx5_core", "bnxt_en", "pcieport", "infiniband"
    std::string_view netdev; // netdev_printk's interface name (or ibdev_printk's device); or empty
    std::string_view text;   // after the prefix
};

// The record's prefix and text, where <device> is the record's own device; nullopt for a record
// with no device, or a message that does not start so.
std::optional<PrintedRecord> printedAbout(const v1::KernelRecord& rec);

// True when `text` starts with a PCI address "0000:3b:00.0" (four, two and two hex digits, then
// the function's).
bool startsWithPciAddress(std::string_view text);

} // namespace nicd::plugin::sdk
