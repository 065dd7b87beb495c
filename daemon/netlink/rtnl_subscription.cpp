#include "netlink/rtnl_subscription.hpp"

#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace nicd::netlink {

RtnlSubscription::RtnlSubscription(loop::EventLoop& loop, int group, const std::string& name,
                                   size_t rcvbuf, sd_event_io_handler_t on_readable, void* userdata)
{
    fd_ = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd_ < 0)
        throw std::runtime_error("rtnetlink socket: " + std::string(std::strerror(errno)));
    if (rcvbuf > 0) {
        int size = static_cast<int>(rcvbuf);
        (void)setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &size, sizeof size); // best effort
    }
    sockaddr_nl addr{};
    addr.nl_family = AF_NETLINK;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 ||
        setsockopt(fd_, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof group) < 0) {
        int err = errno;
        close(fd_);
        throw std::runtime_error("rtnetlink " + name + ": " + std::strerror(err));
    }
    sd_event_source* s = nullptr;
    int r = sd_event_add_io(loop.get(), &s, fd_, EPOLLIN, on_readable, userdata);
    if (r < 0) {
        close(fd_);
        throw std::runtime_error("sd_event_add_io: " + std::string(std::strerror(-r)));
    }
    source_ = loop::EventSource(s);
}

RtnlSubscription::~RtnlSubscription()
{
    source_ = loop::EventSource();
    if (fd_ >= 0)
        close(fd_);
}

void drainRtnl(int fd, std::span<uint8_t> buffer,
               const std::function<void(std::span<const uint8_t>)>& on_data,
               const std::function<void()>& on_overrun)
{
    for (;;) {
        ssize_t n = recv(fd, buffer.data(), buffer.size(), 0);
        if (n >= 0) {
            on_data(buffer.first(static_cast<size_t>(n)));
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno != ENOBUFS)
            return; // EAGAIN: drained
        on_overrun();
    }
}

} // namespace nicd::netlink
