// A port's hw_counters read as Samples (names copied), for the tests that compare them by name:
// the SDK reads them into a batch only (sdk::readHwCounters); this is the one read plus
// sdk::toSamples, kept here because only tests want it.
#pragma once

#include <nicd/plugin/sdk/hw_counters.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <vector>

namespace nicd::test {

inline plugin::v1::Status readHwCounterSamples(const plugin::v1::DeviceRef& dev,
                                               plugin::sdk::Backoff& backoff,
                                               plugin::sdk::HwCounterDirs& dirs,
                                               std::vector<plugin::v1::Sample>& out,
                                               plugin::sdk::HwCounterChanges* changes = nullptr,
                                               plugin::sdk::GaugeTest gauge = nullptr)
{
    plugin::v1::SampleBatch batch;
    plugin::sdk::SampleBatchBuilder b(batch);
    plugin::v1::Status s = plugin::sdk::readHwCounters(dev, backoff, dirs, b, changes, gauge);
    b.finish();
    auto samples = plugin::sdk::toSamples(batch);
    out.insert(out.end(), samples.begin(), samples.end());
    return s;
}

} // namespace nicd::test
