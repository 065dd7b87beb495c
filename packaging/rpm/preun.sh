# As %systemd_preun: stop and disable on final removal, not on upgrade.
if [ "$1" -eq 0 ] && [ -d /run/systemd/system ]; then
    systemctl --no-reload disable --now nicd.service >/dev/null 2>&1 || :
fi
