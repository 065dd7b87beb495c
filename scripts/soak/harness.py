"""The soak's run: the node, the bus, the service manager's notify socket and nicd; the idle
phase, the load, the drain; then the figures and assertions of report.py.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import report
from injector import injector
from jobs import Jobs
from loads import start_loads
from samplers import Samplers, now_ms, sample_process

NICD_CONF = """\
[daemon]
PollIntervalMs={poll}
PmaIntervalMs={pma}
[provision]
VerifyIntervalSec=10
[signals]
IntervalSec=1
[health]
CongestionWindowSec=5
KernelHoldSec=20
EventRingSize={ring}
"""


class SetupError(Exception):
    pass


def log(message):
    print(f"{time.strftime('%T')} soak: {message}", flush=True)


def wait_for(predicate, seconds):
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def read_lines(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


class Harness:
    def __init__(self, settings, here, build):
        s = self.settings = settings
        self.here, self.build = here, build
        self.nicd_bin = f"{build}/daemon/nicd"
        self.sim = f"{build}/tools/nicd-sim/nicd-sim"
        self.journal_flood_bin = f"{build}/tests/tools/journal_flood"
        self.journal_remote = "/lib/systemd/systemd-journal-remote"
        if s.out:
            os.makedirs(s.out, exist_ok=True)
            self.work, self.keep_work = os.path.abspath(s.out), True
        else:
            self.work, self.keep_work = tempfile.mkdtemp(prefix="nicd-soak."), False
        w = self.work
        self.root = f"{w}/node"
        self.textfile = f"{self.root}/var/lib/prometheus/node-exporter/nicd.prom"
        self.state_file = f"{self.root}/var/lib/nicd/state.json"
        self.bus_dir = f"{w}/bus"
        self.busctl = ["busctl", f"--address=unix:path={self.bus_dir}/socket", "--timeout=30"]
        self.journal_dir = f"{self.root}/var/log/journal/0123456789abcdef0123456789abcdef"
        self.stop_file = f"{w}/stop"
        for old in os.listdir(w):
            if (old in ("node", "bus", "injector.done") or old.endswith((".log", ".txt"))
                    or old.startswith(("stop", "bad-"))):
                path = os.path.join(w, old)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        self.phase = "setup"
        self.nicd = None
        self.nicd_pid = 0
        self.t_start = now_ms()
        self.stop = threading.Event()
        self.samplers = None
        self.result = 1
        self.jobs = Jobs(f"{w}/jobs", self.journal_dir)

    def call(self, *args):
        """busctl on the private bus; its output, or '' when it failed."""
        r = subprocess.run(self.busctl + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        return r.stdout.decode(errors="replace") if r.returncode == 0 else ""

    def run(self):
        try:
            self.setup()
        except (SetupError, OSError, subprocess.CalledProcessError) as e:
            print(f"soak: {e}", file=sys.stderr)
            return 1
        self.soak()
        return self.judge()

    def setup(self):
        s, w = self.settings, self.work
        open(f"{w}/injector.err", "w").close()
        open(f"{w}/faults.log", "w").close()
        log(f"work directory {w}; seed {s.seed}; {s.seconds} s of load after {s.idle_seconds} s "
            "idle")
        subprocess.run([self.sim, "create", self.root, "--devices", str(s.devices)], check=True,
                       stdout=subprocess.DEVNULL)
        listing = [line.split() for line in subprocess.run(
            [self.sim, "list", self.root], check=True, stdout=subprocess.PIPE,
            text=True).stdout.splitlines()]
        pfs = [row for row in listing if len(row) > 2 and row[1] == "pf"]
        self.node_devices = [row[0] for row in pfs if ":ACTIVE" in row[2]]
        self.node_pcis = [row[-1] for row in pfs]
        if len(self.node_devices) < 2:
            raise SetupError("the simulated node has no usable devices")
        with open(f"{self.root}/proc/sys/kernel/random/boot_id") as f:
            self.boot_id = f.read().strip().replace("-", "")
        os.makedirs(self.journal_dir, exist_ok=True)
        with open(f"{w}/nicd.conf", "w") as f:
            f.write(NICD_CONF.format(poll=s.poll_ms, pma=s.poll_ms * 4, ring=s.ring_size))

        # The bus: the system bus's policy and nicd's own (scripts/lib/private_bus.sh).
        os.makedirs(self.bus_dir)
        with open(f"{self.bus_dir}/bus.conf", "w") as f:
            subprocess.run(["bash", "-c", '. "$1"; private_bus_conf "$2" "$3"', "bus",
                            f"{self.here}/scripts/lib/private_bus.sh",
                            f"unix:path={self.bus_dir}/socket",
                            f"{self.here}/dbus/io.nicd.Nicd1.conf"], stdout=f, check=True)
        self.jobs.start("dbus-daemon", ["dbus-daemon", "--nofork", "--nopidfile",
                                        f"--config-file={self.bus_dir}/bus.conf"],
                        log=f"{self.bus_dir}/dbus-daemon.log")
        if not wait_for(lambda: os.path.exists(f"{self.bus_dir}/socket"), 10):
            raise SetupError("dbus-daemon did not start: "
                             + "\n".join(read_lines(f"{self.bus_dir}/dbus-daemon.log")))
        self.jobs.start("notify", [f"{self.build}/tests/tools/notify_listen", f"{w}/notify.sock"],
                        log=f"{w}/notify.log")
        wait_for(lambda: os.path.exists(f"{w}/notify.sock"), 10)
        # Counters move (traffic, FEC corrections, pauses): what the pre-failure and congestion
        # rules read.
        self.jobs.start("nicd-sim", [self.sim, "run", self.root, "--interval-ms", "500"],
                        log=f"{w}/sim.log")
        time.sleep(1)  # let the new tree settle (see bench.sh)

        env = dict(os.environ, NOTIFY_SOCKET=f"{w}/notify.sock", WATCHDOG_USEC=str(s.watchdog_usec))
        self.nicd = self.jobs.start("nicd", [
            self.nicd_bin, "--root", self.root, "--config", f"{w}/nicd.conf", "--plugin-directory",
            f"{self.build}/plugins", "--bus", f"unix:path={self.bus_dir}/socket"],
            log=f"{w}/nicd.log", env=env)
        self.nicd_pid = self.nicd.pid
        if not wait_for(lambda: any("READY=1" in x for x in read_lines(f"{w}/notify.log")), 60):
            raise SetupError("nicd did not become ready in 60 s; its log:\n"
                             + "\n".join(read_lines(f"{w}/nicd.log")[-20:]))
        log(f"nicd ready (PID {self.nicd_pid}): {len(self.node_devices)} devices, a cycle every "
            f"{s.poll_ms} ms")

    def soak(self):
        s = self.settings
        self.t_start = now_ms()
        self.samplers = Samplers(self)
        self.samplers.start()

        self.phase = "idle"
        log(f"idle: {s.idle_seconds} s, nothing but counters moving")
        time.sleep(s.idle_seconds)

        self.phase = "load"
        self.t_load = now_ms()
        log(f"load: {s.seconds} s of faults, {s.journal_rate} kernel lines/s, {s.clients} D-Bus "
            f"clients (warm-up {s.warmup_seconds} s)")
        start_loads(self, self.stop)
        if s.faults_on:
            threading.Thread(target=injector, args=(self, self.stop), daemon=True).start()
        else:
            open(f"{self.work}/injector.done", "w").close()
        while now_ms() - self.t_load < s.seconds * 1000 and self.nicd.poll() is None:
            time.sleep(1)
        self.t_end = now_ms()

        self.phase = "drain"
        self.stop.set()
        open(self.stop_file, "w").close()
        log("load stopped; waiting for the faults in flight to be seen and recovered")
        wait_for(lambda: os.path.exists(f"{self.work}/injector.done"),
                 (s.seen_timeout_ms + s.recover_timeout_ms) / 1000 + 10)
        self.samplers.join()
        time.sleep(3)  # the last cycles: restored devices found again

    def final_sample(self, fd_idle):
        """Quiescent again: the descriptors and memory to hold against the idle phase's. nicd
        keeps a counter file open only while its directory has not changed for a second, so the
        count breathes with the simulator's ticks for a few cycles after the faults: the lowest
        of up to 15 s of samples, taken until one is back to the idle count."""
        final = sample_process(self.nicd_pid)
        bound = None if fd_idle is None else fd_idle + self.settings.fd_growth_max
        for _ in range(30):
            now = report.whole(final[3])
            if now is not None and bound is not None and now <= bound:
                break
            time.sleep(0.5)
            sample = sample_process(self.nicd_pid)
            then = report.whole(sample[3])
            if then is not None and (now is None or then < now):
                final = sample
        return final

    def judge(self):
        w = self.work
        split = lambda name: [line.split() for line in read_lines(f"{w}/{name}")]
        process = split("process.log")
        final = self.final_sample(report.fd_idle(process))
        with open(f"{w}/calls.log", "w") as calls:
            for k in range(self.settings.clients):
                calls.writelines(line + "\n" for line in read_lines(f"{w}/client-{k}.log"))
        try:
            journal_lines = int(read_lines(f"{w}/journal.count")[0])
        except (IndexError, ValueError):
            journal_lines = 0
        try:
            state_size = os.stat(self.state_file).st_size
        except OSError:
            state_size = 0
        run = report.Run(t_start=self.t_start, t_load=self.t_load, t_end=self.t_end,
                         nicd_pid=self.nicd_pid, alive=self.nicd.poll() is None, final=final,
                         injector_done=os.path.exists(f"{w}/injector.done"),
                         journal_lines=journal_lines, state_size=state_size, work=w,
                         ticks_per_second=os.sysconf("SC_CLK_TCK"))
        samples = report.Samples(
            cycles=split("cycles.log"), memory=split("memory.log"), process=process,
            faults=split("faults.log"), calls=read_lines(f"{w}/calls.log"),
            notify=read_lines(f"{w}/notify.log"), nicd_log=read_lines(f"{w}/nicd.log"),
            injector_errors=len(read_lines(f"{w}/injector.err")))
        lines, failures = report.judge(self.settings, run, samples)
        with open(f"{w}/figures.txt", "w") as f:
            f.write("".join(line + "\n" for line in lines))
        print("\n".join(lines))
        if failures:
            print("soak: FAILED")
            print("".join(f"  - {m}\n" for m in failures), end="")
            return 1
        print("soak: passed")
        self.result = 0
        return 0

    def cleanup(self):
        self.stop.set()
        open(self.stop_file, "a").close()
        if self.samplers:
            self.samplers.stop.set()
        time.sleep(0.5)
        self.jobs.close()
        shutil.rmtree(self.journal_dir, ignore_errors=True)  # hundreds of MB of journal
        if not self.keep_work and self.result == 0:
            shutil.rmtree(self.work, ignore_errors=True)
        else:
            print(f"soak: logs and samples kept in {self.work}")
