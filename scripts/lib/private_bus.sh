# shellcheck shell=bash
# Sourced by scripts/demo.sh, bench.sh and bench.d/verify_flood.sh, and run by the soak
# (scripts/soak/harness.py): the configuration of a private D-Bus daemon.
#
#   private_bus_conf LISTEN_ADDRESS POLICY_FILE   the system bus's default policy (nobody owns a
#                                                 name or calls a method unless POLICY_FILE says
#                                                 so), then nicd's own POLICY_FILE: as under systemd
#   private_bus_conf LISTEN_ADDRESS               anyone may own and call anything (a benchmark's bus)
private_bus_conf() {
    local listen=$1 policy=${2:-}
    cat <<BUS
<busconfig>
  <type>system</type>
  <listen>$listen</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
BUS
    if [ -n "$policy" ]; then
        cat <<BUS
    <deny own="*"/>
    <deny send_type="method_call"/>
BUS
    else
        cat <<BUS
    <allow own="*"/>
    <allow send_type="method_call"/>
BUS
    fi
    cat <<BUS
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
BUS
    if [ -n "$policy" ]; then
        cat <<BUS
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
  </policy>
  <include>$policy</include>
</busconfig>
BUS
    else
        echo "  </policy>"
        echo "</busconfig>"
    fi
}
