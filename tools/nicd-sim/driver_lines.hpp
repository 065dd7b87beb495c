// The kernel lines a NIC driver prints when something happens to one of its devices, in the
// exact printk formats and with the device the kernel records beside the text (journald's
// trusted _KERNEL_DEVICE and _KERNEL_SUBSYSTEM), so that `inject kernel-line` writes what a real
// node's journal holds. Pure. The events themselves are each vendor's, in its catalog
// (driver_events.hpp).
#pragma once

#include <string>
#include <vector>

namespace nicd::sim {

struct DriverLine {
    std::string message;
    std::string kernel_device;    // "+pci:0000:5d:00.0"
    std::string kernel_subsystem; // "pci"
};

// What `inject kernel-line` knows for a vendor (vendor_catalog.hpp), in --help order.
std::vector<std::string> driverEvents(const std::string& vendor);

// The lines of `event` about the PCI function `bdf`, its netdev and its RDMA device, in order;
// throws SimError naming the vendor's events for an event it does not print.
std::vector<DriverLine> driverLines(const std::string& vendor, const std::string& event,
                                    const std::string& bdf, const std::string& netdev,
                                    const std::string& ibdev);

} // namespace nicd::sim
