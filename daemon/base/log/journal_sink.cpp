#include "log/journal_sink.hpp"

#include "log/log.hpp"
#include "text/printable.hpp"

#include <sys/uio.h>
#include <systemd/sd-journal.h>

#include <string>
#include <vector>

namespace nicd::log {

namespace {
int syslogPriority(spdlog::level::level_enum level)
{
    switch (level) {
    case spdlog::level::trace:
    case spdlog::level::debug:
        return 7;
    case spdlog::level::info:
        return 6;
    case spdlog::level::warn:
        return 4;
    case spdlog::level::err:
        return 3;
    case spdlog::level::critical:
        return 2;
    default:
        return 6;
    }
}
} // namespace

void JournalSink::sink_it_(const spdlog::details::log_msg& msg)
{
    std::vector<std::string> fields;
    fields.reserve(7);
    fields.push_back("MESSAGE=" + std::string(msg.payload.data(), msg.payload.size()));
    fields.push_back("PRIORITY=" + std::to_string(syslogPriority(msg.level)));
    fields.emplace_back("SYSLOG_IDENTIFIER=nicd");
    // The message is already printable (log::write); the names come from sysfs and plugins.
    if (const Fields* f = currentFields()) {
        if (!f->device.empty())
            fields.push_back("NICD_DEVICE=" + printable(f->device));
        if (f->port != 0)
            fields.push_back("NICD_PORT=" + std::to_string(f->port));
        if (!f->plugin.empty())
            fields.push_back("NICD_PLUGIN=" + printable(f->plugin));
        if (!f->netdev.empty())
            fields.push_back("NICD_NETDEV=" + printable(f->netdev));
    }
    std::vector<iovec> iov;
    iov.reserve(fields.size());
    for (auto& s : fields)
        iov.push_back({s.data(), s.size()});
    sd_journal_sendv(iov.data(), static_cast<int>(iov.size()));
}

} // namespace nicd::log
