// Kernel messages from journald (kernel transport only), read incrementally from a persisted
// cursor so that across restarts nothing is read twice or missed. On the first start (no
// cursor) the current boot is read from its beginning.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

struct sd_journal;

namespace nicd::kernel_log {

// One kernel entry, valid for the call of the sink it is given to. `kernel_device` and
// `kernel_subsystem` are journald's trusted fields _KERNEL_DEVICE ("+pci:0000:3b:00.0") and
// _KERNEL_SUBSYSTEM ("pci"), empty when the entry has none; journald takes them from the
// kernel's own record (dev_printk sets them), and no program can (kernel_origin.hpp reads them).
struct KernelLine {
    std::string_view message;
    std::string_view kernel_device;
    std::string_view kernel_subsystem;
    uint64_t realtime_usec = 0;
};

class KernelJournal {
public:
    // `root`: "/" opens the system journal; another directory is an OS tree whose
    // /var/log/journal and /run/log/journal are read. `boot_id` (32 hex chars, no dashes)
    // limits the first read to that boot. Throws with a clear message when nothing can be opened.
    KernelJournal(const std::filesystem::path& root, std::string boot_id,
                  std::optional<std::string> cursor);
    ~KernelJournal();
    KernelJournal(const KernelJournal&) = delete;
    KernelJournal& operator=(const KernelJournal&) = delete;

    // Reads up to `max` new entries of the kernel transport and passes those the kernel printed
    // to `sink` (not those a program wrote to /dev/kmsg: their SYSLOG_FACILITY is not the
    // kernel's); returns how many entries were read.
    size_t read(const std::function<void(const KernelLine&)>& sink, size_t max = 10000);

    // The cursor of the last line read (persist it), or the one given at construction.
    const std::optional<std::string>& cursor() const { return cursor_; }

    // For the event loop: the inotify fd, its events, and processing after it fires.
    int fd();
    int events();
    void process();

private:
    sd_journal* journal_ = nullptr;
    std::optional<std::string> cursor_;
    std::string facility_;  // the current entry's SYSLOG_FACILITY,
    std::string device_;    // _KERNEL_DEVICE
    std::string subsystem_; // and _KERNEL_SUBSYSTEM
};

// The current boot ID from <root>/proc/sys/kernel/random/boot_id, without dashes; empty if
// unreadable.
std::string readBootId(const std::filesystem::path& boot_id_file);
// The same from that file's text (its first line): 32 lower-case hex digits, or empty.
std::string parseBootId(std::string_view text);

} // namespace nicd::kernel_log
