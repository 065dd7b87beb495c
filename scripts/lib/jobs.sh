# shellcheck shell=bash
# One way for a script to run background jobs and clean up after itself: every job it started is
# stopped, and its work directory removed, when the script exits, however it exits.
#   . "$here/scripts/lib/jobs.sh"
#   jobs_work_dir nicd-demo        $work: a new directory /tmp/nicd-demo.XXXXXX; sets the EXIT trap
#   job dbus-daemon ... >log       runs a program (or a shell function) in the background; $job_pid
#   job_stop "$job_pid" ...        stops those jobs now and waits for them
# A program runs in a process group of its own (setsid), so stopping it stops what it started (a
# shell function runs in a subshell: stopping it leaves what it runs then to finish). A job is
# stopped with SIGTERM (its group's), then SIGKILL if it is still there 5 s later; at exit in the
# reverse order of start (nicd before its bus). `cmd & pids+=($!)` (a command that reads a
# here-document: a job's stdin is /dev/null) is stopped the same way.
pids=()
jobs_work=
job_pid=

job() {
    if [ "$(type -t "$1")" = file ]; then setsid "$@" & else "$@" & fi
    job_pid=$!
    pids+=("$job_pid")
}

# A PID that is alive and not a zombie waiting for this shell.
job_running() {
    local _ state
    { read -r _ _ state _ <"/proc/$1/stat"; } 2>/dev/null && [ "$state" != Z ]
}

job_stop() {
    local p alive
    for p in "$@"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true; done
    for _ in $(seq 50); do
        alive=0
        for p in "$@"; do job_running "$p" && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for p in "$@"; do
        kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    # Forgotten: a PID the system gives to another process later is not stopped at exit.
    local left=()
    for p in "${pids[@]}"; do [[ " $* " == *" $p "* ]] || left+=("$p"); done
    pids=("${left[@]}")
}

# shellcheck disable=SC2317 # called by the trap
jobs_cleanup() {
    local i reversed=()
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do reversed+=("${pids[i]}"); done
    [ "${#reversed[@]}" = 0 ] || job_stop "${reversed[@]}"
    [ -z "$jobs_work" ] || rm -rf "$jobs_work"
}

jobs_work_dir() {
    work=$(mktemp -d "/tmp/$1.XXXXXX")
    jobs_work=$work
    trap jobs_cleanup EXIT
}
