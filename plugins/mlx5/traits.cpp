#include "traits.hpp"

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

void describePlugin(pv1::PluginTraits& out)
{
    out.driver_ready_file = kDriverReadyFile;
    out.reporters = {{"fw_fatal", pv1::ReporterMeaning::FirmwareFatal},
                     {"fw", pv1::ReporterMeaning::FirmwareError},
                     {"tx", pv1::ReporterMeaning::Recoverable},
                     {"rx", pv1::ReporterMeaning::Recoverable}};
}

bool isLag(const pv1::DeviceRef& dev)
{
    return dev.ibdev.starts_with("mlx5_bond_");
}

} // namespace nicd::mlx5
