"""The soak's command line (and its environment variables), nicd's settings and the bounds."""

import os
import random
import sys
from dataclasses import dataclass

USAGE = """\
scripts/soak.sh [--seconds N] [--devices N] [--clients N] [--journal-rate N] [--idle N]
                [--no-faults] [--out DIR] [--build DIR] [--seed N]
(or SOAK_SECONDS, SOAK_DEVICES, SOAK_CLIENTS, SOAK_JOURNAL_RATE, SOAK_IDLE_SECONDS,
 SOAK_FAULTS=0, SOAK_OUT, NICD_BUILD_DIR, SOAK_SEED; --clients 0, --journal-rate 0 and
 --no-faults leave a load out, to tell which one a failure comes from)"""


class UsageError(Exception):
    pass


@dataclass
class Settings:
    seconds: int = 600
    devices: int = 64
    clients: int = 4
    journal_rate: int = 2000
    idle_seconds: int = 30
    seed: int = 0
    faults_on: bool = True
    out: str = ""
    build: str = ""
    # nicd's settings.
    poll_ms: int = 500  # PollIntervalMs (PmaIntervalMs 4 times it)
    watchdog_usec: int = 2_000_000  # WATCHDOG_USEC, as systemd would give it
    ring_size: int = 256  # EventRingSize: a long run wraps it
    # The loads.
    max_in_flight: int = 8  # faults at a time
    journal_segment_s: int = 30  # a new journal file every 30 s
    journal_files_kept: int = 3  # the older ones deleted (journald's vacuum)
    # The bounds (scripts/soak/__main__.py says why each).
    seen_timeout_ms: int = 45_000  # fw-drift: the inventory walks in full every 30 s
    recover_timeout_ms: int = 60_000  # from the clear
    cycle_factor: int = 3  # cycle p99 under load <= 3 x idle p99 + one poll interval
    cycle_rate_min: float = 0.80  # of the cycles due under load
    cycle_gap_max_s: float = 2.0  # between two cycles (4 poll intervals)
    memory_growth_max_kib: int = 1024  # anonymous peak, 2nd half after the warm-up against 1st
    fd_growth_max: int = 2  # after the load against idle, journal files apart

    @property
    def cycle_slack_s(self):
        return self.poll_ms / 1000

    @property
    def warmup_seconds(self):
        return min(self.seconds // 3, 120)


def _whole(option, text):
    if text is None or not text.isdigit():
        raise UsageError(f"soak: {option} takes a whole number, not '{text or ''}'")
    return int(text)


def parse(argv, env=None, here=""):
    """Settings from the command line over the environment; UsageError says what is wrong."""
    env = os.environ if env is None else env
    s = Settings()
    values = {"seconds": env.get("SOAK_SECONDS", "600"), "devices": env.get("SOAK_DEVICES", "64"),
              "clients": env.get("SOAK_CLIENTS", "4"),
              "journal_rate": env.get("SOAK_JOURNAL_RATE", "2000"),
              "idle_seconds": env.get("SOAK_IDLE_SECONDS", "30")}
    seed = env.get("SOAK_SEED")
    s.out = env.get("SOAK_OUT", "")
    s.build = env.get("NICD_BUILD_DIR", os.path.join(here, "build"))
    s.faults_on = env.get("SOAK_FAULTS", "1") != "0"
    options = {"--seconds": "seconds", "--devices": "devices", "--clients": "clients",
               "--journal-rate": "journal_rate", "--idle": "idle_seconds"}
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in options or a == "--seed":
            value = args.pop(0) if args else None
            _whole(a, value)
            if a == "--seed":
                seed = value
            else:
                values[options[a]] = value
        elif a == "--no-faults":
            s.faults_on = False
        elif a in ("--out", "--build"):
            if not args:
                raise UsageError(f"soak: {a} takes a directory")
            setattr(s, a[2:], args.pop(0))
        elif a in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        else:
            raise UsageError(f"soak: unknown argument '{a}'\n{USAGE}")
    for name, value in values.items():
        setattr(s, name, _whole("--" + name.replace("_", "-"), value))
    s.seed = _whole("--seed", seed) if seed is not None else random.randrange(32768 * 32768)
    if s.seconds < 10:
        raise UsageError("soak: --seconds must be at least 10")
    if s.devices < 2:
        raise UsageError("soak: --devices must be at least 2")
    if s.journal_rate != 0 and s.journal_rate < 10:
        raise UsageError("soak: --journal-rate must be 0 (none) or at least 10")
    return s
