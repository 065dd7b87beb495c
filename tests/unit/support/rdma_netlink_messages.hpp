// RDMA netlink messages (NETLINK_RDMA, client RDMA_NL_NLDEV) laid out by hand as the kernel's
// nldev.c sends them (include/uapi/rdma/rdma_netlink.h), in host byte order: the STAT_GET reply
// with its hw counter table, a device of the RDMA_NLDEV_CMD_GET dump, NLMSG_DONE and NLMSG_ERROR.
#pragma once

#include "support/netlink_attrs.hpp"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace nicd::test {

using HwCounterList = std::vector<std::pair<std::string, uint64_t>>;

constexpr uint16_t rdmaType(uint8_t cmd)
{
    return static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd));
}

// NLMSG_DONE ending a dump, with its status.
inline Bytes nlDone(uint32_t seq, int error = 0)
{
    int32_t status = -error;
    Bytes payload(sizeof status);
    std::memcpy(payload.data(), &status, sizeof status);
    return nlmsg(NLMSG_DONE, NLM_F_MULTI, seq, payload);
}

// One RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY as rdma_nl_stat_hwcounter_entry() puts it (the value
// through nla_put_u64_64bit: a zero-length pad attribute first where the u64 would not be
// 8-aligned; x86-64 does without, so `pad` says whether to put one).
inline Attrs hwCounterEntry(const std::string& name, uint64_t value, bool pad = false)
{
    Attrs entry;
    entry.str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
    if (pad)
        entry.raw(RDMA_NLDEV_ATTR_PAD, nullptr, 0);
    entry.u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, value);
    return entry;
}

inline Attrs hwCounterTable(const HwCounterList& counters)
{
    Attrs table;
    for (const auto& [name, value] : counters)
        table.nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY | NLA_F_NESTED,
                   hwCounterEntry(name, value));
    return table;
}

// The attributes of stat_get_doit_default_counter()'s reply: the device handle, the port, the
// counter table.
inline Bytes statReplyAttrs(uint32_t index, const std::string& name, uint32_t port,
                            const HwCounterList& counters)
{
    return Attrs()
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, index)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, name)
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, port)
        .nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS | NLA_F_NESTED, hwCounterTable(counters))
        .bytes;
}

inline Bytes statReply(uint32_t seq, uint32_t index, const std::string& name, uint32_t port,
                       const HwCounterList& counters)
{
    return nlmsg(rdmaType(RDMA_NLDEV_CMD_STAT_GET), 0, seq,
                 statReplyAttrs(index, name, port, counters));
}

// One device of the RDMA_NLDEV_CMD_GET dump (fill_dev_info: the handle, then more the decoder
// skips: the last port's number and the firmware version here).
inline Bytes deviceMessage(uint32_t seq, uint32_t index, const std::string& name)
{
    return nlmsg(rdmaType(RDMA_NLDEV_CMD_GET), NLM_F_MULTI, seq,
                 Attrs()
                     .u32(RDMA_NLDEV_ATTR_DEV_INDEX, index)
                     .str(RDMA_NLDEV_ATTR_DEV_NAME, name)
                     .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)
                     .str(RDMA_NLDEV_ATTR_FW_VERSION, "28.41.1000")
                     .bytes);
}

// The whole dump in one datagram: each device's message, then NLMSG_DONE.
inline Bytes deviceDump(uint32_t seq, const std::vector<std::pair<uint32_t, std::string>>& devices)
{
    Bytes out;
    for (const auto& [index, name] : devices) {
        Bytes msg = deviceMessage(seq, index, name);
        out.insert(out.end(), msg.begin(), msg.end());
    }
    Bytes done = nlDone(seq);
    out.insert(out.end(), done.begin(), done.end());
    return out;
}

} // namespace nicd::test
