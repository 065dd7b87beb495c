# shellcheck shell=bash
# node_exporter's CPU per scrape of a textfile: its textfile collector alone, on a copy of FILE,
# scraped N times back to back after 3 warm-up scrapes (CPU of every thread from
# /proc/PID/task/*/schedstat). Uses $work and `job` (scripts/lib/jobs.sh).
#   . "$here/scripts/lib/node_exporter.sh"
#   textfile_scrape_ms FILE [N]   -> sets scrape_ms (ms of CPU per scrape, one decimal)
# shellcheck source=SCRIPTDIR/freeport.sh
. "$(dirname "${BASH_SOURCE[0]}")/freeport.sh"
# shellcheck source=SCRIPTDIR/cpu_ns.sh
. "$(dirname "${BASH_SOURCE[0]}")/cpu_ns.sh"
textfile_scrape_ms() {
    local file=$1 n=${2:-40} dir=$work/ne-textfile port pid t0 t1
    rm -rf "$dir" && mkdir -p "$dir" && cp "$file" "$dir/nicd.prom"
    port=$(freeport)
    job prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
        --collector.textfile --collector.textfile.directory="$dir" --web.disable-exporter-metrics \
        >"$work/ne-textfile.log" 2>&1
    # shellcheck disable=SC2154 # set by job (scripts/lib/jobs.sh)
    pid=$job_pid
    for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null 2>&1 && break; sleep 0.1; done
    for _ in 1 2 3; do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null; done
    t0=$(cpu_ns "$pid")
    for _ in $(seq "$n"); do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null; done
    t1=$(cpu_ns "$pid")
    job_stop "$pid"
    scrape_ms=$(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n / 1e6 }')
}
