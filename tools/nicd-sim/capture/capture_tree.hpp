// What a capture holds before it is written: every path (relative to the node's root) with what
// it is (a file's bytes, a symlink's target, a FIFO, a directory) and how its content is scrubbed.
// Reading the node fills it; scrubbing rewrites it in path order (so fakes are numbered the same
// way every time); writing makes the directory.
#pragma once

#include <map>
#include <string>

namespace nicd::sim::capture {

enum class EntryKind { File, Symlink, Fifo, Dir };

// How an entry's content is scrubbed (capture/scrub_text.hpp, capture/module_scrub.hpp).
enum class Scrub {
    Known,         // only identifiers met elsewhere (the last pass, on every text file)
    FreeText,      // any address, GUID or IP wherever it stands (configuration, nicd's output)
    HwAddress,     // a netdev's `address`: one hardware address
    Guid,          // node_guid, sys_image_guid
    Ipv4Routes,    // /proc/net/route
    Ipv6Routes,    // /proc/net/ipv6_route
    ModuleEeprom,  // a module EEPROM image (binary): its serial number; left out if unknown layout
    BootId,        // proc/sys/kernel/random/boot_id: one boot ID
    LldpNeighbors, // lldpcli's JSON: the switches' identities (neighbors_capture.hpp)
    Done,          // already scrubbed, or binary: left as it is
};

struct Entry {
    EntryKind kind = EntryKind::File;
    std::string data; // a file's bytes, a symlink's target
    Scrub scrub = Scrub::Known;
};

class CaptureTree {
public:
    void file(const std::string& rel, std::string data, Scrub scrub = Scrub::Known)
    {
        entries_[rel] = {EntryKind::File, std::move(data), scrub};
    }
    void symlink(const std::string& rel, std::string target)
    {
        entries_[rel] = {EntryKind::Symlink, std::move(target), Scrub::Done};
    }
    void fifo(const std::string& rel) { entries_[rel] = {EntryKind::Fifo, {}, Scrub::Done}; }
    void dir(const std::string& rel)
    {
        entries_.try_emplace(rel, Entry{EntryKind::Dir, {}, Scrub::Done});
    }

    bool has(const std::string& rel) const { return entries_.contains(rel); }
    void erase(const std::string& rel) { entries_.erase(rel); }
    const Entry* find(const std::string& rel) const
    {
        auto it = entries_.find(rel);
        return it == entries_.end() ? nullptr : &it->second;
    }
    std::map<std::string, Entry>& entries() { return entries_; }
    const std::map<std::string, Entry>& entries() const { return entries_; }

private:
    std::map<std::string, Entry> entries_;
};

} // namespace nicd::sim::capture
