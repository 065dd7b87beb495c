#include "log/log.hpp"

#include "log/journal_sink.hpp"
#include "text/printable.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace nicd::log {

namespace {
thread_local const Fields* tls_fields = nullptr;

// systemd sets JOURNAL_STREAM=<dev>:<ino> when stderr is connected to the journal.
bool stderrIsJournal()
{
    const char* env =
        std::getenv("JOURNAL_STREAM"); // NOLINT(concurrency-mt-unsafe): called at start
    if (env == nullptr)
        return false;
    unsigned long long dev = 0;
    unsigned long long ino = 0;
    if (std::sscanf(env, "%llu:%llu", &dev, &ino) != 2)
        return false;
    struct stat st {};
    if (fstat(STDERR_FILENO, &st) != 0)
        return false;
    return st.st_dev == dev && st.st_ino == ino;
}
} // namespace

const Fields* currentFields()
{
    return tls_fields;
}

detail::FieldsScope::FieldsScope(const Fields& f) : previous_(tls_fields)
{
    tls_fields = &f;
}
detail::FieldsScope::~FieldsScope()
{
    tls_fields = previous_;
}

void detail::logPrintable(spdlog::logger& logger, spdlog::level::level_enum level,
                          std::string&& text)
{
    if (!isPrintable(text))
        text = printable(text);
    logger.log(level, spdlog::string_view_t(text));
}

void setup(Target target, spdlog::level::level_enum level)
{
    bool journal = target == Target::Journal || (target == Target::Auto && stderrIsJournal());
    std::shared_ptr<spdlog::logger> logger;
    if (journal) {
        logger = std::make_shared<spdlog::logger>("nicd", std::make_shared<JournalSink>());
    } else {
        logger = std::make_shared<spdlog::logger>(
            "nicd", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
        logger->set_pattern("%^%L%$ %v");
    }
    logger->set_level(level);
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(std::move(logger));
}

namespace {
constexpr std::pair<std::string_view, spdlog::level::level_enum> kLevels[] = {
    {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug}, {"info", spdlog::level::info},
    {"warn", spdlog::level::warn},   {"error", spdlog::level::err},
};
} // namespace

std::string levelName()
{
    const auto level = spdlog::default_logger()->level();
    for (const auto& [name, l] : kLevels)
        if (l == level)
            return std::string(name);
    return level < spdlog::level::trace ? "trace" : "error";
}

bool setLevel(std::string_view name)
{
    for (const auto& [n, l] : kLevels)
        if (n == name) {
            spdlog::default_logger()->set_level(l);
            return true;
        }
    return false;
}

} // namespace nicd::log
