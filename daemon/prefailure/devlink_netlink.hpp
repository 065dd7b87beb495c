// The devlink health I/O edge over generic netlink: a dump of every device- and port-level health
// reporter (a request over the SDK's NetlinkRequester, built with libnl-genl-3), and a
// non-blocking subscription to the "config" multicast group (libnl-genl-3) that yields the
// DEVLINK_CMD_HEALTH_REPORTER_RECOVER notifications the kernel sends when a reporter's state
// changes. Bytes are decoded by prefailure/devlink_health.hpp.
#pragma once

#include "model/prefailure_readings.hpp"
#include "prefailure/netlink_reply.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

struct nl_msg;
struct nl_sock;

namespace nicd::prefailure {

class DevlinkNetlink {
public:
    // The family lookup, and then the whole dump (every part), each wait at most
    // `receive_timeout`. That covers a reply that never comes; a kernel thread
    // waiting on the devlink lock is not interrupted by it, so callers still run the dump under
    // their own deadline (prefailure/guarded_reads.hpp).
    explicit DevlinkNetlink(std::chrono::milliseconds receive_timeout)
        : receive_timeout_(receive_timeout)
    {
    }

    // NLM_F_DUMP of DEVLINK_CMD_HEALTH_REPORTER_GET over all devlink instances and their ports,
    // on a fresh socket each call (a late part of a timed-out dump can never be taken for the
    // next one). Ok with every reporter; when some messages could not be decoded they are left
    // out and `message` counts them and names the first problem (Ok with a message = partial).
    // Unsupported: no "devlink" family, EOPNOTSUPP or EPERM. Failed: timeout, an interrupted
    // dump (retried first), any other error; `value` then keeps what arrived before it.
    Reply<std::vector<HealthReporter>> dumpReporters();

private:
    std::chrono::milliseconds receive_timeout_;
};

class DevlinkMonitor {
public:
    DevlinkMonitor();
    ~DevlinkMonitor();
    DevlinkMonitor(const DevlinkMonitor&) = delete;
    DevlinkMonitor& operator=(const DevlinkMonitor&) = delete;
    DevlinkMonitor(DevlinkMonitor&&) = delete; // libnl holds a pointer to this object
    DevlinkMonitor& operator=(DevlinkMonitor&&) = delete;

    // Opens a non-blocking socket subscribed to devlink's "config" group, sequence checks off.
    // False, with error() saying why, when devlink (the family or the group) is missing or the
    // socket cannot be set up. True at once when already open.
    bool open();

    // The socket to watch for input (epoll, sd-event); -1 until open() succeeded.
    int fd() const;

    // Reads what is pending, never blocking, and returns the health reporters carried by
    // DEVLINK_CMD_HEALTH_REPORTER_RECOVER notifications in arrival order; every other devlink
    // notification is ignored. Reads at most kMaxReadsPerDrain datagrams per call (the socket
    // stays readable if more are left). Notifications that cannot be decoded are skipped and
    // named in error().
    std::vector<HealthReporter> drain();

    // True once after the kernel dropped notifications (receive buffer overrun): the caller
    // should dump every reporter again.
    bool takeOverrun();

    // Why open() failed, or what the last drain() skipped or hit; empty when nothing.
    const std::string& error() const { return error_; }

    static constexpr int kMaxReadsPerDrain = 256;

private:
    static int onMessage(nl_msg* msg, void* self);

    std::unique_ptr<nl_sock, void (*)(nl_sock*)> sock_;
    int family_ = -1;
    bool overrun_ = false;
    std::vector<HealthReporter> pending_;
    size_t skipped_ = 0; // notifications the last drain() could not decode
    std::string first_skip_;
    std::string error_;
};

} // namespace nicd::prefailure
