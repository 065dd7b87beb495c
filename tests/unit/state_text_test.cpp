// The state file's text read back (state/state_text.hpp): what a saved file holds, and every kind
// of unusable file refused with a reason, never an exception.
#include "state/state_text.hpp"

#include <gtest/gtest.h>

using namespace nicd;

TEST(StateText, ReadsWhatNicdWrites)
{
    auto s = state::parseStateText(R"({"version":1,"boot_id":"5b1f","journal_cursor":"s=abc;i=1",)"
                                   R"("health":{"version":2}})");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->boot_id, "5b1f");
    EXPECT_EQ(s->journal_cursor, "s=abc;i=1");
    EXPECT_EQ(s->health, nlohmann::json({{"version", 2}}));
}

TEST(StateText, TheTextIsTheWholeDocumentDumped)
{
    const nlohmann::json health = {{"version", 2}, {"counters", {1, 2.5}}, {"roles", {{"a", "x"}}}};
    nlohmann::json whole = {{"version", state::PersistentState::kVersion},
                            {"boot_id", "5b1f\"\n"},
                            {"journal_cursor", "s=abc;i=1"},
                            {"health", health}};
    EXPECT_EQ(state::stateText("5b1f\"\n", "s=abc;i=1", health.dump()), whole.dump() + "\n");
    whole["journal_cursor"] = nullptr;
    const auto text = state::stateText("5b1f\"\n", std::nullopt, health.dump());
    EXPECT_EQ(text, whole.dump() + "\n");
    auto s = state::parseStateText(text);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->boot_id, "5b1f\"\n");
    EXPECT_EQ(s->health, health);
}

TEST(StateText, NoCursorAndNoHealthAreFine)
{
    auto s = state::parseStateText(R"({"version":1,"boot_id":"5b1f","journal_cursor":null})");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_FALSE(s->journal_cursor);
    EXPECT_EQ(s->health, nlohmann::json::object());
}

TEST(StateText, UnusableFilesAreRefusedWithAReason)
{
    for (const char* text :
         {"", "{", "[1]", "null", R"({"boot_id":"x"})", R"({"version":1})",
          R"({"version":1,"boot_id":7})", R"({"version":2,"boot_id":"x"})",
          R"({"version":"1","boot_id":"x"})", R"({"version":true,"boot_id":"x"})",
          R"({"version":1.0,"boot_id":"x"})"}) {
        auto s = state::parseStateText(text);
        ASSERT_FALSE(s) << text;
        EXPECT_FALSE(s.error().message.empty()) << text;
    }
}

// The version was converted to int: a double outside int's range (1e300) is undefined behaviour,
// which fuzz-state_file's UBSan reports (tests/data/fuzz/state_file/regressions/). It is compared
// as JSON now.
TEST(StateText, AVersionOutOfIntRangeIsRefused)
{
    for (const char* text :
         {R"({"version":1e300,"boot_id":"x"})", R"({"version":18446744073709551615,"boot_id":"x"})",
          R"({"version":-4294967295,"boot_id":"x"})"}) {
        auto s = state::parseStateText(text);
        ASSERT_FALSE(s) << text;
        EXPECT_NE(s.error().message.find("this nicd writes 1"), std::string::npos)
            << s.error().message;
    }
}
