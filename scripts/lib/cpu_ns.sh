# shellcheck shell=bash
# cpu_ns PID: the CPU time of every thread of a process so far, in ns (/proc/PID/task/*/schedstat:
# time on a CPU); 0 once it is gone.
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%.0f", s}'; }
