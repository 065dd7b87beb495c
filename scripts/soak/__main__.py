"""make soak: nicd under load for a long time, on a simulated 64-device node, and what it held.

  scripts/soak.sh [--seconds N] [--devices N] [--clients N] [--journal-rate N] [--idle N]
                  [--no-faults] [--out DIR] [--build DIR] [--seed N]
  (python3 scripts/soak ... is the same; settings.py lists the environment variables)

nicd runs as systemd would run it (NOTIFY_SOCKET with a watchdog, on a private system bus), a
cycle every 500 ms, pre-failure signals every second. First it runs IDLE seconds (default 30)
with nothing but the simulator's counters moving: the idle cycle time. Then, for SECONDS
(default 600), all at once:
  - faults (injector.py): every 200-500 ms a random fault on a random device that has none, at
    most 8 at a time, cleared as soon as nicd's textfile shows its condition; it must be seen
    within 45 s and recover within 60 s of the clear;
  - the journal (loads.py): JOURNAL_RATE (default 2000) kernel lines a second through
    systemd-journal-remote into <root>/var/log/journal, mostly noise, 1 in 200 an mlx5 error nicd
    classifies on a device of the node (so kernel conditions raise and expire: KernelHoldSec=20),
    1 in 8 an mlx5 register access error for a PCI address the node does not have; a new journal
    file every 30 s, the oldest deleted beyond 3 (as journald rotates and vacuums);
  - CLIENTS (default 4) D-Bus clients (loads.py) calling GetManagedObjects, Device and Port
    GetCounters, GetEvents and Verify back to back, each call a new busctl process;
  - samplers (samplers.py): the textfile's head every 200 ms, memory every 500 ms, and every 2 s
    `promtool check metrics` on a copy of the textfile, descriptors, GetEvents.
The event ring is EventRingSize=256, so a run long enough wraps it.

It prints a figures block and exits 1 naming every assertion that failed (0: all held; 77: a tool
it needs is missing; 2: a wrong argument). The assertions (report.py) and their bounds:
  - nicd neither crashed nor restarted: alive at the end, READY=1 once, "started" logged once,
    nicd_cycles_total never going back;
  - every fault injected was seen and recovered (none missed, none left standing, no inject
    failed, none in flight at the end; with faults on, at least one injected);
  - every textfile sample passed `promtool check metrics` with nicd_up 1; the textfile never
    missing;
  - cycle time: p99 of nicd_cycle_duration_seconds under load <= 3 x idle p99 + one poll interval
    (500 ms: the idle p99 of a quiet machine is as low as 50 ms, and one busy second of the
    machine's other work must not fail the soak). Two cores are shared by nicd, the clients, the
    journal writer and the samplers, so a cycle under load is slower because it waits for a CPU:
    the bound allows for that and still catches a cycle that does work in proportion to the load;
  - the cycle is not starved: cycles under load >= 80% of SECONDS / PollIntervalMs, and no two
    cycles more than 2 s (4 poll intervals) apart (nicd's own timestamps);
  - the watchdog is not starved: WATCHDOG=1 keeps arriving, never WATCHDOG_USEC (2 s) apart;
  - private memory flat: anonymous memory (heap and stacks, smaps_rollup) grows by less than
    1 MiB after the warm-up (the first third of the load, at most 120 s): the peak of the second
    half of what follows the warm-up against the peak of the first half (at least 10 samples in
    each). Between two samples the heap moves by up to 2 MiB, so single samples or medians say
    nothing; the peak it comes back to each time does, and a leak lifts it. Private file-backed
    pages (sd-journal's maps of the journal files) are reported, not asserted;
  - open file descriptors flat: after the load (every fault cleared, every device back) at most
    2 more than in the idle phase, those on journal files apart, and none left on a journal file
    the vacuum deleted. During the load the count moves with the faults: reported only;
  - the event ring bounded: GetEvents(0) answered, never longer than EventRingSize;
  - the clients made calls, and none timed out or found nicd gone (errors a removed device
    explains are expected).

Everything it starts is stopped on exit, failure or interruption included (jobs.py). The work
directory (logs, samples, the figures) is kept under --out, or on failure; else removed.
"""

import os
import shutil
import signal
import sys

if sys.version_info < (3, 11):  # subprocess's process_group= (Debian 12 has 3.11)
    print("soak: skipped, it needs Python 3.11 or later", file=sys.stderr)
    sys.exit(77)

from harness import Harness  # noqa: E402
from settings import UsageError, parse  # noqa: E402


def main():
    here = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    try:
        settings = parse(sys.argv[1:], here=here)
    except UsageError as e:
        print(e, file=sys.stderr)
        return 2
    build = os.path.abspath(settings.build)
    for path in ("daemon/nicd", "tools/nicd-sim/nicd-sim", "tests/tools/notify_listen",
                 "tests/tools/journal_flood", "plugins/nicd-plugin-mlx5.so"):
        if not os.path.exists(os.path.join(build, path)):
            print(f"soak: {build}/{path} is not built (make build)", file=sys.stderr)
            return 1
    for tool in ("dbus-daemon", "busctl", "promtool", "/lib/systemd/systemd-journal-remote"):
        if not shutil.which(tool):
            print(f"soak: skipped, {tool} is not installed (scripts/install-deps.sh)")
            return 77
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    h = Harness(settings, here, build)
    try:
        return h.run()
    except KeyboardInterrupt:
        return 130
    finally:
        h.cleanup()


if __name__ == "__main__":
    sys.exit(main())
