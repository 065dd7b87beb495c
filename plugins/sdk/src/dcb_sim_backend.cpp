#include "paths/beneath.hpp"

#include <nicd/plugin/sdk/dcb_errors.h>
#include <nicd/plugin/sdk/dcb_sim_backend.h>
#include <nicd/plugin/sdk/dcb_sim_format.h>
#include <nicd/plugin/sdk/small_file.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace nicd::plugin::sdk {

namespace fs = std::filesystem;

namespace {

// A netdev's whole DCB state is a few hundred bytes (64 DSCP entries at most): anything near
// this is not the simulator's file.
constexpr size_t kMaxDcbSimFile = size_t{64} * 1024;

bool safeName(std::string_view netdev)
{
    return dcb::validIfname(netdev) && netdev.find('/') == std::string_view::npos &&
           netdev != "." && netdev != "..";
}

constexpr const char* kDcbDir = "run/nicd-sim/dcb";

fs::path dcbSimFile(const fs::path& root, std::string_view netdev)
{
    return root / kDcbDir / std::string(netdev);
}

// The simulator's DCB directory, opened beneath the root with no symlink followed on the way: a
// link planted there (a --root tree is data) would have root read and rewrite files elsewhere.
// `err` says why it could not be opened (ELOOP: a link on the way).
paths::Fd dcbDir(const fs::path& root, int& err)
{
    paths::Fd top(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!top.valid()) {
        err = errno;
        return {};
    }
    paths::Fd dir(
        paths::openBeneath(top.get(), kDcbDir, O_RDONLY | O_DIRECTORY, paths::Links::Refuse));
    err = dir.valid() ? 0 : errno;
    return dir;
}

v1::Status dirFailure(const fs::path& root, int err)
{
    return v1::Status::fail(
        v1::Errc::Io,
        (root / kDcbDir).string() + ": " +
            (err == ELOOP || err == EXDEV ? "a symlink on the way: refused" : std::strerror(err)),
        err);
}

} // namespace

v1::Status SimDcb::read(std::string_view netdev, const char* op, dcb::DcbState& out)
{
    if (!safeName(netdev))
        return badNetdevName(netdev);
    auto path = dcbSimFile(root_, netdev);
    int err = 0;
    auto dir = dcbDir(root_, err);
    if (!dir.valid())
        return err == ENOENT ? dcbFailure(netdev, op, EOPNOTSUPP) : dirFailure(root_, err);
    std::string text;
    if (auto s = readRegularFileAt(dir.get(), std::string(netdev).c_str(), path, kMaxDcbSimFile,
                                   text, Fifo::Wait);
        !s) {
        if (s.sys_errno == ENOENT) // like a netdev without dcbnl_ops
            return dcbFailure(netdev, op, EOPNOTSUPP);
        return v1::Status::fail(v1::Errc::Io, s.message, s.sys_errno);
    }
    try {
        out = parseDcbSimState(text);
    } catch (const plugin::sdk::DecodeError& e) {
        return v1::Status::fail(v1::Errc::Io, path.string() + ": " + e.what());
    }
    out.ifname = std::string(netdev);
    return v1::Status::ok();
}

v1::Status SimDcb::readForChange(std::string_view netdev, const char* op, dcb::DcbState& out)
{
    if (auto s = read(netdev, op, out); !s)
        return s;
    // bnxt_dcb.c: `!(dcbx_cap & DCB_CAP_DCBX_VER_IEEE) || !(dcbx_cap & DCB_CAP_DCBX_HOST)`.
    constexpr uint8_t kHost = 0x01, kVerIeee = 0x08;
    if (out.dcbx && (!(*out.dcbx & kHost) || !(*out.dcbx & kVerIeee)))
        return dcbFailure(netdev, op, EINVAL, true);
    return v1::Status::ok();
}

