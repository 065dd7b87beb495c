// A simulated node (nicd-sim create) whose first PF netdev, ens1f0np0, carries bnxt's DCB twin
// (nicd-sim's freshBnxtDcb: DCBX 0x09, ETS with ets_cap only, PFC off with pfc_cap 3) instead of
// mlx5's. The node's devices stay mlx5 ones until nicd-sim creates bnxt nodes; what bnxt's QoS
// reads is the DCB file (and debugfs), which is bnxt's here.
#pragma once

#include "dcb_state.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

namespace nicd::test {

class BnxtDcbNode : public SimDirTest {
protected:
    static constexpr const char* kNetdev = "ens1f0np0";
    static constexpr const char* kDevice = "mlx5_0"; // the node's device of kNetdev

    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::create(dir_, {});
        sim::writeDcb(dir_, kNetdev, sim::freshBnxtDcb());
    }
};

} // namespace nicd::test
