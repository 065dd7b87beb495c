// The kernel's side of NETLINK_RDMA played by a test, where this machine has no RDMA netlink (or
// no RDMA device): a connected SOCK_SEQPACKET pair, one end for sdk::RdmaStatsClient (which
// takes it as its socket), the other read by a thread that answers each request with the
// datagrams `answer(request)` returns. Every request is kept for the test to look at.
#pragma once

#include "support/rdma_netlink_messages.hpp"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

struct RdmaRequest {
    uint16_t type = 0;
    uint16_t flags = 0;
    uint32_t seq = 0;
    uint32_t dev_index = 0; // RDMA_NLDEV_ATTR_DEV_INDEX, when the request has it
    uint32_t port = 0;      // RDMA_NLDEV_ATTR_PORT_INDEX, when the request has it
    bool isStatGet() const { return type == rdmaType(RDMA_NLDEV_CMD_STAT_GET); }
    bool isDeviceDump() const
    {
        return type == rdmaType(RDMA_NLDEV_CMD_GET) && (flags & NLM_F_DUMP) == NLM_F_DUMP;
    }
};

class FakeRdmaKernel {
public:
    using Answer = std::function<std::vector<Bytes>(const RdmaRequest&)>;

    explicit FakeRdmaKernel(Answer answer) : answer_(std::move(answer))
    {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0)
            ADD_FAILURE() << "socketpair: " << std::strerror(errno);
        client_fd_ = fds[0];
        kernel_fd_ = fds[1];
        thread_ = std::thread([this] { serve(); });
    }
    ~FakeRdmaKernel()
    {
        ::shutdown(kernel_fd_, SHUT_RDWR); // wakes the thread's recv
        thread_.join();
        ::close(kernel_fd_);
        if (client_fd_ >= 0)
            ::close(client_fd_);
    }
    FakeRdmaKernel(const FakeRdmaKernel&) = delete;
    FakeRdmaKernel& operator=(const FakeRdmaKernel&) = delete;

    // The client's end, for RdmaStatsClient(fd, timeout), which closes it.
    int takeClientFd() { return std::exchange(client_fd_, -1); }

    std::vector<RdmaRequest> requests() const
    {
        std::lock_guard lock(mutex_);
        return requests_;
    }
    size_t statGets() const
    {
        size_t n = 0;
        for (const auto& r : requests())
            n += r.isStatGet() ? 1 : 0;
        return n;
    }

private:
    static RdmaRequest parse(const Bytes& msg)
    {
        RdmaRequest r;
        if (msg.size() < NLMSG_HDRLEN)
            return r;
        std::memcpy(&r.type, &msg[4], 2);
        std::memcpy(&r.flags, &msg[6], 2);
        std::memcpy(&r.seq, &msg[8], 4);
        for (size_t off = NLMSG_HDRLEN; off + NLA_HDRLEN <= msg.size();) {
            uint16_t len = 0, type = 0;
            std::memcpy(&len, &msg[off], 2);
            std::memcpy(&type, &msg[off + 2], 2);
            if (len < NLA_HDRLEN || off + len > msg.size())
                break;
            if (len == NLA_HDRLEN + 4 && type == RDMA_NLDEV_ATTR_DEV_INDEX)
                std::memcpy(&r.dev_index, &msg[off + NLA_HDRLEN], 4);
            if (len == NLA_HDRLEN + 4 && type == RDMA_NLDEV_ATTR_PORT_INDEX)
                std::memcpy(&r.port, &msg[off + NLA_HDRLEN], 4);
            off += NLA_ALIGN(len);
        }
        return r;
    }

    void serve()
    {
        Bytes buf(65536);
        for (;;) {
            ssize_t n = ::recv(kernel_fd_, buf.data(), buf.size(), 0);
            if (n <= 0)
                return;
            RdmaRequest request = parse(Bytes(buf.begin(), buf.begin() + n));
            {
                std::lock_guard lock(mutex_);
                requests_.push_back(request);
            }
            for (const Bytes& datagram : answer_(request))
                if (::send(kernel_fd_, datagram.data(), datagram.size(), MSG_NOSIGNAL) < 0)
                    return;
        }
    }

    Answer answer_;
    int client_fd_ = -1;
    int kernel_fd_ = -1;
    mutable std::mutex mutex_;
    std::vector<RdmaRequest> requests_;
    std::thread thread_;
};

} // namespace nicd::test
