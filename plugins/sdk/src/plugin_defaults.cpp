// The defaults of IPlugin's later virtuals: what a plugin of an older ABI minor, or one that
// overrides nothing, answers.
#include <nicd/plugin/plugin.h>

namespace nicd::plugin::v1 {

// A plugin that classifies single lines only: it sees the lines the kernel printed about a
// device, which the daemon attributes to that device whatever the text names; no device-less
// line reaches it, since it cannot tell where the kernel's own report starts.
bool IPlugin::classifyKernelRecord(const KernelRecord& rec, KernelLineMatch& out) const noexcept
{
    return !rec.deviceLess() && classifyKernelLine(rec.message, out);
}

// A plugin that names no stack frame of its own recognises no multi-line report.
bool IPlugin::classifyKernelReport(const KernelReport&, KernelLineMatch&) const noexcept
{
    return false;
}

// A plugin older than ABI 1.5 names no meaning.
void IPlugin::describeLayout(const SampleLayout&, std::vector<SeriesMeaning>&) const noexcept {}

// A plugin older than ABI 1.6 has no ready file, describes no reporter and knows no LAG.
void IPlugin::describePlugin(PluginTraits&) const noexcept {}
void IPlugin::describeDevice(const DeviceRef&, DeviceTraits&) const noexcept {}

} // namespace nicd::plugin::v1
