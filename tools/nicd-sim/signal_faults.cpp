// Pre-failure faults: each changes what a real tool or sysfs would show for one device, and its
// clear puts back the healthy default (create's values).
#include "counter_access.hpp"
#include "signal_state.hpp"
#include "tree_builder.hpp"
#include "vendor_catalog.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace nicd::sim {

namespace {

// At 400 Gb/s, 5e7 corrected bits a second is a pre-FEC BER of 1.25e-4: half the RS(544,514)
// limit, no packet lost yet.
constexpr double kDegradedCorrectedBitsPerSecond = 5e7;

fs::path pciDir(const fs::path& root, const SimDevice& d)
{
    return fs::canonical(root / "sys/bus/pci/devices" / d.pci_address);
}

// `list`, when it holds something: a device without `what` cannot have this fault.
template <typename List> List requireSome(List list, const std::string& dev, const char* what)
{
    if (list.empty())
        throw SimError(
            fmt::format("{} has no {} (a VF, or a card without pre-failure signals)", dev, what));
    return list;
}

} // namespace

void fecDegrade(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    for (const auto& nd : requireSome(fecNetdevs(root, d), dev, "FEC statistics")) {
        auto key =
            counterKey(dev, 1, "ethtool:" + nd, vendorCatalog(d.vendor).counters.corrected_bits);
        if (on)
            st->rates[key] = kDegradedCorrectedBitsPerSecond;
        else
            st->rates.erase(key);
    }
    st.save();
}

void opticsRxLow(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    auto netdevs = requireSome(moduleNetdevs(root, d), dev, "optical module");
    // The first module only: one weak fibre, not the whole bond.
    writeModule(root, netdevs.front(), defaultModuleKind(d.role, netdevs.front()), on);
}

void asicHot(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    std::error_code ec;
    bool found = false;
    for (const auto& e : fs::directory_iterator(pciDir(root, d) / "hwmon", ec)) {
        int milli = on ? kAsicCritMillidegrees + 3000 : kAsicHealthyMillidegrees;
        writeText(root, e.path() / "temp1_input", fmt::format("{}\n", milli));
        if (fs::exists(e.path() / "temp1_highest")) { // mlx5 keeps the peak
            auto highest = readNumber(e.path() / "temp1_highest");
            writeText(root, e.path() / "temp1_highest",
                      fmt::format("{}\n", std::max<uint64_t>(highest, uint64_t(milli))));
        }
        if (fs::exists(e.path() / "temp1_crit_alarm")) // bnxt_en's alarm follows the firmware
            writeText(root, e.path() / "temp1_crit_alarm", on ? "1\n" : "0\n");
        found = true;
    }
    if (!found)
        throw SimError(dev + " has no hwmon (a VF, or a card on a kernel before 6.6)");
}

void fwFatal(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    auto file = devlinkHealthFile(root);
    auto j = nlohmann::ordered_json::parse(readText(file));
    auto handle = "pci/" + d.pci_address;
    if (!j["health"].contains(handle))
        throw SimError(dev + " has no devlink health reporters");
    for (auto& r : j["health"][handle]) {
        if (r["reporter"] != vendorCatalog(d.vendor).fatal_reporter)
            continue;
        bool in_error = r["state"] == "error";
        if (on && !in_error) {
            r["state"] = "error";
            r["error"] = r["error"].get<uint64_t>() + 1;
        } else if (!on && in_error) {
            r["state"] = "healthy";
            r["recover"] = r["recover"].get<uint64_t>() + 1;
        }
    }
    writeText(root, file, j.dump() + "\n");
}

void pcieDowntrain(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    auto dir = pciDir(root, st->liveDevice(dev));
    writeText(root, dir / "current_link_speed", on ? "16.0 GT/s PCIe\n" : "32.0 GT/s PCIe\n");
    writeText(root, dir / "current_link_width", on ? "8\n" : "16\n");
}

void pciePathDowntrain(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    // The switch's upstream port: two bridges above the function (its downstream port, then it).
    auto upstream_port = pciDir(root, st->liveDevice(dev)).parent_path().parent_path();
    auto above = upstream_port.parent_path();
    if (!fs::exists(upstream_port / "class") || !fs::exists(above / "class"))
        throw SimError(dev +
                       " is not below a PCIe switch (an HGX profile puts each NIC below one)");
    writeText(root, upstream_port / "current_link_speed",
              on ? "16.0 GT/s PCIe\n" : "32.0 GT/s PCIe\n");
    writeText(root, upstream_port / "current_link_width", on ? "8\n" : "16\n");
}

void rateDowntrain(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    auto port = root / d.ib_dir / "ports/1";
    writeText(root, port / "rate", on ? "200 Gb/sec (2X NDR)\n" : "400 Gb/sec (4X NDR)\n");
    for (const auto& nd : d.netdevs) {
        auto speed = root / "sys/class/net" / nd / "speed";
        if (fs::exists(speed) && !readText(speed).starts_with("-1") &&
            !fs::exists(root / "sys/class/net" / nd / "bonding"))
            writeText(root, speed, on ? "200000\n" : "400000\n");
    }
}

void fwDrift(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    const auto& catalog = vendorCatalog(d.vendor);
    writeText(root, root / d.ib_dir / "fw_ver",
              std::string(on ? catalog.drifted_firmware : catalog.healthy_firmware) + "\n");
}

void fwOld(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    const auto board = readText(root / d.ib_dir / "board_id");
    for (const auto& [name, other] : st->devices) {
        if (other.removed || readText(root / other.ib_dir / "board_id") != board)
            continue;
        const auto& catalog = vendorCatalog(other.vendor);
        writeText(root, root / other.ib_dir / "fw_ver",
                  std::string(on ? catalog.outdated_firmware : catalog.healthy_firmware) + "\n");
    }
}

} // namespace nicd::sim
