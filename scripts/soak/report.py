"""The soak's figures and assertions: pure functions of the settings, the run's times and the
samples the harness wrote (each log's lines split into fields). judge() returns the figures
block and the list of failed assertions; settings.py holds the bounds.

The samples (every line starts with the phase and the ms since the start, save the last four):
  cycles.log   phase ms cycles_total cycle_duration_s last_cycle_timestamp_s nicd_up
               (phase ms missing - - - when the textfile was missing)
  memory.log   phase ms anonymous_kib private_kib rss_kib
  process.log  phase ms rss priv anon fd_other fd_journal fd_deleted events last_seq
               state_bytes cpu_ticks validity   (phase ms gone: nicd was not there)
  faults.log   id fault device code outcome seen_ms recovered_ms
  calls.log    method ms ok | method ms error MESSAGE...
  notify.log   monotonic_us message
"""

import re
from collections import Counter
from dataclasses import dataclass, field

from stats import (cpu_share, fmt, longest_cycle_gap, longest_gap, median, ms, percentile,
                   slope, times_went_back)


@dataclass
class Run:
    """What the harness knows at the end, besides the samples."""
    t_start: int  # ms since the epoch: the samplers' start
    t_load: int  # the load's start
    t_end: int  # the load's end
    nicd_pid: int
    alive: bool  # nicd still there at the end
    final: list  # the last process sample: rss priv anon fd_other fd_journal fd_deleted
    injector_done: bool
    journal_lines: int
    state_size: int
    work: str
    ticks_per_second: int = 100


@dataclass
class Samples:
    cycles: list = field(default_factory=list)
    memory: list = field(default_factory=list)
    process: list = field(default_factory=list)
    faults: list = field(default_factory=list)
    calls: list = field(default_factory=list)  # the whole lines
    notify: list = field(default_factory=list)  # the whole lines
    nicd_log: list = field(default_factory=list)  # the whole lines
    injector_errors: int = 0


def number(text):
    """An int or float from a sample's field; None for '-', 'missing' and the like."""
    try:
        return int(text)
    except (TypeError, ValueError):
        pass
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def whole(text):
    """A whole number from a field ([0-9]+), else None."""
    return int(text) if text is not None and text.isdigit() else None


def column(rows, index, phase=None, convert=whole):
    """The values of a column (0-based) that convert accepts, of the rows of a phase (or all)."""
    values = []
    for row in rows:
        if (phase is None or row[0] == phase) and len(row) > index:
            v = convert(row[index])
            if v is not None:
                values.append(v)
    return values


def fd_idle(process_rows):
    """nicd's descriptors in the idle phase (journal files apart): the median sample."""
    return median(column(process_rows, 5, "idle"))


def judge(s, run, x):
    """The figures block (lines) and the failures (messages) of a run: each section below checks
    one thing the soak guards and returns its figures."""
    failures = []
    f = {}
    for section in (restarts, faults, textfile, cycle, watchdog, memory, descriptors, event_ring,
                    clients, usage):
        f.update(section(s, run, x, failures.append))
    return figures(s, run, f), failures


def restarts(s, run, x, fail):
    """nicd neither crashed nor restarted."""
    readies = sum("READY=1" in line for line in x.notify)
    starts = sum(" started (root " in line for line in x.nicd_log)
    if not run.alive:
        fail(f"nicd is gone (it crashed or exited): see {run.work}/nicd.log")
    if readies != 1:
        fail(f"READY=1 came {readies} times (a restart?)")
    if starts != 1:
        fail(f"nicd logged its start {starts} times (a restart?)")
    backwards = times_went_back(column(x.cycles, 2, convert=number))
    if backwards:
        fail(f"nicd_cycles_total went back {backwards} times (a restart)")
    return {"readies": readies, "starts": starts}


def faults(s, run, x, fail):
    """Every fault injected was seen and recovered."""
    rows = [r for r in x.faults if len(r) >= 7]
    seen = [int(r[5]) for r in rows if int(r[5]) >= 0]
    recovered = [int(r[6]) for r in rows if int(r[6]) >= 0]
    missed = "".join(f"{r[1]} {r[2]} ({r[3]}); " for r in rows if r[4] == "missed")
    unrecovered = "".join(f"{r[1]} {r[2]} ({r[3]}); " for r in rows if r[4] == "not-recovered")
    if s.faults_on and not rows:
        fail("no fault was injected")
    if missed:
        fail(f"faults nicd did not show within {s.seen_timeout_ms // 1000} s: {missed}")
    if unrecovered:
        fail(f"faults that did not recover within {s.recover_timeout_ms // 1000} s of their "
             f"clear: {unrecovered}")
    if x.injector_errors:
        fail(f"nicd-sim inject failed {x.injector_errors} times: {run.work}/injector.err")
    if not run.injector_done:
        fail("faults were still in flight at the end")
    return {"injected": len(rows), "seen": seen, "recovered": recovered,
            "recovered_n": sum(r[4] == "recovered" for r in rows),
            "per_fault": ", ".join(f"{k} {n}" for k, n in Counter(r[1] for r in rows).items())}


