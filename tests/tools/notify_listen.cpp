// notify_listen: the service manager's end of sd_notify(3), for the soak (scripts/soak.sh).
//
//   notify_listen SOCKET
//
// Binds a unix datagram socket at SOCKET (give it to the daemon as NOTIFY_SOCKET) and prints one
// line per message received, "<CLOCK_MONOTONIC microseconds> <message>", the message's newlines
// as spaces; stdout is flushed after every line. Runs until SIGTERM or SIGINT; removes SOCKET.
#include "usec_clock.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

namespace {

using nicd::test_tools::usecNow;

volatile std::sig_atomic_t stop = 0;

void onSignal(int)
{
    stop = 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        (void)std::fputs("usage: notify_listen SOCKET\n", stderr);
        return 2;
    }
    std::string path = argv[1];
    sockaddr_un addr{};
    if (path.size() >= sizeof addr.sun_path) {
        (void)std::fprintf(stderr, "notify_listen: socket path too long: %s\n", path.c_str());
        return 2;
    }
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);

    struct sigaction sa {};
    sa.sa_handler = onSignal; // no SA_RESTART: recv() returns EINTR
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);

    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        (void)std::fprintf(stderr, "notify_listen: socket: %s\n", std::strerror(errno));
        return 1;
    }
    unlink(path.c_str());
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) {
        (void)std::fprintf(stderr, "notify_listen: bind %s: %s\n", path.c_str(),
                           std::strerror(errno));
        return 1;
    }
    char buf[4096];
    while (stop == 0) {
        ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            (void)std::fprintf(stderr, "notify_listen: recv: %s\n", std::strerror(errno));
            break;
        }
        std::string msg(buf, static_cast<size_t>(n));
        while (!msg.empty() && msg.back() == '\n')
            msg.pop_back();
        for (auto& c : msg)
            if (c == '\n')
                c = ' ';
        (void)std::printf("%llu %s\n", usecNow(CLOCK_MONOTONIC), msg.c_str());
        (void)std::fflush(stdout);
    }
    close(fd);
    unlink(path.c_str());
    return 0;
}
