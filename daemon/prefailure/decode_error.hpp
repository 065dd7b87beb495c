// What a pre-failure decoder throws on bytes or text it cannot trust: the one decode error of nicd
// and its plugins (plugin SDK, netlink_attrs.h), named here so that the decoders of this folder
// spell it DecodeError. The message names the offset, attribute or key and what was wrong with
// it. The reader that called the decoder logs the error for that device and source only.
#pragma once

#include <nicd/plugin/sdk/netlink_attrs.h>

namespace nicd::prefailure {

using DecodeError = plugin::sdk::DecodeError;

} // namespace nicd::prefailure
