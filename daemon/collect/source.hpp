// A source the collection cycle reads besides its core (the inventory walk, counters/ and the
// plugins' polls, which have their own deadline lanes): netdev state today, the slow pre-failure
// signals (FEC, optics, temperatures, firmware health) next. A new source is a class
// implementing this, in its own small file set, plus one line of wiring (Collector::add in the
// daemon's wiring). Sources run on the worker thread, in the order they were added, after the
// inventory is read; one that throws is logged and disabled for the rest of the run (collectd's
// rule: a failing plugin is disabled, the daemon carries on).
#pragma once

#include "model/inventory.hpp"
#include "model/snapshot.hpp"

#include <chrono>
#include <string>

namespace nicd::collect {

class Source {
public:
    virtual ~Source() = default;

    // A short name for logs ("netdev state", "module eeprom").
    virtual std::string name() const = 0;
    // How often read() is due; zero: every cycle. A slow source (a firmware register, a module
    // EEPROM page) sets its own interval so that the fast cycle does not pay for it.
    virtual std::chrono::milliseconds interval() const { return std::chrono::milliseconds(0); }
    // Reads the devices of `inventory` (due cycles only). Worker thread.
    virtual void read(const Inventory& inventory) = 0;
    // Puts what the last read found into the cycle's snapshot (every cycle, so that every
    // snapshot is whole whatever the source's interval). A source read every cycle may move its
    // result out.
    virtual void fill(Snapshot& snap) = 0;
    // Whether what fill() puts in the snapshot is keyed by RDMA device name: such a source is also
    // read, whatever its interval, in the cycle that finds a device come, go or get a new name,
    // so that no value stays under a name the node no longer has.
    virtual bool keyedByDevice() const { return false; }
    // Links changed (rtnetlink: a netdev renamed, up, down, added, removed): what the source
    // keeps by name (open directories) is to be looked up again at its next read. Worker thread.
    virtual void rediscover() {}
};

} // namespace nicd::collect
