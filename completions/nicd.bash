# bash completion for nicd(8)                                    -*- shell-script -*-
# Installed as /usr/share/bash-completion/completions/nicd.

# COMPREPLY: the words of $1 that start with $2.
_nicd_reply()
{
    mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

# COMPREPLY: files (or, with -d, directories) that start with $2.
_nicd_paths()
{
    if declare -F _filedir >/dev/null 2>&1; then
        cur=$2
        if [[ $1 == -d ]]; then _filedir -d; else _filedir; fi
        return
    fi
    compopt -o filenames 2>/dev/null
    if [[ $1 == -d ]]; then
        mapfile -t COMPREPLY < <(compgen -d -- "$2")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$2")
    fi
}

_nicd()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -n = || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
    fi

    # --opt=VALUE: one word with bash-completion, three (--opt, =, VALUE) without it.
    local opt="" value=$cur
    if [[ $cur == --*=* ]]; then
        opt=${cur%%=*}
        value=${cur#*=}
    elif [[ $prev == = && $cword -ge 2 ]]; then
        opt=${words[cword - 2]}
    elif [[ $cur == = && $prev == --* ]]; then
        opt=$prev
        value=""
    else
        opt=$prev
    fi

    case $opt in
        --config)
            _nicd_paths -f "$value"
            return
            ;;
        --root | --plugin-directory)
            _nicd_paths -d "$value"
            return
            ;;
        --log-level)
            _nicd_reply "trace debug info warn error" "$value"
            return
            ;;
        --forget)
            return # a device nicd remembers: not known here
            ;;
        --bus)
            _nicd_reply "system session" "$value"
            return
            ;;
    esac

    _nicd_reply "-h --help --config --root --plugin-directory --once --check-config --bus --no-dbus
        --dry-run -v --verbose --json --forget --log-level --version" "$cur"
}

complete -F _nicd nicd
