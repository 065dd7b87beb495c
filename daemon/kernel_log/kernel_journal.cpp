#include "kernel_log/kernel_journal.hpp"

#include "log/log.hpp"

#include <nicd/plugin/sdk/small_file.h>

#include <systemd/sd-journal.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace nicd::kernel_log {

namespace {
std::runtime_error journalError(const std::string& what, int r)
{
    return std::runtime_error(what + ": " + std::strerror(-r));
}

// The value of the current entry's field `name` into `out`; empty when the entry has none.
void copyField(sd_journal* j, const char* name, std::string& out)
{
    out.clear();
    const void* data = nullptr;
    size_t len = 0;
    const size_t prefix = std::strlen(name) + 1; // "NAME="
    if (sd_journal_get_data(j, name, &data, &len) >= 0 && len >= prefix)
        out.assign(static_cast<const char*>(data) + prefix, len - prefix);
}
} // namespace

KernelJournal::KernelJournal(const std::filesystem::path& root, std::string boot_id,
                             std::optional<std::string> cursor)
    : cursor_(std::move(cursor))
{
    int r = 0;
    if (root == "/")
        r = sd_journal_open(&journal_, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM);
    else
        r = sd_journal_open_directory(&journal_, root.c_str(), SD_JOURNAL_OS_ROOT);
    if (r < 0)
        throw journalError("cannot open the journal under " + root.string(), r);

    r = sd_journal_add_match(journal_, "_TRANSPORT=kernel", 0);
    if (r < 0)
        throw journalError("journal match _TRANSPORT=kernel", r);

    if (cursor_) {
        r = sd_journal_seek_cursor(journal_, cursor_->c_str());
        if (r >= 0) {
            // Land on the cursor's entry, which was read before; if it is gone (rotated or
            // vacuumed) we landed on the oldest entry after it instead: step back so it is read,
            // and say so (kernel lines between the two, if any, were lost with the files).
            if (sd_journal_next(journal_) > 0 &&
                sd_journal_test_cursor(journal_, cursor_->c_str()) <= 0) {
                uint64_t usec = 0;
                sd_journal_get_realtime_usec(journal_, &usec);
                log::warn({},
                          "the journal no longer holds the entry nicd read last (rotated or "
                          "vacuumed away); resuming at the oldest kernel entry after it, from "
                          "{} (unix time); nothing read before is read again",
                          static_cast<double>(usec) / 1e6);
                sd_journal_previous(journal_);
            }
            return;
        }
        log::warn({}, "journal cursor not usable ({}); reading the current boot from its start",
                  std::strerror(-r));
    }
    if (!boot_id.empty()) {
        std::string match = "_BOOT_ID=" + boot_id;
        sd_journal_add_match(journal_, match.c_str(), 0);
    }
    sd_journal_seek_head(journal_);
}

KernelJournal::~KernelJournal()
{
    sd_journal_close(journal_);
}

size_t KernelJournal::read(const std::function<void(const KernelLine&)>& sink, size_t max)
{
    size_t n = 0;
    while (n < max) {
        int r = sd_journal_next(journal_);
        if (r < 0) {
            log::warn({}, "reading the journal failed: {}", std::strerror(-r));
            break;
        }
        if (r == 0)
            break;
        // A field's data is valid until the next sd_journal_get_data(): the short ones are
        // copied, the message (asked for last) is passed as it lies.
        copyField(journal_, "SYSLOG_FACILITY", facility_);
        if (facility_.empty() || facility_ == "0") { // LOG_KERN
            copyField(journal_, "_KERNEL_DEVICE", device_);
            copyField(journal_, "_KERNEL_SUBSYSTEM", subsystem_);
            const void* data = nullptr;
            size_t len = 0;
            if (sd_journal_get_data(journal_, "MESSAGE", &data, &len) >= 0 && len > 8) {
                KernelLine line;
                line.message = std::string_view(static_cast<const char*>(data) + 8, len - 8);
                line.kernel_device = device_;
                line.kernel_subsystem = subsystem_;
                sd_journal_get_realtime_usec(journal_, &line.realtime_usec);
                sink(line);
            }
        }
        char* c = nullptr;
        if (sd_journal_get_cursor(journal_, &c) >= 0) {
            cursor_ = c;
            free(c); // NOLINT(cppcoreguidelines-no-malloc): sd-journal allocates with malloc
        }
        ++n;
    }
    return n;
}

int KernelJournal::fd()
{
    return sd_journal_get_fd(journal_);
}

int KernelJournal::events()
{
    return sd_journal_get_events(journal_);
}

void KernelJournal::process()
{
    sd_journal_process(journal_);
}

std::string readBootId(const std::filesystem::path& boot_id_file)
{
    std::string id; // 36 characters and a newline
    if (!plugin::sdk::readRegularFile(boot_id_file, 128, id))
        return {};
    return parseBootId(id);
}

std::string parseBootId(std::string_view text)
{
    std::string out;
    for (char c : text.substr(0, text.find('\n')))
        if (std::isxdigit(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out.size() == 32 ? out : std::string();
}

} // namespace nicd::kernel_log
