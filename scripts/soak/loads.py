"""The soak's loads besides the faults (injector.py): the kernel log flood and the D-Bus clients,
each a thread that runs until the harness's stop event.
"""

import glob
import os
import random
import subprocess
import threading
import time


def journal_flood(h, stop):
    """JOURNAL_RATE kernel lines a second (tests/tools/journal_flood: mostly noise, 1 in 200 an
    mlx5 error on a device of the node) through systemd-journal-remote into the node's journal:
    a new file every journal_segment_s, the oldest deleted beyond journal_files_kept (as
    journald's SystemMaxUse= vacuums)."""
    s = h.settings
    count_file = os.path.join(h.work, "journal.count")
    with open(count_file, "w") as f:
        f.write("0\n")
    segment = n = 0
    with open(os.path.join(h.work, "journal-remote.log"), "ab") as log:
        while not stop.is_set():
            with open(count_file, "wb") as count:
                flood = subprocess.Popen(
                    [h.journal_flood_bin, "--stop-file", h.stop_file, str(s.journal_rate),
                     str(s.journal_segment_s), h.boot_id, str(n)] + h.node_pcis,
                    stdout=subprocess.PIPE, stderr=count)
                remote = subprocess.run(
                    [h.journal_remote, f"--output={h.journal_dir}/flood-{segment}.journal", "-"],
                    stdin=flood.stdout, stdout=log, stderr=log)
                flood.stdout.close()
                flood.wait()
            if remote.returncode != 0 or flood.returncode != 0:
                log.write(f"systemd-journal-remote failed on flood-{segment}.journal\n".encode())
                log.flush()
            try:
                with open(count_file) as f:
                    n = int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass
            segment += 1
            files = sorted(glob.glob(os.path.join(h.journal_dir, "flood-*.journal")),
                           key=lambda p: os.stat(p).st_mtime, reverse=True)
            for old in files[s.journal_files_kept:]:
                try:
                    os.remove(old)
                except OSError:
                    pass


METHODS = [
    ("GetManagedObjects", lambda dev: ["/io/nicd/Nicd1", "org.freedesktop.DBus.ObjectManager",
                                       "GetManagedObjects"]),
    ("Device.GetCounters", lambda dev: [f"/io/nicd/Nicd1/device/{dev}", "io.nicd.Nicd1.Device",
                                        "GetCounters"]),
    ("Port.GetCounters", lambda dev: [f"/io/nicd/Nicd1/device/{dev}/port/1",
                                      "io.nicd.Nicd1.Port", "GetCounters"]),
    ("GetEvents", lambda dev: ["/io/nicd/Nicd1", "io.nicd.Nicd1.Manager", "GetEvents", "t", "0"]),
    ("Verify", lambda dev: ["/io/nicd/Nicd1", "io.nicd.Nicd1.Manager", "Verify"]),
]


def client(h, stop, k):
    """A D-Bus client: the methods in turn, back to back, each call a new busctl process; a line
    per call to client-K.log: method, ms, ok or error and busctl's message."""
    rng = random.Random(h.settings.seed + k + 1)
    n = k
    with open(os.path.join(h.work, f"client-{k}.log"), "a", buffering=1) as out:
        while not stop.is_set():
            dev = rng.choice(h.node_devices)
            name, args = METHODS[n % len(METHODS)]
            n += 1
            t0 = time.time_ns()
            r = subprocess.run(h.busctl + ["call", "io.nicd.Nicd1"] + args(dev),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            took = (time.time_ns() - t0) // 1_000_000
            if r.returncode == 0:
                out.write(f"{name} {took} ok\n")
            else:
                message = r.stderr.decode(errors="replace").replace("\n", " ")
                out.write(f"{name} {took} error {message}\n")


def start_loads(h, stop):
    """The journal flood (unless JOURNAL_RATE is 0) and CLIENTS clients, as threads."""
    threads = []
    if h.settings.journal_rate:
        threads.append(threading.Thread(target=journal_flood, args=(h, stop), daemon=True))
    for k in range(h.settings.clients):
        threads.append(threading.Thread(target=client, args=(h, stop, k), daemon=True))
    for t in threads:
        t.start()
    return threads
