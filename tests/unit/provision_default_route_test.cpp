// Management NICs are found from the kernel's routing tables as /proc shows them.
#include "provision/default_route.hpp"

#include <gtest/gtest.h>

using namespace nicd::provision;

TEST(DefaultRoute, Ipv4DefaultRouteNetdevsAreThoseWithAZeroDestinationAndMask)
{
    const char* route =
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        "eno1\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
        "eno1\t0000A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
        "ens1f0np0\t0000020A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
        // A default route that is not up (RTF_UP clear) does not count.
        "eno2\t00000000\t0101A8C0\t0002\t0\t0\t200\t00000000\t0\t0\t0\n"
        "garbage line\n";
    EXPECT_EQ(ipv4DefaultRouteNetdevs(route), (std::set<std::string>{"eno1"}));
    EXPECT_TRUE(ipv4DefaultRouteNetdevs("").empty());
}

TEST(DefaultRoute, Ipv6DefaultRouteIgnoresTheUnreachableRouteOnLo)
{
    const std::string zeros(32, '0');
    std::string route = zeros + " 00 " + zeros +
                        " 00 fe800000000000000000000000000001 00000400 "
                        "00000001 00000000 00450003 ens3f0np0\n" +
                        zeros + " 00 " + zeros + " 00 " + zeros +
                        " ffffffff 00000001 00000000 00200200       lo\n" +
                        "20010db8000000000000000000000000 40 " + zeros + " 00 " + zeros +
                        " 00000100 00000001 00000000 00000001 ens1f0np0\n";
    EXPECT_EQ(ipv6DefaultRouteNetdevs(route), (std::set<std::string>{"ens3f0np0"}));
}
