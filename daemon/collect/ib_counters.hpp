// The generic IB PMA counters, ports/N/counters/*. Every file read sends one MAD to the driver
// (on mlx5 a firmware ACCESS_REG/QUERY_VPORT_COUNTER command; nothing is cached), so the daemon
// reads them at PmaIntervalMs, slower than hw_counters/. See shared/reference/counters.md §1.2.
#pragma once

#include "model/inventory.hpp"
#include "model/samples.hpp"

#include <nicd/plugin/sdk/backoff.h>
#include <nicd/plugin/sdk/counter_dir.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace nicd::collect {

using plugin::sdk::Backoff;

class IbCounterReader {
public:
    // Reads every file of every port's counters/ directory of `dev` into `out`:
    // - out.pma: one value per readable file (source kSourceIbCounters, the port, kind Counter,
    //   the file name; port_rcv_data / port_xmit_data become port_{rcv,xmit}_data_bytes, value
    //   x4), with the layout of the device's last read while the same files are read;
    // - one ReadError (what = the file's full path, message = why) per file that failed: an errno,
    //   or content that is not a counter value.
    // A failing file is backed off (see Backoff): skipped for 1, 2, 4 … 64 further calls of read()
    // for this device, logged once when it starts failing and once when it reads again. One
    // refused DropCounterAfter reads in a row (EINVAL, EOPNOTSUPP, EACCES: the firmware refuses
    // it) is dropped: logged once (warning, the file and the errno), counted in
    // out.files_dropped, and not read again until setDropAfter() (a reload). A file
    // reading "N/A (no PMA)" (irdma, i40iw and other drivers without a PMA agent: it will not
    // change) is no such counter, as node_exporter reads it: no sample, no ReadError, one debug
    // line the first time, and then read only every 64 calls, silently. A port without
    // counters/ yields nothing and is not an error.
    //
    // Each port's directory stays open between reads (plugin::sdk::CounterDir).
    //
    // `now_usec` is the caller's CLOCK_MONOTONIC time; the backoff counts calls, not time, so it is
    // not used today. Safe to call for different devices from different threads, not for the same
    // device concurrently.
    void read(const Device& dev, uint64_t now_usec, DeviceSamples& out);

    // Forgets the devices not in `inventory` (their open directories are closed once no read of
    // theirs is still out).
    void retain(const Inventory& inventory);
    // [daemon] DropCounterAfter= (at start and on reload): every device's next read() applies
    // it and reads its dropped files again.
    void setDropAfter(uint32_t drop_after);

private:
    struct DeviceState {
        Backoff backoff;
        std::map<uint32_t, std::unique_ptr<plugin::sdk::CounterDir>> dirs; // by port
        std::shared_ptr<const SampleLayout> layout;                        // of the last read
        uint64_t generation = 0; // of the settings the backoff has
    };
    std::shared_ptr<DeviceState> stateFor(const std::string& ibdev);

    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<DeviceState>> devices_; // by ibdev
    // Set on the worker thread, read by the reads on the PMA lane.
    std::atomic<uint32_t> drop_after_{Backoff::kDropAfter};
    std::atomic<uint64_t> generation_{0};
};

} // namespace nicd::collect
