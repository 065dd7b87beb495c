// What a pre-failure decoder throws on bytes or text it cannot trust: the message names the
// offset, attribute or key and what was wrong with it. The reader that called it logs the error
// for that device and source only.
#pragma once

#include <stdexcept>

namespace nicd::prefailure {

struct DecodeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace nicd::prefailure
