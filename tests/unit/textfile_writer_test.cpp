// The exposition format node_exporter parses: one HELP and TYPE per family, escaped label values
// and help, values that read back exactly, names a Prometheus user can rely on.
#include "textfile/metric_writer.hpp"

#include <cstdlib>
#include <limits>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;

TEST(MetricWriter, WritesOneHelpAndTypeThenTheSamplesInCallOrder)
{
    textfile::MetricWriter w;
    w.family("nicd_b", textfile::MetricType::Gauge, "Second letter.");
    w.sample({{"x", "2"}}, 2.0);
    w.sample({{"x", "1"}}, 1.0);
    w.family("nicd_a_total", textfile::MetricType::Counter, "First letter.");
    w.sample({}, uint64_t{7});
    EXPECT_EQ(w.text(), "# HELP nicd_b Second letter.\n# TYPE nicd_b gauge\n"
                        "nicd_b{x=\"2\"} 2\nnicd_b{x=\"1\"} 1\n"
                        "# HELP nicd_a_total First letter.\n# TYPE nicd_a_total counter\n"
                        "nicd_a_total 7\n");
}

TEST(MetricWriter, EscapesLabelValuesAndHelp)
{
    textfile::MetricWriter w;
    w.family("nicd_x", textfile::MetricType::Gauge, "Help with \\, \"quotes\" and\nnewline.");
    w.sample({{"a", "q\"uote"}, {"b", "back\\slash\nnl"}}, 1.5);
    EXPECT_EQ(w.text(), "# HELP nicd_x Help with \\\\, \"quotes\" and\\nnewline.\n"
                        "# TYPE nicd_x gauge\n"
                        "nicd_x{a=\"q\\\"uote\",b=\"back\\\\slash\\nnl\"} 1.5\n");
}

TEST(MetricWriter, ShowsControlBytesAndInvalidUtf8AsVisibleEscapesSoTheFileStillParses)
{
    // A firmware string with a stray byte must not make node_exporter drop the whole file, and a
    // terminal escape must not reach whoever reads it raw: both become the text \xNN.
    EXPECT_EQ(textfile::MetricWriter::escapeLabelValue("MT_\xff"
                                                       "0000"),
              "MT_\\\\xff0000");
    EXPECT_EQ(textfile::MetricWriter::escapeLabelValue("\xC0\xAF"), "\\\\xc0\\\\xaf"); // overlong
    EXPECT_EQ(textfile::MetricWriter::escapeLabelValue("\xED\xA0\x80"),
              "\\\\xed\\\\xa0\\\\x80"); // UTF-16 surrogate
    EXPECT_EQ(textfile::MetricWriter::escapeLabelValue("cut \xE2\x82"), "cut \\\\xe2\\\\x82");
    EXPECT_EQ(textfile::MetricWriter::escapeLabelValue("eth\x1b[31mred\x7f\r\t"),
              "eth\\\\x1b[31mred\\\\x7f\\\\x0d\\\\x09");
    EXPECT_EQ(textfile::MetricWriter::escapeLabelValue("c1 \xC2\x9B"),
              "c1 \\\\xc2\\\\x9b"); // C1 CSI
    EXPECT_EQ(
        textfile::MetricWriter::escapeLabelValue("r\xC3\xA9seau \xE2\x82\xAC \xF0\x9F\x94\x8C"),
        "r\xC3\xA9seau \xE2\x82\xAC \xF0\x9F\x94\x8C"); // valid UTF-8 is kept
    EXPECT_EQ(textfile::MetricWriter::escapeHelp("bad \xfe help"), "bad \\\\xfe help");
}

TEST(MetricWriter, RefusesNamesPrometheusOrTheContractWouldReject)
{
    textfile::MetricWriter w;
    EXPECT_THROW(w.sample(1.0), std::logic_error); // no family yet
    EXPECT_THROW(w.family("node_x", textfile::MetricType::Gauge, "no prefix"), std::logic_error);
    EXPECT_THROW(w.family("nicd_bad-name", textfile::MetricType::Gauge, "dash"), std::logic_error);
    EXPECT_THROW(w.family("nicd_errors", textfile::MetricType::Counter, "no _total"),
                 std::logic_error);
    EXPECT_THROW(w.family("nicd_errors_total", textfile::MetricType::Gauge, "gauge _total"),
                 std::logic_error);
    EXPECT_THROW(w.family("nicd_hw_counter_total", textfile::MetricType::Counter, "type in name"),
                 std::logic_error);
    EXPECT_THROW(w.family("nicd_hw_gauge", textfile::MetricType::Gauge, "type in name"),
                 std::logic_error);
    EXPECT_THROW(w.family("nicd_linkState", textfile::MetricType::Gauge, "camelCase"),
                 std::logic_error);
    EXPECT_THROW(w.family("nicd_rule:rate", textfile::MetricType::Gauge, "recording rule"),
                 std::logic_error);
    w.family("nicd_x", textfile::MetricType::Gauge, "once");
    EXPECT_THROW(w.family("nicd_x", textfile::MetricType::Gauge, "again"), std::logic_error);
    EXPECT_THROW(w.sample({{"1abc", "v"}}, 1.0), std::logic_error);
    EXPECT_THROW(w.sample({{"__name__", "v"}}, 1.0), std::logic_error);
    EXPECT_THROW(w.sample({{"a-b", "v"}}, 1.0), std::logic_error);
    EXPECT_THROW(w.sample({{"netDev", "v"}}, 1.0), std::logic_error);
    EXPECT_NO_THROW(w.sample({{"_ok9", "v"}}, 1.0));
    w.family("nicd_y", textfile::MetricType::Gauge, "names checked by position");
    EXPECT_NO_THROW(w.sample({{"a", "1"}, {"b", "2"}}, 1.0));
    EXPECT_THROW(w.sample({{"a", "2"}, {"b-c", "2"}}, 1.0), std::logic_error);
    EXPECT_THROW(w.sample({{"a", "3"}, {"b", "2"}, {"C", "3"}}, 1.0), std::logic_error);
}

