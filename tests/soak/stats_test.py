"""The soak's statistics (scripts/soak/stats.py) on hand-built numbers."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "soak"))

from stats import (cpu_share, fmt, longest_cycle_gap, longest_gap, median, ms,  # noqa: E402
                   percentile, slope, times_went_back)


class Percentile(unittest.TestCase):
    def test_nearest_rank_of_a_hundred_values(self):
        values = list(range(100, 0, -1))  # unsorted on purpose
        self.assertEqual(percentile(values, 50), 50)
        self.assertEqual(percentile(values, 99), 99)
        self.assertEqual(percentile(values, 100), 100)

    def test_rank_rounds_up_between_values(self):
        # 120 cycles: p99 is rank ceil(118.8) = 119, the second largest.
        values = list(range(1, 121))
        self.assertEqual(percentile(values, 99), 119)
        self.assertEqual(percentile([1, 2, 3], 50), 2)

    def test_zero_is_the_minimum_and_one_value_is_every_percentile(self):
        self.assertEqual(percentile([7, 3, 9], 0), 3)
        self.assertEqual(percentile([0.25], 0), 0.25)
        self.assertEqual(percentile([0.25], 99), 0.25)

    def test_no_values_is_no_percentile(self):
        self.assertIsNone(percentile([], 50))
        self.assertEqual(fmt(percentile([], 99)), "nan")

    def test_a_rank_a_hair_above_a_whole_number_is_that_number(self):
        # awk's int(p / 100 * n + 0.999999): float noise does not move the rank.
        self.assertEqual(percentile(list(range(1, 101)), 29), 29)  # 0.29 * 100 = 28.999999999999996


class Median(unittest.TestCase):
    def test_odd_and_even_counts_take_the_lower_middle(self):
        self.assertEqual(median([5, 1, 3]), 3)
        self.assertEqual(median([4, 1, 3, 2]), 2)
        self.assertIsNone(median([]))


class Slope(unittest.TestCase):
    def test_a_straight_line_gives_its_slope(self):
        self.assertAlmostEqual(slope([(0, 10), (1, 12), (2, 14), (3, 16)]), 2.0)

    def test_noise_around_a_flat_line_is_about_zero(self):
        self.assertAlmostEqual(slope([(0, 10), (1, 12), (2, 11), (3, 12), (4, 10)]), 0.0)

    def test_too_few_points_or_one_x_is_no_slope(self):
        self.assertIsNone(slope([(0, 1), (1, 2)]))
        self.assertIsNone(slope([(1, 1), (1, 2), (1, 3)]))


class Gaps(unittest.TestCase):
    def test_longest_gap_between_times(self):
        self.assertEqual(longest_gap([0, 500, 1000, 2900, 3400]), 1900)
        self.assertEqual(longest_gap([5]), 0)

    def test_a_sampler_that_missed_cycles_is_not_a_cycle_gap(self):
        # Four cycles in 2 s between two samples: 0.5 s each, not a 2-s gap.
        self.assertAlmostEqual(longest_cycle_gap([(10, 100.0), (14, 102.0)]), 0.5)

    def test_a_stalled_cycle_is_a_cycle_gap(self):
        samples = [(10, 100.0), (11, 100.5), (12, 103.0), (13, 103.5)]
        self.assertAlmostEqual(longest_cycle_gap(samples), 2.5)

    def test_samples_of_the_same_cycle_are_no_gap(self):
        self.assertEqual(longest_cycle_gap([(10, 100.0), (10, 100.0), (9, 90.0)]), 0)


class Counters(unittest.TestCase):
    def test_a_counter_going_back_is_counted(self):
        self.assertEqual(times_went_back([1, 2, 3, 1, 2, 0]), 2)
        self.assertEqual(times_went_back([1, 1, 2]), 0)

    def test_cpu_share_between_first_and_last_sample(self):
        # 50 ticks of 100 a second over 2 s: a quarter of a core.
        self.assertAlmostEqual(cpu_share([(1000, 100), (2000, 120), (3000, 150)], 100), 0.25)
        self.assertIsNone(cpu_share([(1000, 100)], 100))
        self.assertIsNone(cpu_share([(1000, 100), (1000, 120)], 100))


class Format(unittest.TestCase):
    def test_milliseconds_with_one_decimal(self):
        self.assertEqual(ms(0.0523), "52.3")
        self.assertEqual(ms(None), "nan")
        self.assertEqual(fmt(61.04, ".1f"), "61.0")


if __name__ == "__main__":
    unittest.main()
