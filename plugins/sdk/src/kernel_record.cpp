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

} // namespace nicd::plugin::v1
