// An spdlog sink that sends each message to journald with nicd's structured fields.
#pragma once

#include <spdlog/sinks/base_sink.h>

#include <mutex>

namespace nicd::log {

class JournalSink final : public spdlog::sinks::base_sink<std::mutex> {
protected:
    void sink_it_(const spdlog::details::log_msg& msg) override;
    void flush_() override {}
};

} // namespace nicd::log
