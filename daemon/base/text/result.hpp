// The one error convention for fallible operations at nicd's edges (a configuration value, a path
// beneath --root, the state file, a file read): the operation returns Result<T>, its value or an
// Error whose message names the file, line, key, device or setting and what was wrong, ready for
// the log. Shaped like C++23 std::expected<T, Error> (has_value, operator*, ->, value_or, error),
// so that moving to it later is a rename. Result<void> is an operation with no value. Decoders of
// outside bytes throw plugin::sdk::DecodeError instead (docs/architecture.md, Conventions); the
// edge that called them catches it and returns or logs an Error.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace nicd {

struct Error {
    std::string message;
};

template <class T> class [[nodiscard]] Result {
public:
    // NOLINTBEGIN(bugprone-forwarding-reference-overload): the requires clause excludes Result
    template <class U = T>
    requires(std::is_constructible_v<T, U&&> && !std::is_same_v<std::remove_cvref_t<U>, Error> &&
             !std::is_same_v<std::remove_cvref_t<U>, Result>) Result(U&& value)
        : v_(std::in_place_index<0>, std::forward<U>(value))
    {
    }
    // NOLINTEND(bugprone-forwarding-reference-overload)
    Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    // Only when has_value().
    T& operator*() & { return std::get<0>(v_); }
    const T& operator*() const& { return std::get<0>(v_); }
    T&& operator*() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &std::get<0>(v_); }
    const T* operator->() const { return &std::get<0>(v_); }

    template <class U> T value_or(U&& other) const&
    {
        return has_value() ? std::get<0>(v_) : static_cast<T>(std::forward<U>(other));
    }

    // Only when !has_value().
    const Error& error() const { return std::get<1>(v_); }

    // As std::expected: equal to a value when it holds one equal to it.
    template <class U>
    requires(!std::is_same_v<U, Result>) friend bool operator==(const Result& r, const U& v)
    {
        return r.has_value() && *r == v;
    }

private:
    std::variant<T, Error> v_;
};

template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), failed_(true) {}

    bool has_value() const noexcept { return !failed_; }
    explicit operator bool() const noexcept { return has_value(); }
    const Error& error() const { return error_; }

private:
    Error error_;
    bool failed_ = false;
};

} // namespace nicd
