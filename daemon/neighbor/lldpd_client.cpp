#include "neighbor/lldpd_client.hpp"

#include "neighbor/lldpcli_json.hpp"
#include "paths/beneath.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <lldpctl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <type_traits>

namespace nicd::neighbor {

namespace {

constexpr const char* kSocket = "/run/lldpd.socket";

// The soname Debian's lldpd ships (liblldpctl4 before bookworm folded it into lldpd).
constexpr const char* kLibrary = "liblldpctl.so.4";
constexpr size_t kMaxString = 255;

std::string bounded(const char* s)
{
    if (!s)
        return {};
    std::string out(s, strnlen(s, kMaxString));
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = '?'; // a neighbour's name is text someone else typed: no control bytes
    return out;
}

// The socket nicd owns for one read: every send and receive waits at most the deadline.
struct Channel {
    int fd = -1;
    int timeout_ms = 1000;
    bool timed_out = false;
    int error = 0;

    ~Channel()
    {
        if (fd >= 0)
            ::close(fd);
    }
    bool wait(short events)
    {
        pollfd p{fd, events, 0};
        int rc;
        do
            rc = ::poll(&p, 1, timeout_ms);
        while (rc < 0 && errno == EINTR);
        if (rc == 0)
            timed_out = true;
        if (rc < 0)
            error = errno;
        return rc > 0;
    }
};

ssize_t channelSend(lldpctl_conn_t*, const uint8_t* data, size_t length, void* user)
{
    auto* ch = static_cast<Channel*>(user);
    if (!ch->wait(POLLOUT))
        return LLDPCTL_ERR_CALLBACK_FAILURE;
    ssize_t n = ::send(ch->fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
        ch->error = errno;
        return LLDPCTL_ERR_CALLBACK_FAILURE;
    }
    return n;
}

ssize_t channelRecv(lldpctl_conn_t*, const uint8_t* data, size_t length, void* user)
{
    auto* ch = static_cast<Channel*>(user);
    if (!ch->wait(POLLIN))
        return LLDPCTL_ERR_CALLBACK_FAILURE;
    // liblldpctl hands a buffer it allocated for exactly this read.
    ssize_t n = ::recv(ch->fd, const_cast<uint8_t*>(data), length, MSG_DONTWAIT);
    if (n < 0) {
        ch->error = errno;
        return LLDPCTL_ERR_CALLBACK_FAILURE;
    }
    return n;
}

} // namespace

// liblldpctl's functions nicd calls, looked up once.
struct LldpdClient::Library {
    void* handle = nullptr;
    decltype(&::lldpctl_new) lldpctl_new = nullptr;
    decltype(&::lldpctl_release) lldpctl_release = nullptr;
    decltype(&::lldpctl_last_error) lldpctl_last_error = nullptr;
    decltype(&::lldpctl_strerror) lldpctl_strerror = nullptr;
    decltype(&::lldpctl_get_interfaces) lldpctl_get_interfaces = nullptr;
    decltype(&::lldpctl_get_port) lldpctl_get_port = nullptr;
    decltype(&::lldpctl_atom_get) lldpctl_atom_get = nullptr;
    decltype(&::lldpctl_atom_get_str) lldpctl_atom_get_str = nullptr;
    decltype(&::lldpctl_atom_get_int) lldpctl_atom_get_int = nullptr;
    decltype(&::lldpctl_atom_get_buffer) lldpctl_atom_get_buffer = nullptr;
    decltype(&::lldpctl_atom_iter) lldpctl_atom_iter = nullptr;
    decltype(&::lldpctl_atom_iter_next) lldpctl_atom_iter_next = nullptr;
    decltype(&::lldpctl_atom_iter_value) lldpctl_atom_iter_value = nullptr;
    decltype(&::lldpctl_atom_dec_ref) lldpctl_atom_dec_ref = nullptr;

    ~Library()
    {
        if (handle)
            ::dlclose(handle);
    }

