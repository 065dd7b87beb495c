// The kernel lines a NIC driver prints when something happens to one of its devices, as data: each
// vendor's events (its catalog's `driver_events`, vendor_catalog.hpp) are named lists of printk
// texts, each with the device prefix dev_printk and its wrappers print before it. driver_lines.hpp
// turns them into a journal's lines for one device. Sources: bnxt, bnxt.c, bnxt_hwrm.c,
// qplib_rcfw.c and bnxt_re main.c; mlx5, real lines of a public kernel log.
#pragma once

#include <vector>

namespace nicd::sim {

// How the line's text starts, as dev_printk and its wrappers print it about the PCI function.
enum class DriverLinePrefix {
    Function, // dev_*(&pdev->dev, ...):            "bnxt_en 0000:5d:00.0: "
    Netdev,   // netdev_*(dev, ...):                "bnxt_en 0000:5d:00.0 ens4f0np0: "
    Ibdev,    // ibdev_*(&rdev->ibdev, ...), parent: "bnxt_en 0000:5d:00.0 bnxt_re0: "
};

struct DriverLineText {
    DriverLinePrefix prefix;
    const char* text;
};

struct DriverEvent {
    const char* name; // what `inject kernel-line EVENT` takes
    std::vector<DriverLineText> lines;
};

// Each vendor's events, in --help order (its catalog points at one).
const std::vector<DriverEvent>& mlx5DriverEvents();
const std::vector<DriverEvent>& bnxtDriverEvents();

} // namespace nicd::sim
