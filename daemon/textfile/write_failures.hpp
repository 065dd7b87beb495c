// A file nicd writes every cycle (the textfile, the state) failing again and again — a full disk,
// a read-only mount — is one problem, not one per cycle: the first failure is logged as an error,
// the repeats are counted (and recalled once an hour while they last), and the first success
// after them is logged with how many writes were lost. Loop thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace nicd::textfile {

class WriteFailures {
public:
    // `what`: the file's role in the messages ("textfile", "state").
    explicit WriteFailures(std::string what) : what_(std::move(what)) {}

    // A failed write at monotonic time `now_usec`; `error` names the file, the step and errno.
    void failed(const std::string& error, uint64_t now_usec);
    // A write that worked: ends a run of failures.
    void succeeded(const std::string& path);

    bool failing() const { return first_error_.has_value(); }
    uint64_t failures() const { return failures_; }

private:
    std::string what_;
    std::optional<std::string> first_error_;
    uint64_t failures_ = 0;
    uint64_t last_logged_usec_ = 0;
};

} // namespace nicd::textfile