def textfile(s, run, x, fail):
    """Every sample of the textfile there and valid (promtool, nicd_up 1)."""
    n = len(x.process)
    invalid = sum(1 for r in x.process if len(r) < 13 or r[12] != "ok")
    if n == 0:
        fail("no sample of the textfile was taken")
    if invalid:
        fail(f"{invalid} of {n} textfile samples were not valid (missing, promtool, nicd_up): "
             f"{run.work}/bad-*.prom")
    missing = sum(1 for r in x.cycles if len(r) > 2 and r[2] == "missing")
    if missing:
        fail(f"the textfile was missing {missing} times")
    return {"samples": n, "invalid": invalid}


def cycle(s, run, x, fail):
    """The cycle's time under load within a bound of the idle one's; the cycle not starved."""
    idle = column(x.cycles, 3, "idle", number)
    load = column(x.cycles, 3, "load", number)
    idle_p99, load_p99 = percentile(idle, 99), percentile(load, 99)
    bound = (float("nan") if idle_p99 is None else idle_p99) * s.cycle_factor + s.cycle_slack_s
    if load_p99 is None or not load_p99 <= bound:
        fail(f"cycle p99 under load {ms(load_p99)} ms > bound {ms(bound)} ms ({s.cycle_factor} "
             f"x idle p99 {ms(idle_p99)} ms + {ms(s.cycle_slack_s)} ms)")
    # Cycles done under load against those due, and the longest gap between two (nicd's times).
    totals = column(x.cycles, 2, "load", number)
    done = totals[-1] - totals[0] if totals else 0
    due = (run.t_end - run.t_load) // s.poll_ms
    gap = longest_cycle_gap([(number(r[2]), number(r[4])) for r in x.cycles
                             if r[0] == "load" and len(r) > 4
                             and number(r[2]) is not None and number(r[4]) is not None])
    if not done >= due * s.cycle_rate_min:
        fail(f"only {done} cycles under load of {due} due (< {s.cycle_rate_min * 100:g}%): "
             "the cycle is starved")
    if not gap <= s.cycle_gap_max_s:
        fail(f"two cycles {gap:.3f} s apart under load (> {s.cycle_gap_max_s} s): "
             "the cycle is starved")
    return {"idle": idle, "load": load, "bound": bound, "cycles_done": done, "cycles_due": due,
            "gap": gap,
            "skipped": sum("collection cycle still running" in line for line in x.nicd_log)}


def watchdog(s, run, x, fail):
    """WATCHDOG=1 keeps arriving after READY=1, never WATCHDOG_USEC apart."""
    pings, ready = [], False
    for line in x.notify:
        words = line.split()
        if len(words) >= 2 and words[1] == "READY=1":
            ready = True
        if ready and len(words) >= 2 and words[1] == "WATCHDOG=1":
            pings.append(int(words[0]))
    gap_ms = round(longest_gap(pings) / 1000)
    n = sum("WATCHDOG=1" in line for line in x.notify)
    if n == 0:
        fail("no WATCHDOG=1 arrived")
    if not gap_ms < s.watchdog_usec // 1000:
        fail(f"the watchdog went {gap_ms} ms without a ping (WATCHDOG_USEC "
             f"{s.watchdog_usec // 1000} ms): the loop was starved")
    return {"wd_pings": n, "wd_gap_ms": gap_ms}


