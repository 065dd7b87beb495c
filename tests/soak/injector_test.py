"""What the soak's fault injector reads from the textfile (scripts/soak/injector.py)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "soak"))

from injector import conditions, seen_after  # noqa: E402

TEXTFILE = """\
# HELP nicd_condition_active A condition nicd holds on a port.
nicd_condition_active{device="mlx5_1",port="1",code="port_down",severity="fatal",action="check_cable"} 1
nicd_condition_since_timestamp_seconds{device="mlx5_1",port="1",code="port_down"} 1795760961.5085373
nicd_condition_active{device="mlx5_2",port="1",code="congestion.lossy",severity="degraded"} 1
nicd_port_state{device="mlx5_3",port="1"} 1 nicd_condition_active{device="mlx5_3",port="1",code="x"} 1
nicd_condition_since_timestamp_seconds{device="mlx5_2",port="1",code="congestion.lossy"} 1.7957609e+09"""


class Conditions(unittest.TestCase):
    def test_the_conditions_shown_and_since_when(self):
        active, since = conditions(TEXTFILE)
        self.assertEqual(active, {("mlx5_1", "port_down"), ("mlx5_2", "congestion.lossy")})
        self.assertEqual(since, {("mlx5_1", "port_down"): 1795760961.5085373,
                                 ("mlx5_2", "congestion.lossy"): 1.7957609e+09})

    def test_an_empty_or_unrelated_textfile_shows_none(self):
        self.assertEqual(conditions(""), (set(), {}))
        self.assertEqual(conditions("nicd_up 1\n"), (set(), {}))


class SeenAfter(unittest.TestCase):
    def test_nicds_own_time_when_earlier_than_the_harness_looked(self):
        # Injected at t0 = 1000 s; nicd raised it at 1000.9 s; the harness looked 2.5 s later.
        self.assertEqual(seen_after(1_000_000, 1000.9, 2500), 900)

    def test_the_harness_time_without_nicds_or_when_nicds_is_later(self):
        self.assertEqual(seen_after(1_000_000, None, 2500), 2500)
        self.assertEqual(seen_after(1_000_000, 1004.0, 2500), 2500)

    def test_a_condition_older_than_the_injection_is_seen_at_once(self):
        self.assertEqual(seen_after(1_000_000, 999.0, 2500), 0)


if __name__ == "__main__":
    unittest.main()
