# bash completion for nicd-sim(1)                                -*- shell-script -*-
# Installed as /usr/share/bash-completion/completions/nicd-sim.

_nicd_sim_subcommands="create tick run reboot list capture inject"
# The faults of `nicd-sim inject DIR FAULT` (nicd-sim inject --help lists them).
_nicd_sim_faults="kernel-line dcbx-firmware dcbx-firmware-clear ecn-drift errors flap link-down
    link-drop link-drop-clear ipoib-down ipoib-down-clear
    link-up qos-drift rate refuse refuse-clear no-pma remove rename reset-counters restore
    stall tos-reset unstall wrap fec-degrade fec-degrade-clear optics-rx-low
    optics-rx-low-clear asic-hot asic-hot-clear fw-fatal fw-fatal-clear pcie-downtrain
    pcie-downtrain-clear pcie-path-downtrain pcie-path-downtrain-clear rate-downtrain
    rate-downtrain-clear fw-drift fw-drift-clear fw-old
    fw-old-clear smi-add smi-add-clear plane-downtrain plane-downtrain-clear congest-ecn congest-ecn-clear congest-pfc-only congest-pfc-only-clear
    gid-missing gid-missing-clear mtu mtu-clear pause-storm pause-storm-clear uverbs-missing
    uverbs-missing-clear umad-missing umad-missing-clear acs-on acs-on-clear lossy lossy-clear
    peermem-unload peermem-unload-clear neighbor neighbor-clear neighbor-add neighbor-add-clear
    cable-swap cable-swap-clear switch-pfc switch-pfc-clear lldpd-stop lldpd-stop-clear"

# The options of a subcommand.
_nicd_sim_options()
{
    case $1 in
        create) echo "--devices --channels --vendor --driver-ready --force --seed --boot-id
                --profile --gpus --gpu-model --compute-nics --storage-ports --storage-cards --infiniband" ;;
        tick) echo "--seconds" ;;
        run) echo "--interval-ms --count" ;;
        reboot) echo "--boot-id" ;;
        capture) echo "--root --devices --samples --interval-ms --timeout --keep-identifiers
                --tar" ;;
    esac
    echo "-h --help"
}

# The RDMA devices of the simulated node under $1 (its sys/class/infiniband).
_nicd_sim_devices()
{
    local d
    for d in "$1"/sys/class/infiniband/*; do
        [[ -e $d ]] && echo "${d##*/}"
    done
}

_nicd_sim()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
    fi

    # The subcommand and the words after it that are not options: DIR, then (inject) FAULT, DEV.
    local sub="" i positional=()
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -*) ;;
            *) if [[ -z $sub ]]; then sub=${words[i]}; else positional+=("${words[i]}"); fi ;;
        esac
    done

    case $prev in
        --profile)
            mapfile -t COMPREPLY < <(compgen -W "hgx-a100 hgx-h100 hgx-h200 hgx-h800 hgx-h20
                hgx-b200 hgx-b300 gb200 gb300" -- "$cur")
            return
            ;;
        --gpu-model)
            mapfile -t COMPREPLY < <(compgen -W "a100 h100 h200 h800 h20 b200 b300 gb200 gb300
                h100-pcie h200-nvl l40s" -- "$cur")
            return
            ;;
        --vendor)
            mapfile -t COMPREPLY < <(compgen -W "mlx5 bnxt mlx5,bnxt" -- "$cur")
            return
            ;;
        --root)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            return
            ;;
    esac

    if [[ -z $sub ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$_nicd_sim_subcommands -h --help" -- "$cur")
        return
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_nicd_sim_options "$sub")" -- "$cur")
        return
    fi
    case ${#positional[@]} in
        0) # DIR
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            ;;
        1) [[ $sub == inject ]] && mapfile -t COMPREPLY < <(compgen -W "$_nicd_sim_faults" -- "$cur") ;;
        2) [[ $sub == inject ]] &&
            mapfile -t COMPREPLY < <(compgen -W "$(_nicd_sim_devices "${positional[0]}")" -- "$cur") ;;
        3) [[ $sub == inject && ${positional[1]} == cable-swap* ]] && # DEV2
            mapfile -t COMPREPLY < <(compgen -W "$(_nicd_sim_devices "${positional[0]}")" -- "$cur") ;;
    esac
}

complete -F _nicd_sim nicd-sim
