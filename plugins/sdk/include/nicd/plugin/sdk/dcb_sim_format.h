// The simulator's DCB file, DIR/run/nicd-sim/dcb/<netdev>: what an IEEE_GET on that netdev would
// report. nicd-sim writes it (tools/nicd-sim/dcb_state.cpp, its own code on purpose) and the
// plugins read and write it under a simulated root (SimDcb). Text, one `key=value` per line; `#`
// starts a comment line; every key but `app` at most once, decimal numbers. Required:
//
//   pfc_cap=8          struct ieee_pfc pfc_cap (0..255)
//   pfc_en=8           enable bits: bit i = PFC on priority i (0..255)
//   mbc=0              (0..255)
//   delay=7            mlx5: cable length in metres (0..65535)
//
// Optional (what a driver with these ops reports; bnxt's twin has them all):
//
//   app=5,3,26         one APP table entry per line: selector,priority,protocol
//                      (selector 5 = DSCP, protocol = the DSCP value), in table order
//   dcbx=9             the DCB_ATTR_DCBX byte (getdcbx): 9 = HOST|IEEE, the host owns DCB;
//                      10 = LLD_MANAGED|IEEE, the firmware's DCBX agent does (0..255)
//   ets_cap=8          struct ieee_ets ets_cap, the port's traffic classes (0..255); with it the
//                      reply has ETS, whose arrays default to 0 (bnxt: nothing set since load)
//   prio_tc=0,0,0,1,0,0,0,0   ETS priority -> traffic class, 8 numbers (0..7)
//   tc_tsa=2,2,0,0,0,0,0,0    ETS transmission selection per class, 8 numbers (0 strict, 2 ets)
//   tc_bw=50,50,0,0,0,0,0,0   ETS bandwidth percent per class, 8 numbers (0..100)
//
// A netdev without a file has no DCB support in its driver (a VF, a bond, a veth).
#pragma once

#include <nicd/plugin/sdk/dcb_codec.h>

#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

std::string formatDcbSimState(const dcb::DcbState& state); // state.pfc must be set
// Throws plugin::sdk::DecodeError naming the line on text it cannot read.
dcb::DcbState parseDcbSimState(std::string_view text);

} // namespace nicd::plugin::sdk
