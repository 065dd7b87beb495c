#include "netdev_stats.hpp"

#include "ethtool_ioctl.hpp"
#include "ethtool_text.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

pv1::Status readNetdevStats(const std::string& root, bool simulated, const std::string& netdev,
                            Stats& out)
{
    out.clear();
    if (!simulated)
        return readEthtoolIoctl(netdev, out);
    const std::string path = root + "/run/nicd-sim/ethtool/" + netdev;
    std::ifstream in(path);
    if (!in) {
        const int err = errno;
        if (err == ENOENT)
            return pv1::Status::fail(pv1::Errc::NotSupported, path + ": no simulated statistics",
                                     err);
        return pv1::Status::fail(pv1::Errc::Io, path + ": " + std::strerror(err), err);
    }
    std::stringstream text;
    text << in.rdbuf();
    out = parseEthtoolText(text.str());
    return pv1::Status::ok();
}

} // namespace nicd::mlx5