TEST(MetricWriter, IntegersAreExactUpTo2To64Minus1)
{
    textfile::MetricWriter w;
    w.family("nicd_x_total", textfile::MetricType::Counter, "big");
    w.sample({{"n", "max"}}, std::numeric_limits<uint64_t>::max());
    w.sample({{"n", "2^53+1"}}, uint64_t{9007199254740993}); // not representable as a double
    w.sample({{"n", "zero"}}, uint64_t{0});
    EXPECT_EQ(w.text(), "# HELP nicd_x_total big\n# TYPE nicd_x_total counter\n"
                        "nicd_x_total{n=\"max\"} 18446744073709551615\n"
                        "nicd_x_total{n=\"2^53+1\"} 9007199254740993\n"
                        "nicd_x_total{n=\"zero\"} 0\n");
}

TEST(MetricWriter, DoublesReadBackAsTheSameValue)
{
    EXPECT_EQ(textfile::MetricWriter::formatDouble(0.1), "0.1");
    EXPECT_EQ(textfile::MetricWriter::formatDouble(1700000000.25), "1700000000.25");
    EXPECT_EQ(textfile::MetricWriter::formatDouble(5e10), "50000000000");
    EXPECT_EQ(textfile::MetricWriter::formatDouble(-3), "-3");
    EXPECT_EQ(textfile::MetricWriter::formatDouble(std::numeric_limits<double>::quiet_NaN()),
              "NaN");
    EXPECT_EQ(textfile::MetricWriter::formatDouble(std::numeric_limits<double>::infinity()),
              "+Inf");
    EXPECT_EQ(textfile::MetricWriter::formatDouble(-std::numeric_limits<double>::infinity()),
              "-Inf");
    for (double v : {1.0 / 3.0, 2.0 / 3.0 * 1e-300, 1e300, 123456789.123456789,
                     std::numeric_limits<double>::min(), std::numeric_limits<double>::max(), -0.004,
                     9007199254740993.0, 1.8446744073709552e19}) {
        auto text = textfile::MetricWriter::formatDouble(v);
        EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
        EXPECT_EQ(text.find(' '), std::string::npos) << text;
    }
}

TEST(MetricWriter, DropsARepeatedSeriesInsteadOfBreakingTheScrape)
{
    textfile::MetricWriter w;
    w.family("nicd_a", textfile::MetricType::Gauge, "a");
    w.sample({{"plugin", "mlx5"}}, 1.0);
    w.sample({{"plugin", "mlx5"}}, 0.0); // the same series again
    w.sample({{"plugin", "acme"}}, 0.0);
    w.family("nicd_b", textfile::MetricType::Gauge, "b");
    w.sample({{"plugin", "mlx5"}}, 2.0); // another family: not a repeat
    EXPECT_EQ(w.text(), "# HELP nicd_a a\n# TYPE nicd_a gauge\n"
                        "nicd_a{plugin=\"mlx5\"} 1\nnicd_a{plugin=\"acme\"} 0\n"
                        "# HELP nicd_b b\n# TYPE nicd_b gauge\nnicd_b{plugin=\"mlx5\"} 2\n");
    EXPECT_EQ(w.duplicatesDropped(), 1U);
}

// Thousands of series in one family (64 devices' counters): none is taken for a repeat, and a
// repeat of the first is still caught after the table of seen series has grown.
TEST(MetricWriter, ManySeriesAreKeptAndARepeatIsCaughtAfterGrowth)
{
    textfile::MetricWriter w;
    w.family("nicd_many_total", textfile::MetricType::Counter, "many");
    for (int i = 0; i < 5000; ++i)
        w.sample({{"counter", "c" + std::to_string(i)}}, uint64_t{1});
    w.sample({{"counter", "c0"}}, uint64_t{2});
    w.sample({{"counter", "c4999"}}, uint64_t{2});
    EXPECT_EQ(w.duplicatesDropped(), 2U);
    size_t lines = 0;
    for (char c : w.text())
        lines += c == '\n' ? 1 : 0;
    EXPECT_EQ(lines, 5000U + 2U) << "HELP, TYPE and every distinct series";
}
