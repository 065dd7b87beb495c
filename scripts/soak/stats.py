"""The soak's statistics: pure functions over numbers, each as scripts/soak.sh computed it with awk.

None stands for "no value" (the shell's "nan"); fmt() prints it as nan.
"""


def percentile(values, p):
    """The p-th percentile by nearest rank: the value at rank ceil(p/100 * n) (to within 1e-6),
    clamped to 1..n.

    percentile(v, 0) is the minimum, percentile(v, 100) the maximum; None when there is none.
    """
    v = sorted(values)
    if not v:
        return None
    rank = int(p / 100 * len(v) + 0.999999)
    return v[min(max(rank, 1), len(v)) - 1]


def median(values):
    """The lower median (the value at rank (n + 1) // 2); None when there is none."""
    v = sorted(values)
    return v[(len(v) + 1) // 2 - 1] if v else None


def slope(points):
    """The least-squares slope of (x, y) points; None for fewer than 3 or all at one x."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    d = n * sxx - sx * sx
    if n < 3 or d == 0:
        return None
    return (n * sxy - sx * sy) / d


def longest_gap(times):
    """The longest time between two consecutive times (0 for fewer than two)."""
    return max((b - a for a, b in zip(times, times[1:])), default=0)


def longest_cycle_gap(samples):
    """The longest time between two of nicd's cycles, from (cycles_total, last_cycle_timestamp)
    samples in order: between two samples, the time between the timestamps over the cycles
    between them. A sampler that waited for a CPU and missed cycles is not a gap; a stalled cycle
    is. 0 when no two samples are cycles apart."""
    gap = 0
    for (c0, t0), (c1, t1) in zip(samples, samples[1:]):
        if c1 > c0:
            gap = max(gap, (t1 - t0) / (c1 - c0))
    return gap


def times_went_back(values):
    """How many times a value is lower than the one before it (a counter that restarted)."""
    return sum(1 for a, b in zip(values, values[1:]) if b < a)


def cpu_share(samples, ticks_per_second):
    """The share of one CPU used between the first and the last (ms, cpu_ticks) sample; None
    without two samples apart in time."""
    if len(samples) < 2 or samples[-1][0] == samples[0][0]:
        return None
    (t0, c0), (t1, c1) = samples[0], samples[-1]
    return (c1 - c0) / ticks_per_second / ((t1 - t0) / 1000)


def fmt(value, spec=""):
    """A figure as the report prints it: nan for None, else format(value, spec)."""
    return "nan" if value is None else format(value, spec)


def ms(seconds):
    """Seconds as milliseconds with one decimal (nan for None)."""
    return "nan" if seconds is None else f"{seconds * 1000:.1f}"
