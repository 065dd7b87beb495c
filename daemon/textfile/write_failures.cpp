#include "textfile/write_failures.hpp"

#include "log/log.hpp"

namespace nicd::textfile {

namespace {
constexpr uint64_t kReminderUsec = 3600ULL * 1'000'000ULL;
} // namespace

void WriteFailures::failed(const std::string& error, uint64_t now_usec)
{
    ++failures_;
    if (!first_error_) {
        first_error_ = error;
        last_logged_usec_ = now_usec;
        log::error({},
                   "{} not written: {} (further failures are counted, not logged, until a "
                   "write works again)",
                   what_, error);
        return;
    }
    if (now_usec - last_logged_usec_ >= kReminderUsec) {
        last_logged_usec_ = now_usec;
        log::error({}, "{} still not written after {} attempts: {}", what_, failures_, error);
        return;
    }
    log::debug({}, "{} not written: {}", what_, error);
}

void WriteFailures::succeeded(const std::string& path)
{
    if (!first_error_)
        return;
    log::info({}, "{} written again to {} after {} failed attempts (the first: {})", what_, path,
              failures_, *first_error_);
    first_error_.reset();
    failures_ = 0;
}

} // namespace nicd::textfile
