// Small sysfs and configfs files: one read(2) of the whole text, and one write(2) of the whole
// text as `echo N > file` does (sysfs and configfs parse each write). Failures name the file.
// The file itself is never a link (sysfs, configfs and debugfs attributes are regular files):
// a link as the path's last component is refused (ELOOP, O_NOFOLLOW), so a --root tree's link
// there cannot make nicd read a file it names into a report, or create one where it points. A
// link in a directory above it is still followed: O_NOFOLLOW looks at the last component only.
// A knob (a file QoS provisioning changes) is written through the host when the daemon speaks
// ABI 1.4: nicd's own process may not write under /sys or configfs, its knob writer does.
#pragma once

#include <nicd/plugin/plugin.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

v1::Status ioFailure(const std::filesystem::path& path, int err);
// One read of at most 4 KiB of a sysfs, debugfs or configfs attribute: a regular file, opened
// without following a link as the last component and never waited on (a FIFO fails at once).
v1::Status readSmallFile(const std::filesystem::path& path, std::string& out);
// The same for `path` inside the tree `root` (a --root tree; "/" on a real node): resolved
// beneath root, the tree's own relative links followed, a link leading out of it refused (a
// linked sys/kernel/debug or rdma_cm directory planted in a tree).
v1::Status readSmallFileBeneath(const std::filesystem::path& root,
                                const std::filesystem::path& path, std::string& out);
v1::Status writeSmallFile(const std::filesystem::path& path, const std::string& text, bool create);
// What a FIFO in a simulator file's place is: refused at once (a poll must not stall on it), or
// waited on as the simulated driver not answering yet (the DCB twin: a request a wedged driver
// holds, which the daemon's deadline leaves behind).
enum class Fifo : uint8_t { Refuse, Wait };
// A whole regular file of at most `limit` bytes (a simulator's file under --root, which may be
// larger than one read). Opened without following a link as the last component; anything but a
// regular file (or a FIFO, under Fifo::Wait), or a file past `limit`, fails with Errc::Io naming
// the file.
v1::Status readRegularFile(const std::filesystem::path& path, size_t limit, std::string& out,
                           Fifo fifo = Fifo::Refuse);
// The same for the entry `name` of the directory open as `dir` (`path` names it in messages).
v1::Status readRegularFileAt(int dir, const char* name, const std::filesystem::path& path,
                             size_t limit, std::string& out, Fifo fifo = Fifo::Refuse);

// `s` without leading and trailing spaces, tabs and newlines.
std::string_view trimSpace(std::string_view s);
// A whole decimal number (an optional '-' sign); nullopt for anything else.
std::optional<long> parseLong(std::string_view s);

// The host to write knobs through: `host` when it speaks ABI 1.4, else null.
v1::IHost* knobHost(v1::IHost& host);
// Through `knobs` (IHost::writeKnob) when it is not null, else straight to the file.
v1::Status writeKnob(v1::IHost* knobs, const std::filesystem::path& path, const std::string& text);

} // namespace nicd::plugin::sdk
