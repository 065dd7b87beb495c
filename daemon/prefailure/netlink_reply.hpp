// What one generic-netlink request (devlink, ethtool) gave back: a value, an interface the kernel
// or device does not offer (the caller reports it once, at info level), or a failure whose
// message names the command and the error.
#pragma once

#include <string>
#include <utility>

namespace nicd::prefailure {

template <class T> struct Reply {
    enum class Status { Ok, Unsupported, Failed };

    // Ok: `value` is the answer; a non-empty `message` then says what was left out of it (a
    // dump that skipped malformed messages). Unsupported: no such family, EOPNOTSUPP or EPERM.
    // Failed: timeout, malformed reply, any other errno; `value` keeps what arrived before.
    Status status = Status::Ok;
    T value{};
    std::string message;

    bool ok() const { return status == Status::Ok; }

    static Reply success(T v, std::string note = {})
    {
        return {Status::Ok, std::move(v), std::move(note)};
    }
    static Reply unsupported(std::string why) { return {Status::Unsupported, {}, std::move(why)}; }
    static Reply failed(std::string why, T partial = {})
    {
        return {Status::Failed, std::move(partial), std::move(why)};
    }

    // This reply, not Ok, as a reply of another type (a read that fails part way).
    template <class U> Reply<U> failureAs() const
    {
        return status == Status::Unsupported ? Reply<U>::unsupported(message)
                                             : Reply<U>::failed(message);
    }
};

} // namespace nicd::prefailure
