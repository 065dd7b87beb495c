"""The soak's background programs, each in a process group of its own (so stopping one stops all
it started), stopped in the reverse order of start (nicd before its bus): SIGTERM to the group,
SIGKILL to what is left 5 s later. A reaper process outlives the harness if it is killed outright
and then kills every group the jobs file names (scripts/lib/jobs.sh is the shell's way).
"""

import os
import signal
import subprocess
import sys
import time

REAPER = r"""
import os, signal, sys, time
parent, jobs_file, journal_dir = int(sys.argv[1]), sys.argv[2], sys.argv[3]
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while os.getppid() == parent:
    time.sleep(1)
try:
    with open(jobs_file) as f:
        for line in f:
            try:
                os.killpg(int(line.split()[0]), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass
except OSError:
    pass
import shutil
shutil.rmtree(journal_dir, ignore_errors=True)
"""


def running(pid):
    """Alive and not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class Jobs:
    def __init__(self, jobs_file, journal_dir):
        self.jobs_file = jobs_file
        self.jobs = []  # (name, Popen)
        open(jobs_file, "w").close()
        self.reaper = subprocess.Popen([sys.executable, "-c", REAPER, str(os.getpid()), jobs_file,
                                        journal_dir], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True)

    def start(self, name, argv, log=None, env=None):
        """Starts argv in a process group of its own, its output to the file log (or nowhere)."""
        out = open(log, "ab") if log else subprocess.DEVNULL
        try:
            p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, env=env, process_group=0)
        finally:
            if log:
                out.close()
        self.jobs.append((name, p))
        with open(self.jobs_file, "a") as f:
            f.write(f"{p.pid} {name}\n")
        return p

    def stop_all(self):
        for _, p in reversed(self.jobs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except OSError:
                pass
        for _ in range(50):
            if not any(running(p.pid) for _, p in self.jobs):
                break
            time.sleep(0.1)
        for _, p in self.jobs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
        self.jobs = []
        open(self.jobs_file, "w").close()

    def close(self):
        self.stop_all()
        self.reaper.kill()
        self.reaper.wait()