    // Opens the library; the reason in words when it cannot.
    std::string open()
    {
        handle = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
        if (!handle)
            return fmt::format("{} not installed (the lldpd package): {}", kLibrary, ::dlerror());
        bool ok = true;
        auto find = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle, name));
            ok = ok && fn;
        };
        find(lldpctl_new, "lldpctl_new");
        find(lldpctl_release, "lldpctl_release");
        find(lldpctl_last_error, "lldpctl_last_error");
        find(lldpctl_strerror, "lldpctl_strerror");
        find(lldpctl_get_interfaces, "lldpctl_get_interfaces");
        find(lldpctl_get_port, "lldpctl_get_port");
        find(lldpctl_atom_get, "lldpctl_atom_get");
        find(lldpctl_atom_get_str, "lldpctl_atom_get_str");
        find(lldpctl_atom_get_int, "lldpctl_atom_get_int");
        find(lldpctl_atom_get_buffer, "lldpctl_atom_get_buffer");
        find(lldpctl_atom_iter, "lldpctl_atom_iter");
        find(lldpctl_atom_iter_next, "lldpctl_atom_iter_next");
        find(lldpctl_atom_iter_value, "lldpctl_atom_iter_value");
        find(lldpctl_atom_dec_ref, "lldpctl_atom_dec_ref");
        return ok ? std::string() : fmt::format("{} lacks a function nicd calls", kLibrary);
    }

    // Calls fn(value) for each element of a list atom, as lldpctl_atom_foreach does (the next
    // element first, then the value released), until fn returns false; then releases the list,
    // which the caller hands over (lldpctl_atom_get returns a reference of its own).
    template <typename Fn> void forEach(lldpctl_atom_t* list, Fn fn)
    {
        if (!list)
            return;
        lldpctl_atom_iter_t* it = lldpctl_atom_iter(list);
        while (it) {
            lldpctl_atom_t* value = lldpctl_atom_iter_value(list, it);
            if (!value)
                break;
            bool more = fn(value);
            it = more ? lldpctl_atom_iter_next(list, it) : nullptr;
            lldpctl_atom_dec_ref(value);
        }
        lldpctl_atom_dec_ref(list);
    }

    std::string str(lldpctl_atom_t* atom, lldpctl_key_t key)
    {
        return bounded(lldpctl_atom_get_str(atom, key));
    }

    std::vector<uint8_t> buffer(lldpctl_atom_t* atom, lldpctl_key_t key)
    {
        size_t length = 0;
        const uint8_t* p = lldpctl_atom_get_buffer(atom, key, &length);
        if (!p)
            return {};
        return {p, p + std::min<size_t>(length, 507)};
    }

    LldpNeighbor neighbor(lldpctl_atom_t* port)
    {
        LldpNeighbor n;
        lldpctl_atom_t* chassis = lldpctl_atom_get(port, lldpctl_k_port_chassis);
        lldpctl_atom_t* c = chassis ? chassis : port; // lldpd before 0.9 kept both on the port
        n.chassis_id = str(c, lldpctl_k_chassis_id);
        n.chassis_id_type = str(c, lldpctl_k_chassis_id_subtype);
        n.system_name = str(c, lldpctl_k_chassis_name);
        forEach(lldpctl_atom_get(c, lldpctl_k_chassis_mgmt), [&](lldpctl_atom_t* mgmt) {
            n.mgmt_address = str(mgmt, lldpctl_k_mgmt_ip);
            return n.mgmt_address.empty();
        });
        n.port_id = str(port, lldpctl_k_port_id);
        n.port_id_type = str(port, lldpctl_k_port_id_subtype);
        n.port_descr = str(port, lldpctl_k_port_descr);
        long ttl = lldpctl_atom_get_int(port, lldpctl_k_port_ttl);
        if (ttl <= 0)
            ttl = lldpctl_atom_get_int(c, lldpctl_k_chassis_ttl);
        n.ttl_seconds = ttl > 0 ? static_cast<uint32_t>(std::min<long>(ttl, 65535)) : 0;
        forEach(lldpctl_atom_get(port, lldpctl_k_custom_tlvs), [&](lldpctl_atom_t* tlv) {
            auto oui = buffer(tlv, lldpctl_k_custom_tlv_oui);
            long subtype = lldpctl_atom_get_int(tlv, lldpctl_k_custom_tlv_oui_subtype);
            if (oui.size() == 3 && subtype >= 0 && subtype <= 255) {
                OrgTlv t;
                std::copy(oui.begin(), oui.end(), t.oui.begin());
                t.subtype = static_cast<uint8_t>(subtype);
                t.info = buffer(tlv, lldpctl_k_custom_tlv_oui_info_string);
                n.org_tlvs.push_back(std::move(t));
            }
            return n.org_tlvs.size() < 64;
        });
        if (chassis)
            lldpctl_atom_dec_ref(chassis);
        return n;
    }
};

std::filesystem::path lldpdSocket(const HostPaths& paths)
{
    return paths.host(kSocket);
}

