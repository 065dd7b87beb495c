#include "privilege/knob_writer.hpp"

#include "log/log.hpp"
#include "privilege/knob_files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nicd::privilege {

namespace {

KnobWriter* g_writer = nullptr; // set once before any thread starts; never freed

// The writer's loop, in the child. It touches nothing of the daemon's but its socket and
// returns never.
[[noreturn]] void serve(int sock, const std::filesystem::path& root, bool simulated)
{
    (void)::prctl(PR_SET_NAME, "nicd-knobs");
    (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
    // The daemon's own signals are its business (a terminal's ^C, a reload's SIGHUP): the
    // writer ends with the daemon's socket. systemd's SIGTERM at a stop still ends it.
    (void)::signal(SIGINT, SIG_IGN);
    (void)::signal(SIGHUP, SIG_IGN);
    (void)::signal(SIGPIPE, SIG_IGN);
    if (sock != 3 && ::dup2(sock, 3) == 3)
        sock = 3;
    (void)::close_range(static_cast<unsigned>(sock) + 1, ~0U, 0);
    KnobRoot r{::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC), root, simulated};
    const int root_err = r.fd < 0 ? errno : 0;
    char buf[kKnobMessageMax + 1];
    while (true) {
        ssize_t n = ::recv(sock, buf, sizeof buf, 0);
        if (n == 0)
            ::_exit(0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            ::_exit(1);
        }
        KnobReply reply;
        try {
            auto request = decodeKnobRequest({buf, static_cast<size_t>(n)});
            if (root_err != 0)
                reply = {root_err, root.string() + ": " + std::strerror(root_err)};
            else
                reply = applyKnobRequest(r, request);
        } catch (const plugin::sdk::DecodeError& e) {
            reply = {EPROTO, std::string("nicd's knob writer refused ") + e.what()};
        } catch (...) {
            reply = {ENOMEM, "nicd's knob writer ran out of memory"};
        }
        auto bytes = encodeKnobReply(reply);
        if (::send(sock, bytes.data(), bytes.size(), MSG_NOSIGNAL) < 0 && errno != EINTR)
            ::_exit(1);
    }
}

} // namespace

Result<std::unique_ptr<KnobWriter>> KnobWriter::start(const std::filesystem::path& root,
                                                      bool simulated)
{
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        return Error{std::string("socketpair: ") + std::strerror(errno)};
    pid_t pid = ::fork();
    if (pid < 0) {
        Error error{std::string("fork: ") + std::strerror(errno)};
        ::close(sv[0]);
        ::close(sv[1]);
        return error;
    }
    if (pid == 0) {
        ::close(sv[0]);
        serve(sv[1], root, simulated);
    }
    ::close(sv[1]);
    return std::unique_ptr<KnobWriter>(new KnobWriter(sv[0], pid, root));
}

KnobWriter::~KnobWriter()
{
    ::close(sock_);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
}

KnobReply KnobWriter::gone(int err)
{
    if (!gone_)
        log::error({},
                   "nicd's knob writer (pid {}) is gone ({}): no QoS knob can be changed "
                   "until nicd restarts",
                   pid_, std::strerror(err));
    gone_ = true;
    return {EPIPE, "nicd's knob writer (pid " + std::to_string(pid_) +
                       ") is gone: no QoS knob can be changed until nicd restarts"};
}

KnobReply KnobWriter::submit(const KnobRequest& request)
{
    const std::string bytes = encodeKnobRequest(request);
    if (bytes.size() > kKnobMessageMax)
        return {ENAMETOOLONG, "a knob path of " + std::to_string(request.path.size()) +
                                  " bytes is longer than nicd's knob writer takes"};
    std::lock_guard lock(mutex_);
    if (gone_)
        return gone(EPIPE);
    ssize_t n = 0;
    do
        n = ::send(sock_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return gone(errno);
    char buf[kKnobMessageMax];
    do
        n = ::recv(sock_, buf, sizeof buf, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return gone(n == 0 ? EPIPE : errno);
    return decodeKnobReply({buf, static_cast<size_t>(n)});
}

void installKnobWriter(std::unique_ptr<KnobWriter> writer)
{
    g_writer = writer.release();
}

const KnobWriter* installedKnobWriter()
{
    return g_writer;
}

KnobReply changeKnob(const std::filesystem::path& root, bool simulated, const KnobRequest& request)
{
    if (g_writer != nullptr && g_writer->root() == root)
        return g_writer->submit(request);
    KnobRoot r{::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC), root, simulated};
    if (r.fd < 0)
        return {errno, root.string() + ": " + std::strerror(errno)};
    auto reply = applyKnobRequest(r, request);
    ::close(r.fd);
    return reply;
}

} // namespace nicd::privilege
