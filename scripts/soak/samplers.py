"""The soak's samplers: threads from the idle phase to the end, each writing one log whose lines
start with the phase and the ms since the start (report.py lists the columns):
  cycles.log   the textfile's head every 200 ms, a line per new cycle;
  memory.log   /proc/PID/smaps_rollup every 500 ms;
  process.log  every 2 s: memory, descriptors, the event ring, the state file, CPU, and the
               textfile's validity (`promtool check metrics` on a copy, nicd_up 1).
They run at a higher priority than the loads and nicd (nice -5), so that what they measure is
nicd's delay, not theirs for a CPU.
"""

import os
import shutil
import subprocess
import threading
import time


def now_ms():
    return time.time_ns() // 1_000_000


def harness_priority():
    """This thread (and what it starts) before the loads and nicd."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -5)
    except OSError:
        pass


def memory_kib(pid):
    """(rss, private, anonymous) KiB from /proc/PID/smaps_rollup; '-' for each when unreadable."""
    values = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key, _, rest = line.partition(":")
                values[key] = int(rest.split()[0]) if rest.split() else 0
    except (OSError, ValueError, IndexError):
        return ["-", "-", "-"]
    if "Rss" not in values:
        return ["-", "-", "-"]
    private = values.get("Private_Clean", 0) + values.get("Private_Dirty", 0)
    return [str(values["Rss"]), str(private), str(values.get("Anonymous", ""))]


def descriptors(pid):
    """(other, on journal files, on deleted journal files) descriptors; '-' when unreadable."""
    other = journal = deleted = 0
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return ["-", "-", "-"]
    for name in names:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        if "/var/log/journal/" in target:
            if target.endswith("(deleted)"):
                deleted += 1
            else:
                journal += 1
        else:
            other += 1
    return [str(other), str(journal), str(deleted)]


def sample_process(pid):
    """rss priv anon fd_other fd_journal fd_deleted, as fields."""
    return memory_kib(pid) + descriptors(pid)


class Samplers:
    def __init__(self, h):
        self.h = h  # the harness: phase, t_start, work, textfile, nicd_pid, call()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(f, n), daemon=True)
                        for f, n in ((self.cycles, "cycles.log"), (self.process, "process.log"),
                                     (self.memory, "memory.log"))]

    def start(self):
        for t in self.threads:
            t.start()

    def join(self):
        self.stop.set()
        for t in self.threads:
            t.join()

    def _run(self, sampler, log):
        harness_priority()
        with open(os.path.join(self.h.work, log), "a", buffering=1) as out:
            sampler(out)

    def _line(self, out, fields):
        out.write(" ".join([self.h.phase, str(now_ms() - self.h.t_start)] + fields) + "\n")

    def cycles(self, out):
        last = None
        heads = {"nicd_up": 5, "nicd_cycles_total": 2, "nicd_cycle_duration_seconds": 3,
                 "nicd_last_cycle_timestamp_seconds": 4}
        while not self.stop.is_set():
            try:
                with open(self.h.textfile) as f:
                    lines = [f.readline() for _ in range(12)]
            except OSError:
                self._line(out, ["missing", "-", "-", "-"])
            else:
                row = ["-"] * 6
                for line in lines:
                    name, _, value = line.rstrip("\n").partition(" ")
                    if name in heads and value:
                        row[heads[name]] = value
                if row[2] != last:
                    self._line(out, row[2:])
                    last = row[2]
            self.stop.wait(0.2)

    def memory(self, out):
        while not self.stop.is_set():
            rss, priv, anon = memory_kib(self.h.nicd_pid)
            self._line(out, [anon or "-", "0" if priv == "-" else priv, rss])
            self.stop.wait(0.5)

    def process(self, out):
        n = 0
        work = self.h.work
        while not self.stop.is_set():
            pid = self.h.nicd_pid
            if not os.path.exists(f"/proc/{pid}"):
                self._line(out, ["gone"])
                self.stop.wait(2)
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    st = f.read().rsplit(")", 1)[1].split()
                cpu = str(int(st[11]) + int(st[12]))  # utime + stime
            except (OSError, IndexError, ValueError):
                cpu = "0"
            try:
                state = str(os.stat(self.h.state_file).st_size)
            except OSError:
                state = "-"
            events = self.h.call("call", "io.nicd.Nicd1", "/io/nicd/Nicd1",
                                 "io.nicd.Nicd1.Manager", "GetEvents", "t", "0")
            seq = self.h.call("get-property", "io.nicd.Nicd1", "/io/nicd/Nicd1",
                              "io.nicd.Nicd1.Manager", "LastEventSeq")
            n += 1
            sample = os.path.join(work, "sample.prom")
            try:
                shutil.copyfile(self.h.textfile, sample)
            except OSError:
                valid = "missing"
            else:
                with open(sample, "rb") as metrics:
                    check = subprocess.run(["promtool", "check", "metrics"], stdin=metrics,
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                if check.returncode != 0:
                    valid = "invalid"
                    shutil.copyfile(sample, os.path.join(work, f"bad-{n}.prom"))
                    with open(os.path.join(work, f"bad-{n}.promtool"), "wb") as f:
                        f.write(check.stdout)
                else:
                    with open(sample) as f:
                        valid = "ok" if "nicd_up 1" in f.read().splitlines() else "not-up"
            self._line(out, sample_process(pid) + [_second_word(events), _second_word(seq),
                                                   state, cpu, valid])
            self.stop.wait(2)


def _second_word(result):
    """busctl's answer "at 3 ..." or "t 912": the second word; '-' without an answer."""
    words = result.split() if result else []
    return words[1] if len(words) > 1 else "-"
