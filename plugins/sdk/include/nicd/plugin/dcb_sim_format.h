// The simulator's DCB file, DIR/run/nicd-sim/dcb/<netdev>: what an IEEE_GET on that netdev would
// report. nicd-sim writes it (tools/nicd-sim/dcb_state.cpp, its own code on purpose) and the
// plugins read and write it under a simulated root (SimDcb). Text, one `key=value` per line; `#`
// starts a comment line; every key but `app` exactly once, decimal numbers:
//
//   pfc_cap=8          struct ieee_pfc pfc_cap (0..255)
//   pfc_en=8           enable bits: bit i = PFC on priority i (0..255)
//   mbc=0              (0..255)
//   delay=7            mlx5: cable length in metres (0..65535)
//   app=5,3,26         one APP table entry per line: selector,priority,protocol
//                      (selector 5 = DSCP, protocol = the DSCP value), in table order
//
// A netdev without a file has no DCB support in its driver (a VF, a bond, a veth).
#pragma once

#include <nicd/plugin/dcb_codec.h>

#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

std::string formatDcbSimState(const dcb::DcbState& state); // state.pfc must be set
// Throws plugin::sdk::DecodeError naming the line on text it cannot read.
dcb::DcbState parseDcbSimState(std::string_view text);

} // namespace nicd::plugin::sdk
