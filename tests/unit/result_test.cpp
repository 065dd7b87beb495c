// nicd::Result, the error convention of the daemon's edges (text/result.hpp): a value or an Error
// with its message, read as std::expected is.
#include "text/result.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

using nicd::Error;
using nicd::Result;

namespace {

Result<int> half(int n)
{
    if (n % 2 != 0)
        return Error{"odd number " + std::to_string(n)};
    return n / 2;
}

Result<void> even(int n)
{
    if (auto h = half(n); !h)
        return h.error();
    return {};
}

} // namespace

TEST(Result, HoldsTheValueOrTheErrorWithItsMessage)
{
    const auto four = half(8);
    ASSERT_TRUE(four);
    EXPECT_EQ(*four, 4);
    EXPECT_EQ(four.value_or(-1), 4);
    const auto odd = half(7);
    ASSERT_FALSE(odd);
    EXPECT_EQ(odd.error().message, "odd number 7");
    EXPECT_EQ(odd.value_or(-1), -1);
}

TEST(Result, AStringResultTakesTextAsItsValue)
{
    Result<std::string> text = "eth0";
    ASSERT_TRUE(text.has_value());
    EXPECT_EQ(text->size(), 4u);
    Result<std::vector<std::string>> words = std::vector<std::string>{"a", "b"};
    EXPECT_EQ(std::move(*words).size(), 2u) << "a value can be moved out";
}

TEST(Result, VoidCarriesOnlyTheError)
{
    EXPECT_TRUE(even(4));
    const auto failed = even(3);
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().message, "odd number 3");
}
