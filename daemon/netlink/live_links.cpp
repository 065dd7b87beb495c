#include "netlink/live_links.hpp"

namespace nicd::netlink {

std::optional<NetdevState> LiveLinks::update(const LinkEvent& ev)
{
    if (ev.removed) {
        live_.erase(ev.name);
        return std::nullopt;
    }
    NetdevState st;
    st.name = ev.name;
    st.ifindex = ev.ifindex;
    st.operstate = ev.operstate ? operstateName(*ev.operstate) : "unknown";
    st.carrier = ev.carrier;
    auto old = live_.find(ev.name);
    bool changed = old == live_.end() || old->second.operstate != st.operstate ||
                   old->second.carrier != st.carrier;
    live_[ev.name] = st;
    if (!changed)
        return std::nullopt;
    return st;
}

void LiveLinks::applyTo(Snapshot& snap) const
{
    for (auto& [name, state] : snap.netdevs) {
        auto it = live_.find(name);
        if (it != live_.end())
            state = it->second;
    }
}

} // namespace nicd::netlink
