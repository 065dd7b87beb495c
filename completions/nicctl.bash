# bash completion for nicctl(8)                                  -*- shell-script -*-
# Installed as /usr/share/bash-completion/completions/nicctl.
#
# Device and port names come from the running nicd (`nicctl --json status`, on the bus given
# on the command line with --bus, if any), else from the RDMA devices under
# ${NICCTL_COMPLETION_SYSFS:-/sys/class/infiniband}.

_nicctl_subcommands="status show events verify apply counters clear forget accept-inventory config log-level slurm-check"

# COMPREPLY: the words of $1 that start with $2.
_nicctl_reply()
{
    mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

# The nicctl to ask: the one being completed when it can be run, else nicctl from PATH.
_nicctl_program()
{
    local cmd=$1
    # shellcheck disable=SC2088 # a literal ~/ typed on the command line
    [[ $cmd == "~/"* ]] && cmd=$HOME/${cmd#"~/"}
    if [[ -n $cmd ]] && command -v -- "$cmd" >/dev/null 2>&1; then
        printf '%s\n' "$cmd"
    else
        printf '%s\n' nicctl
    fi
}

# The --bus value typed before the cursor, if any. Read from COMP_LINE: bash splits an address
# such as unix:path=/x into several words at ':' and '='.
_nicctl_bus()
{
    local line=" ${COMP_LINE:0:COMP_POINT}"
    local re='[[:space:]]--bus(=|[[:space:]]+)([^[:space:]]+)[[:space:]]'
    if [[ $line =~ $re ]]; then
        local bus=${BASH_REMATCH[2]}
        bus=${bus#[\'\"]}
        bus=${bus%[\'\"]}
        printf '%s\n' "$bus"
    fi
}

# `nicctl --json status` of the running nicd, or nothing (quickly) when it does not answer.
_nicctl_status_json()
{
    local prog bus
    prog=$(_nicctl_program "$1")
    bus=$(_nicctl_bus)
    local -a args=()
    [[ -n $bus ]] && args=(--bus "$bus")
    args+=(--json status)
    if command -v timeout >/dev/null 2>&1; then
        timeout 3 "$prog" "${args[@]}" 2>/dev/null
    else
        "$prog" "${args[@]}" 2>/dev/null
    fi
}

# The names in `nicctl --json status` (stdin), one a line: "device DEV", "port DEV/PORT" and
# "code DEV CODE" (the codes of a device's and its ports' active conditions). The JSON is
# nlohmann's dump(2): keys sorted, two spaces per level. Each device object opens with "{" at 4
# spaces; its "conditions" (at 6, their "port" and "code" deeper) sort before its "device" key
# (at 6), its "ports" after it, each port's number a "port" key at 10 spaces.
_nicctl_json_names()
{
    local kind value device="" code
    local -a codes=()
    while read -r kind value; do
        case $kind in
            '{')
                for code in "${codes[@]}"; do
                    [[ -n $device ]] && printf 'code %s %s\n' "$device" "$code"
                done
                device="" codes=()
                ;;
            D)
                device=$value
                printf 'device %s\n' "$value"
                ;;
            P) [[ -n $device ]] && printf 'port %s/%s\n' "$device" "$value" ;;
            C) codes+=("$value") ;;
        esac
    done < <(
        sed -n -e 's/^    {$/{ -/p' -e 's/^      "device": "\([^"]*\)".*/D \1/p' \
            -e 's/^          "port": \([0-9]*\).*/P \1/p' -e 's/^ *"code": "\([^"]*\)".*/C \1/p'
        echo '{ -'
    )
}

_nicctl_sysfs_devices()
{
    local dir=${NICCTL_COMPLETION_SYSFS:-/sys/class/infiniband} d
    for d in "$dir"/*; do
        [[ -e $d ]] && printf '%s\n' "${d##*/}"
    done
}

_nicctl_sysfs_ports()
{
    local dir=${NICCTL_COMPLETION_SYSFS:-/sys/class/infiniband} p dev
    for p in "$dir"/*/ports/*; do
        [[ -e $p ]] || continue
        dev=${p%/ports/*}
        printf '%s/%s\n' "${dev##*/}" "${p##*/}"
    done
}

# $1: the command word; $2: devices, ports or codes; $3: the device (for codes).
_nicctl_names()
{
    local json
    json=$(_nicctl_status_json "$1")
    if [[ -n $json ]]; then
        local kind name code
        printf '%s\n' "$json" | _nicctl_json_names | while read -r kind name code; do
            case $2:$kind in
                devices:device | ports:port) printf '%s\n' "$name" ;;
                codes:code) [[ $name == "$3" ]] && printf '%s\n' "$code" ;;
            esac
        done | sort -u
        return
    fi
    case $2 in
        devices) _nicctl_sysfs_devices ;;
        ports) _nicctl_sysfs_ports ;;
    esac
}

_nicctl()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -n =: || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
    fi

    # The subcommand: the first word that names one and is not the value of --bus.
    local i sub="" sub_index=0
    for ((i = 1; i < cword; i++)); do
        [[ ${words[i - 1]} == --bus ]] && continue
        if [[ " $_nicctl_subcommands " == *" ${words[i]} "* ]]; then
            sub=${words[i]}
            sub_index=$i
            break
        fi
    done

    if [[ -z $sub ]]; then
        # --bus VALUE, or --bus=VALUE split at '=' when bash-completion is not loaded.
        if [[ $prev == --bus || ($prev == = && ${words[cword - 2]} == --bus) ]]; then
            _nicctl_reply "system session" "$cur"
        elif [[ $cur == --bus=* ]]; then
            _nicctl_reply "system session" "${cur#--bus=}"
        elif [[ $cur == -* ]]; then
            _nicctl_reply "-h --help --bus --json" "$cur"
        else
            _nicctl_reply "$_nicctl_subcommands" "$cur"
        fi
        return
    fi

    # The subcommand's options (--json and --bus may follow the subcommand too).
    local opts="-h --help --json --bus"
    case $sub in
        events) opts+=" --since -f --follow" ;;
        apply) opts+=" --dry-run" ;;
        counters) opts+=" --rate --interval" ;;
        slurm-check) opts+=" --prolog --config --node --dry-run" ;;
    esac
    [[ $prev == --since || $prev == --node || $prev == --interval ]] && return
    if [[ $prev == --config ]]; then
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
    fi
    if [[ $cur == -* ]]; then
        _nicctl_reply "$opts" "$cur"
        return
    fi

    # The positional arguments before the cursor (no option takes a value but --since).
    local -a args=()
    for ((i = sub_index + 1; i < cword; i++)); do
        case ${words[i]} in
            --since | --interval) ((i++)) ;;
            -*) ;;
            *) args+=("${words[i]}") ;;
        esac
    done
    case $sub:${#args[@]} in
        show:0 | clear:0)
            _nicctl_reply "$(_nicctl_names "${words[0]}" devices)" "$cur"
            ;;
        counters:0)
            _nicctl_reply "$(_nicctl_names "${words[0]}" devices) $(_nicctl_names "${words[0]}" ports)" "$cur"
            ;;
        clear:1)
            _nicctl_reply "$(_nicctl_names "${words[0]}" codes "${args[0]}")" "$cur"
            ;;
        log-level:0)
            _nicctl_reply "trace debug info warn error" "$cur"
            ;;
    esac
}

complete -F _nicctl nicctl
