# One way for a script to run background jobs: `jobs_work_dir PREFIX` makes $work (a new
# directory /tmp/PREFIX.XXXXXX) and sets the EXIT trap; a job started with `cmd & pids+=($!)` is
# killed (and waited for) and $work removed when the script exits, however it exits.
#   . "$here/scripts/lib/jobs.sh"
#   jobs_work_dir nicd-demo
#   dbus-daemon ... & pids+=($!)
pids=()
jobs_work=

jobs_cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -z "$jobs_work" ] || rm -rf "$jobs_work"
}

jobs_work_dir() {
    work=$(mktemp -d "/tmp/$1.XXXXXX")
    jobs_work=$work
    trap jobs_cleanup EXIT
}
