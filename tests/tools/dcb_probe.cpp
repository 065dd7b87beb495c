// dcb_probe: sends nicd's DCB requests the way the mlx5 plugin does, for the iproute2
// comparison test (tests/integration/dcb_iproute2_test.sh).
//
//   dcb_probe get DEV                       IEEE_GET; prints PFC and the APP table
//   dcb_probe app-add DEV DSCP:PRIO...      one IEEE_SET with these DSCP APP entries
//   dcb_probe app-del DEV DSCP:PRIO...      one IEEE_DEL with these DSCP APP entries
//   dcb_probe pfc-set DEV PRIO[,PRIO...]    IEEE_GET, then IEEE_SET of the PFC read with only
//                                           the enable bits changed (as `dcb pfc set`)
//
// Prints "ok" or the plugin's error message; exits 0 on success, 1 on a DCB error, 2 on usage.
#include "qos/trust_plan.hpp"

#include <nicd/plugin/sdk/dcb_client.h>

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

using namespace nicd::mlx5;
using nicd::plugin::sdk::DcbClient;

namespace {

int usage()
{
    (void)std::fputs("usage: dcb_probe get|app-add|app-del|pfc-set DEV [ARGS...]\n", stderr);
    return 2;
}

bool number(std::string_view s, unsigned max, unsigned& out)
{
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size() && out <= max;
}

bool parseApps(int argc, char** argv, std::vector<dcb::App>& out)
{
    for (int i = 3; i < argc; ++i) {
        std::string_view arg = argv[i];
        auto colon = arg.find(':');
        unsigned dscp = 0, prio = 0;
        if (colon == std::string_view::npos || !number(arg.substr(0, colon), 63, dscp) ||
            !number(arg.substr(colon + 1), 7, prio))
            return false;
        out.push_back(
            {dcb::kSelectorDscp, static_cast<uint8_t>(prio), static_cast<uint16_t>(dscp)});
    }
    return !out.empty();
}

int report(const nicd::plugin::v1::Status& s)
{
    std::puts(s ? "ok" : s.message.c_str());
    return s ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3)
        return usage();
    const std::string cmd = argv[1];
    const std::string dev = argv[2];
    DcbClient client;
    if (cmd == "get") {
        dcb::DcbState st;
        auto s = client.get(dev, st);
        if (!s)
            return report(s);
        std::printf("pfc %s\n", st.pfc ? describePfc(st.pfc->enabled).c_str() : "unknown");
        for (const auto& a : st.apps)
            std::printf("app %u,%u,%u\n", a.selector, a.priority, a.protocol);
        return 0;
    }
    if (cmd == "app-add" || cmd == "app-del") {
        std::vector<dcb::App> apps;
        if (!parseApps(argc, argv, apps))
            return usage();
        return report(cmd == "app-add" ? client.set(dev, std::nullopt, apps)
                                       : client.del(dev, apps));
    }
    if (cmd == "pfc-set" && argc == 4) {
        std::vector<uint8_t> prios;
        std::string_view list = argv[3];
        while (!list.empty()) {
            auto comma = list.find(',');
            unsigned p = 0;
            if (!number(list.substr(0, comma), 7, p))
                return usage();
            prios.push_back(static_cast<uint8_t>(p));
            list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
        }
        dcb::DcbState st;
        if (auto s = client.get(dev, st); !s)
            return report(s);
        if (!st.pfc)
            return report(nicd::plugin::v1::Status::fail(nicd::plugin::v1::Errc::NotSupported,
                                                         "netdev " + dev + ": no PFC"));
        return report(client.set(dev, planPfc(*st.pfc, *pfcMask(prios)), {}));
    }
    return usage();
}
