// The readiness source: what the readiness checks (health/readiness_checks.hpp) read of every
// device that is not a VF (a VF is judged where it is used, in its pod or VM; which devices are
// compute is known only after the sources read, so the judge picks them), on the
// slow interval ([signals] IntervalSec=; these change rarely) and at once after a netdev's link
// event (an MTU change comes as one: readSoonFlag). One read covers the node: its ports' GIDs, LID
// and netdev MTU, each device's verbs device, each InfiniBand port's umad and issm devices (RoCE
// has no subnet manager: not read), the GPUs it serves and the PCIe bridges between them (their
// ACS control), and, on a node with NVIDIA GPUs, GPUDirect's evidence. Sysfs only (no firmware
// command), still under the driver deadline: a read left behind keeps the last values. A tree
// given with --root that has no /sys/class/infiniband_verbs (or infiniband_mad) at all (a capture
// made before nicd read it) leaves the verbs (or umad) check unknown rather than failed.
#pragma once

#include "collect/source.hpp"
#include "config/host_paths.hpp"
#include "prefailure/guarded_reads.hpp"

#include <atomic>
#include <chrono>
#include <memory>

namespace nicd::readiness {

class ReadinessSource : public collect::Source {
public:
    ReadinessSource(HostPaths paths, std::chrono::milliseconds interval,
                    std::chrono::milliseconds timeout);

    std::string name() const override { return "readiness"; }
    std::chrono::milliseconds interval() const override;
    bool keyedByDevice() const override { return true; }
    void read(const Inventory& inventory) override;
    void fill(Snapshot& snap) override { snap.readiness = last_; }
    // Set from any thread: the next cycle reads again whatever the interval.
    std::shared_ptr<std::atomic<bool>> readSoonFlag() const { return soon_; }

private:
    HostPaths paths_;
    std::chrono::milliseconds interval_;
    prefailure::GuardedReads guard_;
    ReadinessInputs last_;
    std::shared_ptr<std::atomic<bool>> soon_ = std::make_shared<std::atomic<bool>>(false);
};

// Everything the source reads of `inventory` (what ReadinessSource::read runs on its lane).
ReadinessInputs readReadiness(const HostPaths& paths, const Inventory& inventory);

} // namespace nicd::readiness
