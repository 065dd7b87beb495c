"""The soak's assertions (scripts/soak/report.py) on hand-built samples: a healthy run passes,
and each thing the soak guards fails it with a message that says what."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "soak"))

from report import Run, Samples, judge  # noqa: E402
from settings import Settings  # noqa: E402

IDLE_MS, LOAD_MS = 30_000, 60_000


def healthy():
    """60 s of load after 30 s idle on a node that held: a cycle every 500 ms taking 50 ms idle
    and 120 ms under load, flat memory and descriptors, a fault seen and recovered, a client."""
    s = Settings(seconds=LOAD_MS // 1000, idle_seconds=IDLE_MS // 1000, clients=1, devices=4,
                 seed=1)
    run = Run(t_start=1_000_000, t_load=1_000_000 + IDLE_MS, t_end=1_000_000 + IDLE_MS + LOAD_MS,
              nicd_pid=42, alive=True, final=["30000", "9000", "8000", "700", "3", "0"],
              injector_done=True, journal_lines=120_000, state_size=600_000, work="/w")
    samples = Samples()
    for i, t in enumerate(range(0, IDLE_MS + LOAD_MS, 500)):
        phase = "idle" if t < IDLE_MS else "load"
        duration = "0.050" if phase == "idle" else "0.120"
        samples.cycles.append([phase, str(t), str(i), duration, f"{1000 + t / 1000:.3f}", "1"])
        samples.memory.append([phase, str(t), str(8000 + (t // 500) % 3 * 100), "9000", "30000"])
    for t in range(0, IDLE_MS + LOAD_MS, 2000):
        phase = "idle" if t < IDLE_MS else "load"
        samples.process.append([phase, str(t), "30000", "9000", "8000", "700", "3", "0", "12",
                                str(t // 1000), "600000", str(t // 100), "ok"])
    samples.faults = [["1", "link-down", "mlx5_1", "port_down", "recovered", "900", "5800"]]
    samples.calls = ["GetEvents 12 ok", "Verify 30 ok",
                     "Device.GetCounters 5 error Call failed: Unknown object '/io/nicd/Nicd1/device/mlx5_3'."]
    samples.notify = ["1000 READY=1"] + [f"{1000 + k * 900_000} WATCHDOG=1" for k in range(100)]
    samples.nicd_log = ["I nicd 1.0 started (root /w/node)", "W a warning"]
    return s, run, samples


class Healthy(unittest.TestCase):
    def test_a_healthy_run_passes_and_says_what_it_saw(self):
        lines, failures = judge(*healthy())
        self.assertEqual(failures, [])
        text = "\n".join(lines)
        self.assertIn("faults:         injected 1, seen 1, recovered 1 (link-down 1)", text)
        self.assertIn("cycle time:     idle p50 50.0 ms, p99 50.0 ms (60 cycles); under load p50 "
                      "120.0 ms, p99 120.0 ms, max 120.0 ms (120 cycles sampled); bound 650.0 ms",
                      text)
        self.assertIn("cycle rate:     119 cycles under load of 120 due; longest gap 0.500 s", text)
        self.assertIn("watchdog:       100 pings, longest gap 900 ms", text)
        self.assertIn("descriptors:    idle 700, after the load 700 (growth 0)", text)
        self.assertIn("errors 1 (Call failed: Unknown object '/io/nicd/Nicd1/device/DEV'. x1), "
                      "0 timed out", text)
        self.assertIn("memory:         anonymous peak 8200 -> 8200 KiB over two 20 s halves after "
                      "a 20 s warm-up: growth 0 KiB", text)


class Failures(unittest.TestCase):
    def failures(self, change):
        s, run, samples = healthy()
        change(s, run, samples)
        return judge(s, run, samples)[1]

    def assertFails(self, change, *words):
        failures = self.failures(change)
        self.assertEqual(len(failures), 1, failures)
        for w in words:
            self.assertIn(w, failures[0])

    def test_a_restart(self):
        self.assertFails(lambda s, r, x: x.notify.append("5000 READY=1"), "READY=1 came 2 times")
        self.assertFails(lambda s, r, x: x.cycles.insert(100, ["load", "50000", "3", "0.1", "-", "1"]),
                         "nicd_cycles_total went back 1 times")

    def test_nicd_gone(self):
        def gone(s, r, x):
            r.alive = False
        self.assertFails(gone, "nicd is gone")

    def test_a_fault_missed_or_not_recovered(self):
        self.assertFails(lambda s, r, x: x.faults.append(
            ["2", "fw-drift", "mlx5_2", "firmware_drift", "missed", "-1", "300"]),
            "did not show within 45 s: fw-drift mlx5_2 (firmware_drift)")
        self.assertFails(lambda s, r, x: x.faults.append(
            ["2", "lossy", "mlx5_0", "congestion.lossy", "not-recovered", "800", "-1"]),
            "did not recover within 60 s", "lossy mlx5_0")

    def test_no_fault_injected_with_faults_on(self):
        self.assertFails(lambda s, r, x: x.faults.clear(), "no fault was injected")

    def test_an_invalid_textfile_sample(self):
        self.assertFails(lambda s, r, x: x.process[5].__setitem__(12, "invalid"),
                         "1 of 45 textfile samples were not valid")

    def test_a_slow_cycle_under_load(self):
        def slow(s, r, x):
            for row in x.cycles[-10:]:
                row[3] = "0.900"
        self.assertFails(slow, "cycle p99 under load 900.0 ms > bound 650.0 ms")

    def test_a_starved_cycle(self):
        def stalled(s, r, x):  # one cycle 3 s after the one before
            for row in x.cycles[100:]:
                row[4] = f"{float(row[4]) + 2.5:.3f}"
        self.assertFails(stalled, "two cycles 3.000 s apart under load")

        def few(s, r, x):  # cycles_total moves every other sample: half the cycles due
            for row in x.cycles:
                row[2] = str(int(row[2]) // 2)
        self.assertFails(few, "only 59 cycles under load of 120 due (< 80%)")

    def test_a_watchdog_gap(self):
        self.assertFails(lambda s, r, x: x.notify.append(f"{1000 + 99 * 900_000 + 2_100_000} WATCHDOG=1"),
                         "the watchdog went 2100 ms without a ping")

    def test_memory_that_grows_after_the_warm_up(self):
        def leak(s, r, x):
            for row in x.memory:
                if int(row[1]) > 70_000:
                    row[2] = "9300"
        self.assertFails(leak, "anonymous memory grew by 1100 KiB", "8200 -> 9300")

    def test_too_few_memory_samples(self):
        def few(s, r, x):
            x.memory[:] = [row for row in x.memory if int(row[1]) % 5000 == 0]
        self.assertFails(few, "only 5 and 4 memory samples after the warm-up")

    def test_descriptors_left_open(self):
        def grown(s, r, x):
            r.final[3] = "703"
        self.assertFails(grown, "open file descriptors grew by 3 over the soak (700 idle -> 703")

        def deleted(s, r, x):
            r.final[5] = "2"
        self.assertFails(deleted, "2 descriptors still open on deleted journal files")

    def test_an_event_ring_over_its_size(self):
        self.assertFails(lambda s, r, x: x.process[30].__setitem__(8, "257"),
                         "GetEvents returned 257 events, more than EventRingSize=256")

    def test_a_dbus_call_that_timed_out(self):
        self.assertFails(lambda s, r, x: x.calls.append(
            "Verify 30001 error Call failed: Connection timed out"), "1 D-Bus calls timed out")


if __name__ == "__main__":
    unittest.main()
