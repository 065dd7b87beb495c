# %systemd_post: enable per preset on first install.
if [ $1 -eq 1 ] && [ -d /run/systemd/system ]; then
    systemctl daemon-reload || :
    systemctl preset nicd.service >/dev/null 2>&1 || :
fi