def memory(s, run, x, fail):
    """Anonymous memory flat after the warm-up: the peaks of the two halves that follow it."""
    warm_ms = run.t_load - run.t_start + s.warmup_seconds * 1000
    end_ms = run.t_end - run.t_start
    half_ms = int((end_ms - warm_ms) / 2)

    def window(a, b, index):
        return [int(r[index]) for r in x.memory if r[0] == "load" and len(r) > index
                and a <= int(r[1]) <= b and whole(r[index]) is not None]

    first, last = window(warm_ms, warm_ms + half_ms, 2), window(end_ms - half_ms, end_ms, 2)
    f = dict.fromkeys(["anon_start", "anon_end", "anon_median_start", "anon_median_end",
                       "priv_start", "priv_end", "anon_growth"])
    if len(first) >= 10 and len(last) >= 10:
        f.update(anon_start=max(first), anon_end=max(last), anon_median_start=median(first),
                 anon_median_end=median(last), anon_growth=max(last) - max(first),
                 priv_start=median(window(warm_ms, warm_ms + half_ms, 3)),
                 priv_end=median(window(end_ms - half_ms, end_ms, 3)))
        if not f["anon_growth"] < s.memory_growth_max_kib:
            fail(f"anonymous memory grew by {f['anon_growth']} KiB after the warm-up (peak "
                 f"{f['anon_start']} -> {f['anon_end']} KiB; bound {s.memory_growth_max_kib} KiB)")
    else:
        fail(f"only {len(first)} and {len(last)} memory samples after the warm-up: too few to "
             "judge memory")
    f["trend"] = slope([(int(r[1]) / 60000, int(r[2])) for r in x.memory
                        if r[0] == "load" and len(r) > 2 and warm_ms <= int(r[1]) <= end_ms
                        and whole(r[2]) is not None])
    f["anon_idle"] = median(column(x.memory, 2, "idle"))
    f["half_s"] = half_ms // 1000
    return f


def descriptors(s, run, x, fail):
    """After the load (every device back) as many descriptors as when idle, journal files apart,
    and none on a journal file the vacuum deleted."""
    idle = fd_idle(x.process)
    final = (list(run.final) + ["-"] * 6)[:6]
    growth = None
    if whole(final[3]) is not None and idle is not None:
        growth = int(final[3]) - idle
        if growth > s.fd_growth_max:
            fail(f"open file descriptors grew by {growth} over the soak ({idle} idle -> "
                 f"{final[3]} after the load, journal files apart; bound {s.fd_growth_max})")
        if final[5] != "0":
            fail(f"{final[5]} descriptors still open on deleted journal files after the load")
    else:
        fail(f"nicd's descriptors could not be counted (idle '{fmt(idle)}', after the load "
             f"'{final[3]}')")
    load = column(x.process, 5, "load")
    return {"fd_idle": idle, "final": final, "fd_growth": growth,
            "fd_load_min": percentile(load, 0), "fd_load_max": percentile(load, 100),
            "fd_journal_max": percentile(column(x.process, 6, "load"), 100),
            "fd_deleted_max": percentile(column(x.process, 7, "load"), 100)}


def event_ring(s, run, x, fail):
    """GetEvents answered, never longer than EventRingSize."""
    events_max = percentile(column(x.process, 8), 100)
    seqs = column(x.process, 9)
    if events_max is None:
        fail("GetEvents never answered the sampler")
    elif events_max > s.ring_size:
        fail(f"GetEvents returned {events_max} events, more than EventRingSize={s.ring_size}")
    return {"events_max": events_max, "last_seq": seqs[-1] if seqs else 0}


BAD_CALL = re.compile(r" error .*(Timeout|timed out|NoReply|ServiceUnknown|NameHasNoOwner"
                      r"|Disconnected|not activatable)")


def clients(s, run, x, fail):
    """The clients made calls and none timed out or found nicd gone (a call to a device a fault
    removed is answered with an error: expected)."""
    calls = [line.split() for line in x.calls if line.strip()]
    errors = [c for c in calls if len(c) < 3 or c[2] != "ok"]
    bad = sum(1 for line in x.calls if BAD_CALL.search(line))
    if s.clients and not calls:
        fail("the D-Bus clients made no call")
    if bad:
        fail(f"{bad} D-Bus calls timed out or found nicd gone: grep error {run.work}/calls.log")
    # The three commonest error messages, device names folded.
    kinds = Counter(re.sub(r"mlx5_[0-9]+", "DEV", " ".join(c[3:])).strip() for c in errors)
    commonest = sorted(kinds.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)[:3]
    return {"calls": len(calls), "call_errors": len(errors), "bad_calls": bad,
            "latencies": column(calls, 1, convert=number),
            "per_method": ", ".join(f"{k} {n}" for k, n in Counter(c[0] for c in calls).items()),
            "error_kinds": "; ".join(f"{k} x{n}" for k, n in commonest)}


