#include "bnxt_traits.hpp"

namespace nicd::bnxt {

namespace pv1 = ::nicd::plugin::v1;

void describePlugin(pv1::PluginTraits& out)
{
    out.reporters = {{"fw", pv1::ReporterMeaning::FirmwareReset},
                     {"fw_fatal", pv1::ReporterMeaning::FirmwareReset},
                     {"fw_reset", pv1::ReporterMeaning::Recoverable}};
}

} // namespace nicd::bnxt
