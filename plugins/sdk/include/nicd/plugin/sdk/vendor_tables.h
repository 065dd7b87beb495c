// What a vendor's plugin is, as data: the drivers it claims, what its counters mean, its kernel
// classifiers, what it says of itself and of its devices, and its QoS steps. sdk::VendorPlugin
// (vendor_plugin.h) implements every IPlugin virtual from these, so a vendor's plugin is its
// tables, the few functions only it can have (its kernel records, its QoS steps), and
// NICD_DECLARE_PLUGIN of sdk::TablePlugin<its tables>. A null or empty entry is "none": the
// virtual answers as the ABI's default does.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/hw_counters.h>
#include <nicd/plugin/sdk/qos_port.h>
#include <nicd/plugin/sdk/soft_lockup.h>

#include <span>
#include <string_view>

namespace nicd::plugin::sdk {

// One of the driver's devlink health reporters and what it means in error (PluginTraits).
struct ReporterRow {
    const char* name; // "fw"
    v1::ReporterMeaning meaning;
};

// What the plugin says of itself (IPlugin::describePlugin).
struct PluginFacts {
    // The file the vendor's driver deployment creates once the driver is loaded; "": none.
    const char* driver_ready_file = "";
    std::span<const ReporterRow> reporters{};
};
// `facts` as the ABI's PluginTraits.
void describeFacts(const PluginFacts& facts, v1::PluginTraits& out);

// What one series means; None for a series the vendor does not name.
using MeaningOf = v1::SeriesMeaning (*)(const v1::SeriesKey& key);
// meaning() of each series of `layout`, in its order (IPlugin::describeLayout).
void describeSeries(const v1::SampleLayout& layout, MeaningOf meaning,
                    std::vector<v1::SeriesMeaning>& out);

using RecordClassifier = bool (*)(const v1::KernelRecord& rec, v1::KernelLineMatch& out) noexcept;
using LagTest = bool (*)(const v1::DeviceRef& dev);
// The vendor's QoS steps (qos_port.h), made once per plugin: what they keep from call to call
// (bnxt's DCB owner notices) lives in them, as long as the plugin.
using QosStepsMaker = QosSteps (*)();

struct VendorTables {
    // The PCI functions' drivers (DeviceRef::driver) whose devices the plugin claims.
    std::span<const std::string_view> drivers{};
    // Which of the driver's hw_counters are levels, not counts (null: none).
    GaugeTest gauge = nullptr;
    // What its counters mean (describeLayout; null: every series None).
    MeaningOf meaning = nullptr;
    // Its driver's kernel records (classifyKernelRecord): the vendor's own function, which
    // checks a record is its driver's and feeds the text to sdk::matchKernelLine with its
    // patterns (kernel_line_matcher.h). Null: none recognised.
    RecordClassifier classify_record = nullptr;
    // Its multi-line reports (classifyKernelReport): a soft lockup in its poll loop. No frames:
    // none recognised.
    PollLoop poll_loop{};
    // Its ready file and devlink health reporters (describePlugin).
    PluginFacts facts{};
    // Which of its devices is a RoCE LAG (describeDevice; null: none).
    LagTest is_lag = nullptr;
    // Its QoS steps (verifyQos, applyQos; null: QoS NotSupported).
    QosStepsMaker qos_steps = nullptr;
};

} // namespace nicd::plugin::sdk