v1::Status SimDcb::write(std::string_view netdev, const dcb::DcbState& state)
{
    auto path = dcbSimFile(root_, netdev);
    int dir_err = 0;
    auto dir = dcbDir(root_, dir_err);
    if (!dir.valid())
        return dirFailure(root_, dir_err);
    const std::string tmp_name = "." + std::string(netdev) + ".tmp." + std::to_string(getpid());
    auto tmp = path.parent_path() / tmp_name;
    // The temporary's name is predictable: O_EXCL|O_NOFOLLOW refuses anything already in its
    // place (a planted link would otherwise have root truncate wherever it points).
    int fd = ::openat(dir.get(), tmp_name.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        int err = errno;
        return v1::Status::fail(v1::Errc::Io, tmp.string() + ": " + std::strerror(err), err);
    }
    const std::string text = formatDcbSimState(state);
    size_t done = 0;
    int err = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err = errno;
            break;
        }
        done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0 && err == 0)
        err = errno;
    if (err != 0) {
        (void)::unlinkat(dir.get(), tmp_name.c_str(), 0);
        return v1::Status::fail(v1::Errc::Io, tmp.string() + ": " + std::strerror(err), err);
    }
    if (::renameat(dir.get(), tmp_name.c_str(), dir.get(), std::string(netdev).c_str()) != 0) {
        err = errno;
        (void)::unlinkat(dir.get(), tmp_name.c_str(), 0);
        return v1::Status::fail(v1::Errc::Io, path.string() + ": " + std::strerror(err), err);
    }
    return v1::Status::ok();
}

v1::Status SimDcb::get(std::string_view netdev, dcb::DcbState& out)
{
    return read(netdev, "IEEE_GET", out);
}

v1::Status SimDcb::set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                       std::span<const dcb::App> apps)
{
    dcb::DcbState st;
    if (auto s = readForChange(netdev, "IEEE_SET", st); !s)
        return s;
    if (pfc && st.ets && dcb::etsUnset(*st.ets)) // bnxt_hwrm_queue_pfc_cfg: no ETS, no PFC
        return dcbFailure(netdev, "IEEE_SET", EINVAL, true);
    if (pfc) {
        st.pfc->enabled = pfc->enabled;
        st.pfc->delay = pfc->delay;
    }
    for (const auto& a : apps) {
        if (a.selector != dcb::kSelectorDscp || a.protocol >= 64 || a.priority >= 8)
            return dcbFailure(netdev, "IEEE_SET", EINVAL, true);
        auto same = std::find_if(st.apps.begin(), st.apps.end(), [&](const dcb::App& e) {
            return e.selector == a.selector && e.protocol == a.protocol;
        });
        if (same != st.apps.end())
            same->priority = a.priority;
        else
            st.apps.push_back(a);
    }
    return write(netdev, st);
}

v1::Status SimDcb::del(std::string_view netdev, std::span<const dcb::App> apps)
{
    dcb::DcbState st;
    if (auto s = readForChange(netdev, "IEEE_DEL", st); !s)
        return s;
    for (const auto& a : apps) {
        auto it = std::find(st.apps.begin(), st.apps.end(), a);
        if (it == st.apps.end())
            return dcbFailure(netdev, "IEEE_DEL", ENOENT, true);
        st.apps.erase(it);
    }
    return write(netdev, st);
}

v1::Status SimDcb::setEts(std::string_view netdev, const dcb::Ets& ets)
{
    dcb::DcbState st;
    if (auto s = readForChange(netdev, "IEEE_SET", st); !s)
        return s;
    if (!st.ets) // a driver without ieee_setets: dcbnl_ieee_set skips the attribute
        return v1::Status::ok();
    int bandwidth = 0;
    for (size_t i = 0; i < ets.prio_tc.size(); ++i) {
        bool known_tsa = ets.tsa[i] == dcb::kTsaStrict || ets.tsa[i] == dcb::kTsaEts;
        if (ets.prio_tc[i] >= st.ets->cap || !known_tsa)
            return dcbFailure(netdev, "IEEE_SET", EINVAL, true);
        bandwidth += ets.tsa[i] == dcb::kTsaEts ? ets.tx_bw[i] : 0;
    }
    if (bandwidth > 100)
        return dcbFailure(netdev, "IEEE_SET", EINVAL, true);
    const uint8_t cap = st.ets->cap;
    st.ets = ets;
    st.ets->cap = cap; // ets_cap is the driver's, not the request's
    return write(netdev, st);
}

} // namespace nicd::plugin::sdk
