// The host's LLDP agent, lldpd, asked through its own library (liblldpctl) what it hears on each
// interface. liblldpctl ships in the lldpd package, so nicd opens it at run time (dlopen): a node
// without lldpd runs nicd all the same, and only hears no neighbours (the package recommends
// lldpd, never requires it).
//
// lldpd's socket is /run/lldpd.socket. In a --root tree (a capture from elsewhere is data) it is
// the tree's run/lldpd.socket, reached beneath the tree only: a symlink or ".." there that leads
// out is refused, never connected through, so that a tree cannot point nicd (or nicd-sim capture)
// at another daemon's socket on the host.
//
// One read is one connection: connect to lldpd's socket, list its interfaces, fetch each one's
// port and neighbours, close. The socket is nicd's own, with a deadline on every send and
// receive, so a stopped or wedged lldpd costs a read at most `timeout` per exchange and never
// blocks the cycle; an lldpd that restarts is met afresh at the next read. Never throws.
#pragma once

#include "config/host_paths.hpp"
#include "model/neighbor.hpp"

#include <chrono>
#include <filesystem>
#include <memory>

namespace nicd::neighbor {

// lldpd's socket in `paths`' tree, as messages name it.
std::filesystem::path lldpdSocket(const HostPaths& paths);

class LldpdClient {
public:
    LldpdClient(HostPaths paths, std::chrono::milliseconds timeout);
    ~LldpdClient();
    LldpdClient(const LldpdClient&) = delete;
    LldpdClient& operator=(const LldpdClient&) = delete;

    // What lldpd hears now; `available` false with the reason when liblldpctl is not installed,
    // lldpd does not answer on the socket, or an exchange failed or timed out.
    NeighborReading read();

private:
    struct Library;
    // A socket connected to lldpd's, or -1 with `why` set.
    int connectSocket(std::string& why) const;

    HostPaths paths_;
    std::filesystem::path socket_;
    std::chrono::milliseconds timeout_;
    std::unique_ptr<Library> lib_; // null when liblldpctl could not be opened
    std::string lib_error_;
};

} // namespace nicd::neighbor
