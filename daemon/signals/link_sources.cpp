#include "signals/link_sources.hpp"

#include "loop/clock.hpp"
#include "signals/capture_files.hpp"
#include "signals/decode_error.hpp"
#include "signals/ethtool_netlink.hpp"
#include "signals/fec_stats.hpp"
#include "signals/module_eeprom.hpp"
#include "signals/uplinks.hpp"

#include <fmt/format.h>

namespace nicd::signals {

namespace {

// A reply that is not Ok, as an outcome of type T.
template <typename T, typename R> ReadOutcome<T> failureOf(R reply)
{
    if (reply.status == R::Status::Unsupported)
        return ReadOutcome<T>::missing(std::move(reply.message));
    return ReadOutcome<T>::failed(std::move(reply.message));
}

template <typename T> ReadOutcome<T> fromReply(Reply<T> reply)
{
    if (reply.ok())
        return ReadOutcome<T>::ok(std::move(reply.value));
    return failureOf<T>(std::move(reply));
}

ReadOutcome<FecStats> fecFromCapture(const HostPaths& paths, const std::string& netdev)
{
    auto file = fecCapture(paths, netdev);
    auto text = readCapture(file);
    if (text.status != ReadStatus::Ok)
        return {text.status, {}, text.message};
    try {
        return ReadOutcome<FecStats>::ok(parseFecJson(text.value, netdev));
    } catch (const DecodeError& e) {
        return ReadOutcome<FecStats>::failed(fmt::format("{}: {}", file.string(), e.what()));
    }
}

ReadOutcome<ModuleDom> moduleFromCapture(const HostPaths& paths, const std::string& netdev)
{
    auto file = moduleCapture(paths, netdev);
    auto bytes = readCapture(file, 64 * 1024);
    if (bytes.status != ReadStatus::Ok)
        return {bytes.status, {}, bytes.message};
    try {
        const auto* data = reinterpret_cast<const uint8_t*>(bytes.value.data());
        return ReadOutcome<ModuleDom>::ok(
            decodeModuleEeprom(std::span<const uint8_t>(data, bytes.value.size())));
    } catch (const DecodeError& e) {
        return ReadOutcome<ModuleDom>::failed(fmt::format("{}: {}", file.string(), e.what()));
    }
}

// The lower page, then the pages it says the module has, into one blob for the decoder.
ReadOutcome<ModuleDom> moduleFromNetlink(EthtoolNetlink& nl, const std::string& netdev)
{
    auto lower = nl.readModuleEeprom(netdev, 0x50, 0, 0, 0, 128);
    if (!lower.ok())
        return failureOf<ModuleDom>(std::move(lower));
    try {
        std::vector<uint8_t> blob(eepromBlobSize(lower.value));
        std::copy(lower.value.begin(), lower.value.end(), blob.begin());
        for (const auto& r : eepromReadPlan(lower.value)) {
            auto part =
                nl.readModuleEeprom(netdev, r.i2c_address, r.page, r.bank, r.offset, r.length);
            if (!part.ok())
                return failureOf<ModuleDom>(std::move(part));
            if (part.value.size() != r.length || r.blob_offset + r.length > blob.size())
                return ReadOutcome<ModuleDom>::failed(
                    fmt::format("{}: page {:#04x} gave {} bytes, {} asked", netdev, r.page,
                                part.value.size(), r.length));
            std::copy(part.value.begin(), part.value.end(),
                      blob.begin() + static_cast<std::ptrdiff_t>(r.blob_offset));
        }
        return ReadOutcome<ModuleDom>::ok(decodeModuleEeprom(blob));
    } catch (const DecodeError& e) {
        return ReadOutcome<ModuleDom>::failed(
            fmt::format("{}: module EEPROM: {}", netdev, e.what()));
    }
}

std::vector<std::string> uplinkNetdevs(const Inventory& inventory, const HostPaths& paths,
                                       bool ethernet_only)
{
    std::vector<std::string> out;
    for (const auto& up : physicalUplinks(inventory, paths))
        if (!ethernet_only || up.link_layer == "Ethernet")
            out.push_back(up.netdev);
    return out;
}

} // namespace

void UplinkSource::read(const Inventory& inventory)
{
    uplinks_ = physicalUplinks(inventory, paths_);
}

FecSource::FecSource(HostPaths paths, SourceTiming timing)
    : KeyedSource("fec", timing), paths_(std::move(paths))
{
    if (!paths_.simulated())
        netlink_ = std::make_shared<EthtoolNetlink>(timing.timeout);
}

std::vector<std::string> FecSource::keysOf(const Inventory& inventory)
{
    return uplinkNetdevs(inventory, paths_, true);
}

FecSource::ReadOne FecSource::reader()
{
    return [paths = paths_, nl = netlink_](const std::string& netdev) {
        auto r = nl ? fromReply<FecStats>(nl->readFec(netdev)) : fecFromCapture(paths, netdev);
        r.value.netdev = netdev;
        r.value.read_at = monotonicSeconds();
        return r;
    };
}

ModuleSource::ModuleSource(HostPaths paths, SourceTiming timing)
    : KeyedSource("module eeprom", timing), paths_(std::move(paths))
{
    if (!paths_.simulated())
        netlink_ = std::make_shared<EthtoolNetlink>(timing.timeout);
}

std::vector<std::string> ModuleSource::keysOf(const Inventory& inventory)
{
    return uplinkNetdevs(inventory, paths_, false);
}

ModuleSource::ReadOne ModuleSource::reader()
{
    return [paths = paths_, nl = netlink_](const std::string& netdev) {
        return nl ? moduleFromNetlink(*nl, netdev) : moduleFromCapture(paths, netdev);
    };
}

} // namespace nicd::signals