def usage(s, run, x, fail):
    """What nicd used and logged: reported, not asserted."""
    def cpu(phase):
        share = cpu_share([(int(r[1]), int(r[11])) for r in x.process
                           if r[0] == phase and len(r) > 11 and whole(r[11]) is not None],
                          run.ticks_per_second)
        return "nan" if share is None else f"{share * 100:.0f}%"

    return {"cpu_idle": cpu("idle"), "cpu_load": cpu("load"),
            "state_max": percentile(column(x.process, 10), 100),
            "warnings": sum(line.startswith("W ") for line in x.nicd_log),
            "errors": sum(line.startswith("E ") for line in x.nicd_log)}


def figures(s, run, f):
    """The figures block."""
    p = percentile
    seen, rec, idle, load, final = f["seen"], f["recovered"], f["idle"], f["load"], f["final"]
    error_kinds = f" ({f['error_kinds']})" if f["error_kinds"] else ""
    return [
        f"== soak figures: {s.devices} devices, {(run.t_end - run.t_load) // 1000} s under load "
        f"after {s.idle_seconds} s idle (seed {s.seed})",
        f"nicd:           PID {run.nicd_pid} alive at the end: {'yes' if run.alive else 'no'}; "
        f"READY=1 x{f['readies']}; started x{f['starts']}; warnings {f['warnings']}, errors "
        f"{f['errors']} logged; CPU idle {f['cpu_idle']}, under load {f['cpu_load']} of a core",
        f"faults:         injected {f['injected']}, seen {len(seen)}, recovered "
        f"{f['recovered_n']} ({f['per_fault']})",
        f"                seen after p50 {fmt(p(seen, 50))} ms, p99 {fmt(p(seen, 99))} ms, max "
        f"{fmt(p(seen, 100))} ms; recovered after the clear p50 {fmt(p(rec, 50))} ms, p99 "
        f"{fmt(p(rec, 99))} ms, max {fmt(p(rec, 100))} ms",
        f"cycle time:     idle p50 {ms(p(idle, 50))} ms, p99 {ms(p(idle, 99))} ms ({len(idle)} "
        f"cycles); under load p50 {ms(p(load, 50))} ms, p99 {ms(p(load, 99))} ms, max "
        f"{ms(p(load, 100))} ms ({len(load)} cycles sampled); bound {ms(f['bound'])} ms",
        f"cycle rate:     {f['cycles_done']} cycles under load of {f['cycles_due']} due; longest "
        f"gap {f['gap']:.3f} s; {f['skipped']} skipped (one still running)",
        f"watchdog:       {f['wd_pings']} pings, longest gap {f['wd_gap_ms']} ms (WATCHDOG_USEC "
        f"{s.watchdog_usec // 1000} ms)",
        f"memory:         anonymous peak {fmt(f['anon_start'])} -> {fmt(f['anon_end'])} KiB over "
        f"two {f['half_s']} s halves after a {s.warmup_seconds} s warm-up: growth "
        f"{fmt(f['anon_growth'])} KiB (medians {fmt(f['anon_median_start'])} -> "
        f"{fmt(f['anon_median_end'])} KiB; trend {fmt(f['trend'], '.1f')} KiB/min); idle "
        f"{fmt(f['anon_idle'])} KiB, after the load {final[2]} KiB",
        f"                private {fmt(f['priv_start'])} -> {fmt(f['priv_end'])} KiB (journal "
        f"maps included); RSS after the load {final[0]} KiB",
        f"descriptors:    idle {fmt(f['fd_idle'])}, after the load {final[3]} (growth "
        f"{fmt(f['fd_growth'])}), under load {fmt(f['fd_load_min'])}..{fmt(f['fd_load_max'])} as "
        f"devices go and come back; on journal files at most {fmt(f['fd_journal_max'])} (after "
        f"the load {final[4]}), on deleted ones at most {fmt(f['fd_deleted_max'])} (after the "
        f"load {final[5]})",
        f"event ring:     GetEvents at most {fmt(f['events_max'])} events (EventRingSize "
        f"{s.ring_size}); last seq {f['last_seq']}; wrapped: "
        f"{'yes' if f['last_seq'] > s.ring_size else 'no'}",
        f"textfile:       {f['samples']} samples, {f['invalid']} invalid (promtool check metrics, "
        "nicd_up 1)",
        f"D-Bus clients:  {s.clients} clients, {f['calls']} calls ({f['per_method']}); errors "
        f"{f['call_errors']}{error_kinds}, {f['bad_calls']} timed out or unanswered; latency p99 "
        f"{fmt(p(f['latencies'], 99))} ms, max {fmt(p(f['latencies'], 100))} ms",
        f"journal:        {run.journal_lines} kernel lines written ({s.journal_rate}/s); state "
        f"file {run.state_size} bytes (max {fmt(f['state_max'])})",
    ]
