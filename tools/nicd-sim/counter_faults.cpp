// Counter faults: bursts, steady climbs, 32-bit wraps, resets, "N/A (no PMA)"; and reading one
// counter.
#include "beneath.hpp"
#include "counter_access.hpp"
#include "vendor_catalog.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>

namespace nicd::sim {

namespace {

void refuseSetting(const CounterRef& c)
{
    if (c.spec.setting)
        throw SimError(fmt::format("{} port {}: {}/{} is a setting, not a counter", c.dev, c.port,
                                   c.group, c.name));
}

} // namespace

void addToCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                  uint64_t n, uint32_t port)
{
    LockedNode st(root);
    auto c = locateCounter(root, *st, dev, counter, port);
    refuseSetting(c);
    writeCounter(root, *st, c, advanceKeyed(*st, c.key(), c.spec, readCounter(root, *st, c), n));
    st.save();
}

void setRate(const fs::path& root, const std::string& dev, const std::string& counter,
             double per_second, uint32_t port)
{
    if (!std::isfinite(per_second) || per_second < 0)
        throw SimError(fmt::format("{} {}: the rate must be a number of 0 or more", dev, counter));
    LockedNode st(root);
    auto c = locateCounter(root, *st, dev, counter, port);
    refuseSetting(c);
    st->rates[c.key()] = per_second;
    st->carry.erase(c.key());
    st.save();
}

void wrap(const fs::path& root, const std::string& dev, const std::string& counter, uint32_t port)
{
    LockedNode st(root);
    auto c = locateCounter(root, *st, dev, counter, port);
    refuseSetting(c);
    if (c.spec.bits < 32)
        throw SimError(fmt::format("{} port {}: {} is a {}-bit counter; wrap needs one of 32 bits "
                                   "or more",
                                   dev, c.port, counter, c.spec.bits));
    st->wrap32[c.key()] = true;
    writeCounter(root, *st, c, kWrapStart);
    st.save();
}

void resetCounters(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    std::error_code ec;
    for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec))
        for (const char* group : {"counters", "hw_counters"})
            for (const auto& f : fs::directory_iterator(pe.path() / group, ec)) {
                if (counterSpec(d.vendor, group, f.path().filename().string()).setting)
                    continue;
                if (fs::is_regular_file(f.path()) && !readsNoPma(f.path()))
                    writeNumber(root, f.path(), 0);
            }
    if (auto s = st->stalled_values.find(dev); s != st->stalled_values.end())
        for (auto& [file, value] : s->second)
            value = 0;
    for (const auto& nd : d.ethtool_netdevs) {
        auto stats = readEthtool(root, nd);
        for (auto& [name, value] : stats)
            value = 0;
        writeEthtool(root, nd, stats);
    }
    std::erase_if(st->carry, [&](const auto& kv) { return kv.first.starts_with(dev + "|"); });
    st.save();
}

void refuseCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                   bool on, uint32_t port)
{
    LockedNode st(root);
    auto c = locateCounter(root, *st, dev, counter, port);
    if (c.group != "counters" && c.group != "hw_counters")
        throw SimError(fmt::format("{} port {}: {} is an ethtool statistic; only counters/ and "
                                   "hw_counters/ files can be refused",
                                   dev, c.port, counter));
    // On the file itself, beneath the node: a link planted there is refused, never followed.
    auto at = parentBeneath(root, c.file);
    struct stat file {};
    if (::fstatat(at.dir.get(), at.name.c_str(), &file, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(file.st_mode))
        throw SimError(
            fmt::format("{}: not a regular file (is {} stalled?)", c.file.string(), dev));
    if (::fchmodat(at.dir.get(), at.name.c_str(), on ? 0 : 0644, AT_SYMLINK_NOFOLLOW) != 0)
        throw SimError(
            fmt::format("cannot change the mode of {}: {}", c.file.string(), std::strerror(errno)));
}

void noPmaCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                  uint32_t port)
{
    LockedNode st(root);
    auto c = locateCounter(root, *st, dev, counter, port);
    if (c.group != "counters")
        throw SimError(fmt::format("{} port {}: {} is not in counters/; only the PMA counters "
                                   "read 'N/A (no PMA)'",
                                   dev, c.port, counter));
    if (!fs::is_regular_file(c.file))
        throw SimError(
            fmt::format("{}: not a regular file (is {} stalled?)", c.file.string(), dev));
    writeText(root, c.file, kNoPmaText);
}

bool readsNoPma(const fs::path& file)
{
    try {
        return readText(file) == kNoPmaText;
    } catch (const SimError&) {
        return false;
    }
}

uint64_t counterValue(const fs::path& root, const std::string& dev, const std::string& counter,
                      uint32_t port)
{
    LockedNode st(root);
    return readCounter(root, *st, locateCounter(root, *st, dev, counter, port));
}

} // namespace nicd::sim
