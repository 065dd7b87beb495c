#include "textfile/write_pace.hpp"

#include <functional>
#include <string_view>

namespace nicd::textfile {

namespace {

class Digest {
public:
    Digest& operator<<(std::string_view s)
    {
        mix(std::hash<std::string_view>{}(s));
        return *this;
    }
    Digest& operator<<(uint64_t v)
    {
        mix(v);
        return *this;
    }
    uint64_t value() const { return h_; }

private:
    void mix(uint64_t v) { h_ ^= v + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2); }
    uint64_t h_ = 0;
};

} // namespace

uint64_t verdictDigest(const Snapshot& snap)
{
    Digest d;
    const auto& h = snap.health;
    d << h.last_event_seq << static_cast<uint64_t>(h.node);
    for (const auto& [dev, health] : h.devices)
        d << dev << static_cast<uint64_t>(health);
    for (const auto& [port, health] : h.ports)
        d << port.first << uint64_t{port.second} << static_cast<uint64_t>(health);
    for (const auto& c : h.conditions)
        d << c.device << uint64_t{c.port} << c.code << static_cast<uint64_t>(c.severity);
    for (const auto& [port, c] : h.congestion)
        d << port.first << uint64_t{port.second} << c.state;
    for (const auto& dev : snap.inventory.devices) {
        d << dev.ibdev << dev.fw_ver << static_cast<uint64_t>(dev.role);
        for (const auto& p : dev.ports)
            d << uint64_t{p.num} << static_cast<uint64_t>(p.state.value_or(-1))
              << static_cast<uint64_t>(p.phys_state.value_or(-1)) << p.rate;
    }
    for (const auto& [name, nd] : snap.netdevs)
        d << name << nd.operstate << static_cast<uint64_t>(nd.carrier.value_or(false));
    for (const auto& [port, q] : snap.qos.ports) {
        d << port.first << uint64_t{port.second} << uint64_t{q.managed};
        for (const auto& s : q.settings)
            d << s.setting << s.observed << uint64_t{s.compliant};
    }
    d << snap.qos.last_apply_result;
    for (const auto& p : snap.plugins)
        d << p.name << static_cast<uint64_t>(p.state);
    return d.value();
}

bool TextfilePace::due(const Snapshot& snap, uint64_t now_usec) const
{
    if (interval_usec_ == 0 || !written_ || now_usec < last_usec_ ||
        now_usec - last_usec_ >= interval_usec_)
        return true;
    return verdictDigest(snap) != last_digest_;
}

void TextfilePace::written(const Snapshot& snap, uint64_t now_usec)
{
    written_ = true;
    last_usec_ = now_usec;
    if (interval_usec_ != 0)
        last_digest_ = verdictDigest(snap);
}

} // namespace nicd::textfile
