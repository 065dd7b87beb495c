// What nicd logs while one lives, as "<level> <message>" lines ("warning ...", "info ..."): the
// default logger is replaced, and put back at the end.
#pragma once

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>
#include <string>

namespace nicd::test {

class LogCapture {
public:
    LogCapture() : previous_(spdlog::default_logger())
    {
        auto capture = std::make_shared<spdlog::logger>(
            "capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(logged_));
        capture->set_pattern("%l %v");
        capture->set_level(spdlog::level::debug);
        spdlog::set_default_logger(capture);
    }
    ~LogCapture() { spdlog::set_default_logger(previous_); }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    std::string text() const { return logged_.str(); }

private:
    std::shared_ptr<spdlog::logger> previous_;
    std::ostringstream logged_;
};

} // namespace nicd::test
