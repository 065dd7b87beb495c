// What a decoder refuses malformed input with, for the tests of what it says.
#pragma once

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <string>

#include <gtest/gtest.h>

namespace nicd::test {

// The message of the DecodeError that `f` throws; a test failure when it throws none.
template <class F> std::string decodeErrorOf(F&& f)
{
    try {
        f();
    } catch (const plugin::sdk::DecodeError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no DecodeError";
    return {};
}

} // namespace nicd::test
