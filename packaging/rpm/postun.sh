# %systemd_postun_with_restart: reload units; restart on upgrade.
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload || :
    if [ $1 -ge 1 ]; then
        systemctl try-restart nicd.service || :
    fi
fi
