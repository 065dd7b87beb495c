// Logging for the whole daemon. Messages go through spdlog; when stderr is connected to the
// journal (JOURNAL_STREAM), they are sent to journald with structured fields
// (NICD_DEVICE, NICD_PORT, NICD_PLUGIN, NICD_NETDEV) instead of being printed.
//
//   log::warn({.device = "mlx5_0", .port = 1}, "counter {} unreadable: {}", name, err);
#pragma once

#include <spdlog/spdlog.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace nicd::log {

struct Fields {
    std::string_view device{};
    uint32_t port = 0; // 0 = not about a port
    std::string_view plugin{};
    std::string_view netdev{};
};

enum class Target : uint8_t { Auto, Stderr, Journal };

// Call once at start. Auto picks the journal when JOURNAL_STREAM matches stderr.
void setup(Target target, spdlog::level::level_enum level);

// The lowest level logged, by the names --log-level takes: trace, debug, info, warn, error.
std::string levelName();
// Sets it by one of those names; false (and nothing changed) for another word.
bool setLevel(std::string_view name);

// The fields of the message being logged on this thread (used by the journal sink).
const Fields* currentFields();

namespace detail {
class FieldsScope {
public:
    explicit FieldsScope(const Fields& f);
    ~FieldsScope();
    FieldsScope(const FieldsScope&) = delete;
    FieldsScope& operator=(const FieldsScope&) = delete;

private:
    const Fields* previous_;
};
} // namespace detail

namespace detail {
// Logs a formatted message with every control byte and invalid UTF-8 byte shown as \xNN.
void logPrintable(spdlog::logger& logger, spdlog::level::level_enum level, std::string&& text);
} // namespace detail

// The message is formatted first and then made printable (text/printable.hpp): names, values and
// kernel lines from outside cannot forge a line, recolour a terminal or put bytes that are not
// UTF-8 into the journal.
template <typename... Args>
void write(spdlog::level::level_enum level, const Fields& f, fmt::format_string<Args...> fmt,
           Args&&... args)
{
    auto* logger = spdlog::default_logger_raw();
    if (!logger->should_log(level))
        return;
    detail::FieldsScope scope(f);
    detail::logPrintable(*logger, level, fmt::format(fmt, std::forward<Args>(args)...));
}

template <typename... Args>
void debug(const Fields& f, fmt::format_string<Args...> fmt, Args&&... args)
{
    write(spdlog::level::debug, f, fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void info(const Fields& f, fmt::format_string<Args...> fmt, Args&&... args)
{
    write(spdlog::level::info, f, fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void warn(const Fields& f, fmt::format_string<Args...> fmt, Args&&... args)
{
    write(spdlog::level::warn, f, fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void error(const Fields& f, fmt::format_string<Args...> fmt, Args&&... args)
{
    write(spdlog::level::err, f, fmt, std::forward<Args>(args)...);
}

} // namespace nicd::log
