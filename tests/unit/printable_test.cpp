// Text from outside nicd shown safely: what an operator reads in the journal, on D-Bus and in the
// textfile never carries a raw control byte or a byte that is not UTF-8 (text/printable.hpp).
#include "text/printable.hpp"

#include <gtest/gtest.h>

using namespace nicd;

TEST(Printable, PlainTextAndOtherLanguagesPassUnchanged)
{
    for (std::string_view s : {"", "mlx5_0", "enp1s0f0np0: link up (carrier on)", "back\\slash",
                               "r\xC3\xA9seau \xE2\x82\xAC \xF0\x9F\x94\x8C", "\xC2\xA0nbsp"}) {
        EXPECT_TRUE(isPrintable(s)) << s;
        EXPECT_EQ(printable(s), s);
    }
}

TEST(Printable, ControlBytesBecomeVisibleEscapes)
{
    // A terminal escape cannot recolour the line, a newline cannot forge a second one.
    EXPECT_EQ(printable("eth\x1b[31mred"), "eth\\x1b[31mred");
    EXPECT_EQ(printable("fw 1.2\n<3>mlx5_core: fake error"), "fw 1.2\\x0a<3>mlx5_core: fake error");
    EXPECT_EQ(printable(std::string_view("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(printable("\t\r\x7f"), "\\x09\\x0d\\x7f");
    EXPECT_EQ(printable("csi \xC2\x9B"
                        "2J"),
              "csi \\xc2\\x9b2J")
        << "a C1 control is shown byte by byte";
    EXPECT_FALSE(isPrintable("eth\x1b"));
    EXPECT_FALSE(isPrintable("\xC2\x85"));
}

TEST(Printable, BytesThatAreNotUtf8BecomeVisibleEscapes)
{
    EXPECT_EQ(printable("MT_\xff"
                        "0000"),
              "MT_\\xff0000");
    EXPECT_EQ(printable("\xC0\xAF"), "\\xc0\\xaf");                   // overlong '/'
    EXPECT_EQ(printable("\xED\xA0\x80"), "\\xed\\xa0\\x80");          // a UTF-16 surrogate
    EXPECT_EQ(printable("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); // above U+10FFFF
    EXPECT_EQ(printable("cut \xE2\x82"), "cut \\xe2\\x82");           // a sequence cut short
    EXPECT_EQ(printable("\x80lone"), "\\x80lone");                    // a lone continuation byte
    EXPECT_FALSE(isPrintable("cut \xE2\x82"));
}

// Whatever the bytes, the result is printable itself: escaping twice changes nothing more.
TEST(Printable, TheResultIsAlwaysPrintable)
{
    std::string all;
    for (int c = 0; c < 256; ++c)
        all += static_cast<char>(c);
    auto shown = printable(all);
    EXPECT_TRUE(isPrintable(shown));
    EXPECT_EQ(printable(shown), shown);
    EXPECT_EQ(shown.size(), 95U + 4U * 161U) << "95 printable ASCII bytes, 161 escaped";
}

TEST(Printable, LinesKeepTheirNewlinesOnly)
{
    EXPECT_EQ(printableLines("a\x1b\nb\r\n\nc"), "a\\x1b\nb\\x0d\n\nc");
    EXPECT_EQ(printableLines("one\n"), "one\n");
    EXPECT_EQ(printableLines(""), "");
}
