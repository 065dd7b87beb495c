// What nicd logs while one of these lives: the default spdlog logger is swapped for one that
// writes "<level> <message>" lines into a string, and put back after.
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
        auto logger = std::make_shared<spdlog::logger>(
            "capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(lines_));
        logger->set_pattern("%l %v");
        logger->set_level(spdlog::level::debug);
        spdlog::set_default_logger(logger);
    }
    ~LogCapture() { spdlog::set_default_logger(previous_); }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    std::string text() const { return lines_.str(); }
    // Lines that contain `part`.
    size_t count(const std::string& part) const
    {
        std::istringstream in(lines_.str());
        size_t n = 0;
        for (std::string line; std::getline(in, line);)
            n += line.find(part) != std::string::npos ? 1 : 0;
        return n;
    }

private:
    std::ostringstream lines_;
    std::shared_ptr<spdlog::logger> previous_;
};

} // namespace nicd::test
