#include "collect/verbs_probe.hpp"

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace nicd::collect {

VerbsProbeResult probeVerbsDevice(const std::string& ibdev)
{
    VerbsProbeResult r;
    int n = 0;
    std::unique_ptr<ibv_device*, void (*)(ibv_device**)> list(ibv_get_device_list(&n),
                                                              ibv_free_device_list);
    if (!list)
        return r; // no verbs at all (no rdma-core providers, no uverbs): nothing to probe
    ibv_device* dev = nullptr;
    for (int i = 0; i < n; ++i)
        if (ibdev == ibv_get_device_name(list.get()[i]))
            dev = list.get()[i];
    if (!dev)
        return r;
    r.listed = true;
    errno = 0;
    ibv_context* ctx = ibv_open_device(dev);
    if (!ctx) {
        if (errno == EPERM || errno == EACCES) {
            r.refused = "ibv_open_device(" + ibdev + "): " + std::strerror(errno);
            return r;
        }
        // rdma-core does not always leave the cause in errno.
        r.error = "ibv_open_device(" + ibdev + ") failed" +
                  (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string());
        return r;
    }
    ibv_device_attr attr{};
    if (int e = ibv_query_device(ctx, &attr); e != 0) {
        r.error = "ibv_query_device(" + ibdev + ") failed: " + std::strerror(e);
    } else {
        for (uint8_t port = 1; port <= attr.phys_port_cnt; ++port) {
            ibv_port_attr pa{};
            if (int e = ibv_query_port(ctx, port, &pa); e != 0) {
                r.error = "ibv_query_port(" + ibdev + ", " + std::to_string(port) +
                          ") failed: " + std::strerror(e);
                break;
            }
            r.port_states.push_back(pa.state);
            // enum ibv_mtu: IBV_MTU_256 = 1 ... IBV_MTU_4096 = 5, so 128 << mtu bytes.
            r.port_active_mtus.push_back(pa.active_mtu >= IBV_MTU_256 &&
                                                 pa.active_mtu <= IBV_MTU_4096
                                             ? 128U << static_cast<unsigned>(pa.active_mtu)
                                             : 0);
        }
    }
    ibv_close_device(ctx);
    return r;
}

} // namespace nicd::collect
