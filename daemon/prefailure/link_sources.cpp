#include "prefailure/link_sources.hpp"

#include "loop/clock.hpp"
#include "prefailure/capture_files.hpp"
#include "prefailure/ethtool_netlink.hpp"
#include "prefailure/fec_stats.hpp"
#include "prefailure/module_eeprom.hpp"
#include "prefailure/uplinks.hpp"

#include <fmt/format.h>

namespace nicd::prefailure {

namespace {

using Uplinks = std::shared_ptr<std::vector<Uplink>>;

// Where the slow link sources look: every cycle's snapshot gets the uplinks of the last slow
// read (a LAG's members need a sysfs read of the bond: not in the fast cycle).
class UplinkSource : public collect::Source {
public:
    UplinkSource(HostPaths paths, SourceTiming timing, Uplinks uplinks)
        : paths_(std::move(paths)), timing_(timing), uplinks_(std::move(uplinks))
    {
    }
    std::string name() const override { return "uplinks"; }
    std::chrono::milliseconds interval() const override { return timing_.interval; }
    bool keyedByDevice() const override { return true; } // each uplink names its device
    void read(const Inventory& inventory) override
    {
        *uplinks_ = physicalUplinks(inventory, paths_);
    }
    void fill(Snapshot& snap) override { snap.uplinks = *uplinks_; }

private:
    HostPaths paths_;
    SourceTiming timing_;
    Uplinks uplinks_;
};

std::span<const uint8_t> bytesOf(const std::string& s)
{
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// The lower page, then the pages it says the module has, into one blob for the decoder.
Reply<ModuleDom> moduleFromNetlink(EthtoolNetlink& nl, const std::string& netdev)
{
    auto lower = nl.readModuleEeprom(netdev, 0x50, 0, 0, 0, 128);
    if (!lower.ok())
        return lower.failureAs<ModuleDom>();
    try {
        std::vector<uint8_t> blob(eepromBlobSize(lower.value));
        std::copy(lower.value.begin(), lower.value.end(), blob.begin());
        for (const auto& r : eepromReadPlan(lower.value)) {
            auto part =
                nl.readModuleEeprom(netdev, r.i2c_address, r.page, r.bank, r.offset, r.length);
            if (!part.ok())
                return part.failureAs<ModuleDom>();
            if (part.value.size() != r.length || r.blob_offset + r.length > blob.size())
                return Reply<ModuleDom>::failed(fmt::format("{}: page {:#04x} gave {} bytes, {} "
                                                            "asked",
                                                            netdev, r.page, part.value.size(),
                                                            r.length));
            std::copy(part.value.begin(), part.value.end(),
                      blob.begin() + static_cast<std::ptrdiff_t>(r.blob_offset));
        }
        return Reply<ModuleDom>::success(decodeModuleEeprom(blob));
    } catch (const DecodeError& e) {
        return Reply<ModuleDom>::failed(fmt::format("{}: module EEPROM: {}", netdev, e.what()));
    }
}

template <typename T>
typename KeyedSource<T>::KeysOf netdevsOf(const Uplinks& uplinks, bool ethernet_only)
{
    return [uplinks, ethernet_only](const Inventory&) {
        std::vector<typename KeyedSource<T>::Key> keys;
        for (const auto& up : *uplinks)
            if (!ethernet_only || up.link_layer == "Ethernet")
                keys.push_back({up.netdev, up.netdev});
        return keys;
    };
}

std::unique_ptr<collect::Source> fecSource(const HostPaths& paths, SourceTiming timing,
                                           const Uplinks& uplinks)
{
    auto nl = paths.simulated() ? nullptr : std::make_shared<EthtoolNetlink>(timing.timeout);
    auto read = [paths, nl](const std::string& netdev) {
        auto r = nl ? nl->readFec(netdev)
                    : decodeCapture<FecStats>(fecCapture(paths, netdev), [&](const auto& text) {
                          return parseFecJson(text, netdev);
                      });
        r.value.netdev = netdev;
        r.value.read_at = loop::monotonicSeconds();
        return r;
    };
    return std::make_unique<KeyedSource<FecStats>>(
        "fec", timing, netdevsOf<FecStats>(uplinks, true), read,
        [](const auto& values, Snapshot& snap) { snap.fec = values; });
}

std::unique_ptr<collect::Source> moduleSource(const HostPaths& paths, SourceTiming timing,
                                              const Uplinks& uplinks)
{
    auto nl = paths.simulated() ? nullptr : std::make_shared<EthtoolNetlink>(timing.timeout);
    auto read = [paths, nl](const std::string& netdev) {
        if (nl)
            return moduleFromNetlink(*nl, netdev);
        return decodeCapture<ModuleDom>(
            moduleCapture(paths, netdev),
            [](const auto& bytes) { return decodeModuleEeprom(bytesOf(bytes)); }, 64 * 1024);
    };
    return std::make_unique<KeyedSource<ModuleDom>>(
        "module eeprom", timing, netdevsOf<ModuleDom>(uplinks, false), read,
        [](const auto& values, Snapshot& snap) { snap.modules = values; });
}

} // namespace

std::vector<std::unique_ptr<collect::Source>> makeLinkSources(const HostPaths& paths,
                                                              SourceTiming timing)
{
    auto uplinks = std::make_shared<std::vector<Uplink>>();
    std::vector<std::unique_ptr<collect::Source>> out;
    out.push_back(std::make_unique<UplinkSource>(paths, timing, uplinks));
    out.push_back(fecSource(paths, timing, uplinks));
    out.push_back(moduleSource(paths, timing, uplinks));
    return out;
}

} // namespace nicd::prefailure
