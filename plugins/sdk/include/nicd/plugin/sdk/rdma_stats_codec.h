// The bytes of RDMA netlink's device interface (NETLINK_RDMA, client RDMA_NL_NLDEV) that read a
// port's hw counters in one message: the requests built, the kernel's answers matched to them and
// decoded. Pure: no socket here (rdma_stats_client.h is the socket half), so that tests and the
// fuzzer feed it bytes. Every length is checked against the bytes actually there before use.
//
// The layout is include/uapi/rdma/rdma_netlink.h; what the kernel sends is
// drivers/infiniband/core/nldev.c: RDMA_NLDEV_CMD_GET (a dump: one message per device with
// RDMA_NLDEV_ATTR_DEV_INDEX and _DEV_NAME) and RDMA_NLDEV_CMD_STAT_GET for a device index and a
// port without RDMA_NLDEV_ATTR_STAT_RES (stat_get_doit_default_counter: one message with the
// device's index, name, the port and the nest RDMA_NLDEV_ATTR_STAT_HWCOUNTERS of
// _STAT_HWCOUNTER_ENTRY nests, each an _ENTRY_NAME string and an _ENTRY_VALUE u64). The values are
// those the port's sysfs hw_counters/ files print (the driver's value plus any bound counters');
// optional counters (IB_STAT_FLAG_OPTIONAL, never in sysfs) are in the reply only once enabled
// with `rdma statistic set link DEV/PORT optional-counters ...`. Linux 5.3 and later answer;
// earlier kernels, and devices whose driver keeps no port counters, refuse with EINVAL.
#pragma once

#include <nicd/plugin/sdk/netlink_answer.h>
#include <nicd/plugin/sdk/netlink_attrs.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::plugin::sdk {

// One port's hw counters: names and values, the names kept in one buffer so that a reader
// that reuses it allocates nothing once it has seen a port's reply.
class RdmaHwCounters {
public:
    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    std::string_view name(size_t i) const
    {
        return std::string_view(names_).substr(entries_[i].offset, entries_[i].length);
    }
    uint64_t value(size_t i) const { return entries_[i].value; }
    void clear();
    void add(std::string_view name, uint64_t value);
    // Sorts by name, bytewise (the order of a sorted directory listing). Throws DecodeError
    // on a name that appears twice.
    void sortByName();

private:
    struct Entry {
        uint32_t offset = 0;
        uint32_t length = 0;
        uint64_t value = 0;
    };
    std::string names_;
    std::vector<Entry> entries_;
};

// What a STAT_GET reply says it is about. `dev_name` points into the bytes decoded.
struct RdmaStatHeader {
    uint32_t dev_index = 0;
    std::string_view dev_name;
    uint32_t port = 0;
};

// An RDMA device as RDMA_NLDEV_CMD_GET lists it.
struct RdmaDevice {
    uint32_t index = 0;
    std::string name;
};

// The netlink message type of an RDMA_NLDEV_CMD_*: RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd).
uint16_t rdmaNldevType(uint8_t cmd);

// A whole request message (nlmsghdr and attributes) written into `out`: STAT_GET of one port
// (NLM_F_REQUEST alone: the kernel answers with the reply or an NLMSG_ERROR, never both), and the
// dump of every device (NLM_F_REQUEST | NLM_F_DUMP).
void buildStatGetRequest(uint32_t seq, uint32_t dev_index, uint32_t port,
                         std::vector<uint8_t>& out);
void buildDeviceDumpRequest(uint32_t seq, std::vector<uint8_t>& out);

// Decodes the attributes of a STAT_GET reply (the bytes after its nlmsghdr): the header it
// returns, the counters into `counters` (cleared first), sorted by name. Requires the device
// index, name and port and exactly one counter table; each entry needs exactly one name (a
// non-empty NUL-terminated string without '/', as a sysfs file name) and one 8-byte value.
// Padding attributes (type 0) and attribute types it does not know are skipped; a name that
// appears twice, a length that runs past its nest, or a known attribute of the wrong size throws
// DecodeError.
RdmaStatHeader decodeStatGetReply(std::span<const uint8_t> attrs, RdmaHwCounters& counters);

// Decodes the attributes of one RDMA_NLDEV_CMD_GET message: the device's index and name.
RdmaDevice decodeDeviceMessage(std::span<const uint8_t> attrs);

// What the kernel has said so far about one request: the SDK's one answer (netlink_answer.h).
using RdmaAnswer = NetlinkAnswer;

// absorbNetlinkDatagram (netlink_answer.h) for an RDMA request: a single-message one (`dump`
// false: STAT_GET) or a dump (the device list), its errors worded "RDMA netlink ...".
void absorbRdmaDatagram(std::span<const uint8_t> datagram, uint32_t seq, uint16_t type, bool dump,
                        RdmaAnswer& answer);

} // namespace nicd::plugin::sdk
