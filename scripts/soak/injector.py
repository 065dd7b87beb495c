"""The soak's faults: every 200-500 ms a random fault on a random device that has none, at most
max_in_flight at a time, through `nicd-sim inject`; each is cleared as soon as nicd's textfile
shows its condition, and must then recover. One line per fault to faults.log:
  id fault device code outcome seen_ms recovered_ms
outcome: recovered, missed (not seen within seen_timeout_ms: seen_ms -1) or not-recovered (still
shown recovered_timeout_ms after the clear: recovered_ms -1). "Seen after" is nicd's own time:
from the injection to the condition's nicd_condition_since_timestamp_seconds, when that is
earlier than when this loop looked.
"""

import os
import random
import re
import subprocess
import time

from samplers import harness_priority, now_ms

# fault, clear, condition code
FAULTS = [
    ("link-down", "link-up", "port_down"),
    ("fec-degrade", "fec-degrade-clear", "fec_margin"),
    ("optics-rx-low", "optics-rx-low-clear", "optics_rx_power_low"),
    ("asic-hot", "asic-hot-clear", "asic_temperature_high"),
    ("fw-fatal", "fw-fatal-clear", "firmware_fatal"),
    ("pcie-downtrain", "pcie-downtrain-clear", "pcie_link_degraded"),
    ("rate-downtrain", "rate-downtrain-clear", "port_rate_degraded"),
    ("fw-drift", "fw-drift-clear", "firmware_drift"),
    ("pause-storm", "pause-storm-clear", "congestion.pause_storm"),
    ("lossy", "lossy-clear", "congestion.lossy"),
    ("remove", "restore", "device_missing"),
]

CONDITION = re.compile(r'nicd_condition_(active|since_timestamp_seconds)\{device="([^"]*)",'
                       r'port="[0-9]+",code="([^"]*)"(\} ([0-9.e+]+)$)?')


def conditions(text):
    """The conditions a textfile shows: {(device, code)} and {(device, code): since_seconds}.
    The lines are found with str.find (a regular expression over the whole textfile of 64
    devices, ~600 KB, takes 20 ms: a fifth of a CPU at the injector's pace)."""
    active, since = set(), {}
    start = 0
    while (i := text.find("nicd_condition_", start)) >= 0:
        end = text.find("\n", i)
        end = len(text) if end < 0 else end
        m = CONDITION.match(text, i, end) if i == 0 or text[i - 1] == "\n" else None
        if m and m.group(1) == "active":
            active.add((m.group(2), m.group(3)))
        elif m and m.group(5):
            since[(m.group(2), m.group(3))] = float(m.group(5))
        start = end
    return active, since


def seen_after(t0_ms, since_s, looked_ms):
    """When nicd saw a fault injected at t0_ms: its own time (since_s) when that is known and no
    later than when the harness looked (looked_ms after the injection)."""
    if since_s is None:
        return looked_ms
    own = max(int(since_s * 1000 - t0_ms), 0)
    return min(own, looked_ms)


def injector(h, stop):
    harness_priority()
    s = h.settings
    rng = random.Random(s.seed)
    err = open(os.path.join(h.work, "injector.err"), "a", buffering=1)
    out = open(os.path.join(h.work, "faults.log"), "a", buffering=1)

    def inject(what, dev):
        r = subprocess.run([h.sim, "inject", h.root, what, dev], stdout=subprocess.DEVNULL,
                           stderr=err)
        if r.returncode != 0:
            err.write(f"{time.strftime('%T')} {what} {dev} failed\n")
        return r.returncode == 0

    faults = {}  # id: dict(dev, kind, state, t0, seen)
    busy = set()
    fault_id = next_inject = 0
    while True:
        now = now_ms()
        stopping = stop.is_set()
        if stopping and not faults:
            break
        try:
            with open(h.textfile) as f:
                active, since = conditions(f.read())
        except OSError:
            active, since = set(), {}
        for i, f in list(faults.items()):
            fault, clear, code = FAULTS[f["kind"]]
            shown = (f["dev"], code) in active
            if f["state"] == "injected":
                if shown or now - f["t0"] > s.seen_timeout_ms:
                    f["seen"] = seen_after(f["t0"], since.get((f["dev"], code)),
                                           now - f["t0"]) if shown else -1
                    inject(clear, f["dev"])
                    f["t0"], f["state"] = now_ms(), "cleared"
            elif not shown or now - f["t0"] > s.recover_timeout_ms:
                outcome, recovered = "recovered", now - f["t0"]
                if shown:
                    outcome, recovered = "not-recovered", -1
                if f["seen"] == -1:
                    outcome = "missed"
                out.write(f"{i} {fault} {f['dev']} {code} {outcome} {f['seen']} {recovered}\n")
                del faults[i]
                if outcome == "recovered":  # a device whose fault did not go away is not used again
                    busy.discard(f["dev"])
        if not stopping and now >= next_inject and len(faults) < s.max_in_flight:
            next_inject = now + 200 + rng.randrange(300)
            dev = rng.choice(h.node_devices)
            kind = rng.randrange(len(FAULTS))
            if dev not in busy and inject(FAULTS[kind][0], dev):
                fault_id += 1
                busy.add(dev)
                faults[fault_id] = {"dev": dev, "kind": kind, "state": "injected",
                                    "t0": now_ms(), "seen": -1}
        time.sleep(0.1)
    out.close()
    err.close()
    open(os.path.join(h.work, "injector.done"), "w").close()