LldpdClient::LldpdClient(HostPaths paths, std::chrono::milliseconds timeout)
    : paths_(std::move(paths)), socket_(lldpdSocket(paths_)), timeout_(timeout)
{
    auto lib = std::make_unique<Library>();
    lib_error_ = lib->open();
    if (lib_error_.empty())
        lib_ = std::move(lib);
}

LldpdClient::~LldpdClient() = default;

int LldpdClient::connectSocket(std::string& why) const
{
    // On the host: /run is root's. In a tree: the socket opened beneath it (O_PATH, no way out),
    // then connected through its descriptor's /proc/self/fd name, which is that socket and no
    // other whatever the tree does meanwhile.
    paths::Fd beneath;
    std::string path = socket_.string();
    if (paths_.simulated()) {
        paths::Fd top(::open(paths_.root().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (top.get() < 0) {
            why = fmt::format("no lldpd: {}: {}", paths_.root().string(), std::strerror(errno));
            return -1;
        }
        beneath = paths::Fd(paths::openBeneath(top.get(), std::string_view(kSocket).substr(1),
                                               O_PATH, paths::Links::Beneath));
        struct stat st {};
        if (beneath.get() < 0 || ::fstat(beneath.get(), &st) != 0) {
            why = fmt::format("no lldpd: {}: {}", path,
                              errno == EXDEV ? "leads out of the tree: not followed"
                                             : std::strerror(errno));
            return -1;
        }
        if (!S_ISSOCK(st.st_mode)) {
            why = fmt::format("no lldpd: {}: not a socket", path);
            return -1;
        }
        path = fmt::format("/proc/self/fd/{}", beneath.get());
    }
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof(addr.sun_path)) {
        why = fmt::format("no lldpd: {}: path too long for a socket", path);
        return -1;
    }
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) < 0) {
        const int err = errno;
        if (fd >= 0)
            ::close(fd);
        why = fmt::format("no lldpd: {}: {}", socket_.string(), std::strerror(err));
        if (err == EACCES)
            why += " (lldpd's socket is for its group: systemctl edit nicd, [Service] "
                   "SupplementaryGroups=_lldpd)";
        return -1;
    }
    return fd;
}

NeighborReading LldpdClient::read()
{
    NeighborReading out;
    if (!lib_) {
        out.unavailable = lib_error_;
        return out;
    }
    Channel ch;
    ch.timeout_ms = static_cast<int>(timeout_.count());
    ch.fd = connectSocket(out.unavailable);
    if (ch.fd < 0)
        return out;
    const std::string path = socket_.string();
    Library& lib = *lib_;
    lldpctl_conn_t* conn = lib.lldpctl_new(channelSend, channelRecv, &ch);
    if (!conn) {
        out.unavailable = "liblldpctl: out of memory";
        return out;
    }
    std::set<std::string> listened;
    lldpctl_atom_t* interfaces = lib.lldpctl_get_interfaces(conn);
    if (!interfaces) {
        out.unavailable = fmt::format(
            "lldpd on {} did not answer: {}", path,
            ch.timed_out ? fmt::format("no reply within {} ms", timeout_.count())
                         : std::string(lib.lldpctl_strerror(lib.lldpctl_last_error(conn))));
        lib.lldpctl_release(conn);
        return out;
    }
    bool failed = false;
    lib.forEach(interfaces, [&](lldpctl_atom_t* iface) {
        std::string name = lib.str(iface, lldpctl_k_interface_name);
        if (name.empty())
            return true;
        if (listened.size() == kMaxLldpInterfaces)
            return false;
        listened.insert(name);
        lldpctl_atom_t* port = lib.lldpctl_get_port(iface);
        if (!port) {
            failed = true;
            return false;
        }
        lib.forEach(lib.lldpctl_atom_get(port, lldpctl_k_port_neighbors),
                    [&](lldpctl_atom_t* remote) {
                        auto& list = out.by_netdev[name];
                        list.push_back(lib.neighbor(remote));
                        return list.size() < kMaxNeighborsPerNetdev;
                    });
        lib.lldpctl_atom_dec_ref(port);
        return true;
    });
    if (failed) {
        out.by_netdev.clear();
        out.unavailable = fmt::format(
            "lldpd on {} stopped answering: {}", path,
            ch.timed_out ? fmt::format("no reply within {} ms", timeout_.count())
                         : std::string(lib.lldpctl_strerror(lib.lldpctl_last_error(conn))));
    } else {
        out.available = true;
        out.listened = std::move(listened);
    }
    lib.lldpctl_release(conn);
    return out;
}

} // namespace nicd::neighbor
