# As %systemd_post: enable per preset on first install (started by the admin or at boot).
if [ "$1" -eq 1 ] && [ -d /run/systemd/system ]; then
    systemctl --no-reload preset nicd.service >/dev/null 2>&1 || :
fi
