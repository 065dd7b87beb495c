# As %systemd_postun_with_restart: reload units; restart on upgrade. On final removal drop the
# textfile, which node_exporter would otherwise serve, stale, forever.
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload >/dev/null 2>&1 || :
    if [ "$1" -ge 1 ]; then
        systemctl try-restart nicd.service >/dev/null 2>&1 || :
    fi
fi
if [ "$1" -eq 0 ]; then
    rm -f /var/lib/prometheus/node-exporter/nicd.prom
fi
