// Which mlx5 device is a RoCE LAG (traits.hpp).
#include "traits.hpp"

namespace nicd::mlx5 {

bool isLag(const plugin::v1::DeviceRef& dev)
{
    return dev.ibdev.starts_with("mlx5_bond_");
}

} // namespace nicd::mlx5
