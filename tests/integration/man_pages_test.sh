#!/usr/bin/env bash
# The manual pages and shell completions against the binaries as built:
#  (a) every long option of nicd, every nicctl global option, subcommand and subcommand option,
#      every nicd-sim command, fault and their options is documented in its page (roff-escaped:
#      \-\-once, link\-down);
#  (b) each page renders without a warning from man/groff (lintian's manpage check), in plain
#      ASCII, with the version nicd reports;
#  (c) the bash completions offer the subcommands and options the binaries take, and device
#      names from nicd (on a private bus) or, when it does not answer, from the sysfs directory
#      NICCTL_COMPLETION_SYSFS;
#  (d) the zsh completions parse (zsh -n), where zsh is installed.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
src=${NICD_SOURCE_DIR:?}
nicd=$build/daemon/nicd
nicctl=$build/tools/nicctl/nicctl
sim=$build/tools/nicd-sim/nicd-sim
man_dir=$src/docs/man
comp_dir=$src/completions

fail=0
failure() {
    echo "FAIL: $*"
    fail=1
}
for b in "$nicd" "$nicctl" "$sim"; do
    [ -x "$b" ] || { echo "FAIL: $b is not built"; exit 1; }
done
for f in "$man_dir/nicd.8" "$man_dir/nicctl.8" "$man_dir/nicd-sim.1" \
    "$comp_dir/nicctl.bash" "$comp_dir/nicd.bash" "$comp_dir/_nicctl" "$comp_dir/_nicd"; do
    [ -f "$f" ] || { echo "FAIL: $f is missing"; exit 1; }
done

. "$src/scripts/lib/jobs.sh"
jobs_work_dir nicd-man
tmp=$work

# CLI11's --help: the long options of its "Options:" block, the names of its "Subcommands:" block.
long_options() {
    "$@" --help | sed -n '/^Options:/,/^$/p' |
        grep -oE '^ +(-[A-Za-z],)?--[a-z0-9][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+' || true
}
subcommands() {
    "$@" --help | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}
roff() { printf '%s' "${1//-/\\-}"; }

# An option is documented when its roff spelling appears anywhere in the page.
expect_option() { # page option what
    grep -qF -- "$(roff "$2")" "$1" || failure "$(basename "$1") does not document $3 $2 ($(roff "$2"))"
}
# A command or fault is documented when a .B/.BI/.BR line names it.
expect_name() { # page name what
    local ere
    ere=$(roff "$2")
    ere=${ere//\\/\\\\}
    grep -qE "^\.B[IR]? (\\\\%)?$ere( |\$)" "$1" ||
        failure "$(basename "$1") does not document $3 $2 (no .B/.BI/.BR line naming $(roff "$2"))"
}

# --- (a) everything the binaries take is documented ---------------------------------------------
page=$man_dir/nicd.8
opts=$(long_options "$nicd")
[ -n "$opts" ] || failure "nicd --help lists no long option"
for o in $opts; do expect_option "$page" "$o" "nicd option"; done

page=$man_dir/nicctl.8
for o in $(long_options "$nicctl"); do expect_option "$page" "$o" "nicctl global option"; done
# Every subcommand BIN --help lists, and each one's long options, are on PAGE.
expect_subcommands() {
    local page=$1 bin=$2 label=$3 subs s o
    subs=$(subcommands "$bin")
    [ -n "$subs" ] || failure "$label --help lists no subcommand"
    for s in $subs; do
        expect_name "$page" "$s" "$label subcommand"
        for o in $(long_options "$bin" "$s"); do expect_option "$page" "$o" "$label $s option"; done
    done
}
expect_subcommands "$page" "$nicctl" nicctl
nicctl_subs=$(subcommands "$nicctl") # the completions must offer the same

page=$man_dir/nicd-sim.1
expect_subcommands "$page" "$sim" nicd-sim
faults=$(subcommands "$sim" inject)
case " $(tr '\n' ' ' <<<"$faults") " in
    *" link-down "*) ;;
    *) failure "nicd-sim inject --help does not list the faults (got: $(tr '\n' ' ' <<<"$faults"))" ;;
esac
for f in $faults; do
    expect_name "$page" "$f" "nicd-sim fault"
    for o in $(long_options "$sim" inject DIR "$f"); do
        expect_option "$page" "$o" "nicd-sim inject $f option"
    done
done

# --- (b) the pages render cleanly --------------------------------------------------------------
version=$("$nicd" --version | sed -n 's/^nicd \(.*\)$/\1/p')
for page in "$man_dir/nicd.8" "$man_dir/nicctl.8" "$man_dir/nicd-sim.1"; do
    name=$(basename "$page")
    if LC_ALL=C grep -nP '[^\x00-\x7F]' "$page" >"$tmp/nonascii"; then
        failure "$name has non-ASCII characters (write roff escapes):"
        cat "$tmp/nonascii"
    fi
    if grep -n "^'" "$page" >"$tmp/apostrophe"; then
        failure "$name has lines starting with ' (a roff control character):"
        cat "$tmp/apostrophe"
    fi
    section=${name##*.}
    title=$(echo "${name%.*}" | tr '[:lower:]' '[:upper:]')
    title=${title//-/\\-}
    th="^\\.TH $(printf '%s' "$title" | sed 's/\\/\\\\/g') $section [0-9]{4}-[0-9]{2}-[0-9]{2} \"nicd ${version//./\\.}\" \""
    grep -qE "$th" "$page" ||
        failure "$name: the .TH line is not '.TH $title $section DATE \"nicd $version\" \"MANUAL\"'"
done
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
    for page in "$man_dir/nicd.8" "$man_dir/nicctl.8" "$man_dir/nicd-sim.1"; do
        name=$(basename "$page")
        # As lintian runs it: any output on stderr is a warning.
        rc=0
        out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
            man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null) || rc=$?
        if [ "$rc" != 0 ] || [ -n "$out" ]; then
            failure "man --warnings $name (exit $rc):"
            printf '%s\n' "$out"
        fi
        text=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2>/dev/null | col -b 2>/dev/null || true)
        for section_name in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" "SEE ALSO"; do
            grep -q "^$section_name\$" <<<"$text" || failure "$name has no $section_name section"
        done
    done
else
    echo "man or groff not installed (apt-get install man-db groff-base): rendering not checked"
fi

# --- (c) bash completions -----------------------------------------------------------------------
# Completes LINE with FUNC from FILE as bash would call it: COMP_LINE, COMP_POINT, and COMP_WORDS
# split at blanks and at ':' and '=' (COMP_WORDBREAKS). With FAKE_INIT=1 a stand-in for
# bash-completion's _init_completion (-n =:, so words split at blanks only) is defined first.
# Prints COMPREPLY one a line.
# shellcheck disable=SC2016 # expanded by the inner bash
harness='
file=$1 func=$2 COMP_LINE=$3
COMP_POINT=${#COMP_LINE}
split() { sed "s/[:=]/ & /g" <<<"$1"; }
read -ra COMP_WORDS <<<"$(split "$COMP_LINE")"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
if [[ ${FAKE_INIT:-0} == 1 ]]; then
    _init_completion() {
        read -ra words <<<"$COMP_LINE"
        [[ $COMP_LINE == *" " ]] && words+=("")
        cword=$((${#words[@]} - 1))
        cur=${words[cword]}
        prev=${words[cword - 1]}
    }
fi
source "$file"
complete -p "${COMP_WORDS[0]##*/}" >/dev/null || { echo "NOT-REGISTERED"; exit 1; }
COMPREPLY=()
"$func"
printf "%s\n" "${COMPREPLY[@]}"
'
mkdir -p "$tmp/sys/mlx5_0/ports/1" "$tmp/sys/mlx5_1/ports/1" "$tmp/sys/mlx5_1/ports/2"
mkdir -p "$tmp/simnode/sys/class/infiniband/mlx5_0" "$tmp/simnode/sys/class/infiniband/mlx5_1"
complete_line() { # file func line
    env PATH="$build/tools/nicctl:$PATH" NICCTL_COMPLETION_SYSFS="$tmp/sys" \
        bash --norc --noprofile -c "$harness" harness "$@" 2>"$tmp/complete.err"
}
# expect_offers FILE FUNC LINE WORD...: completing LINE offers every WORD (with and without
# bash-completion's _init_completion).
expect_offers() {
    local file=$1 func=$2 line=$3 init got w how
    shift 3
    for init in 0 1; do
        how="without bash-completion"
        [ "$init" = 1 ] && how="with _init_completion"
        got=$(FAKE_INIT=$init complete_line "$file" "$func" "$line" || true)
        for w in "$@"; do
            grep -qxF -- "$w" <<<"$got" || {
                failure "completing '$line' ($how) does not offer '$w'; offers: $(tr '\n' ' ' <<<"$got")"
                [ -s "$tmp/complete.err" ] && cat "$tmp/complete.err"
                break
            }
        done
    done
}
# expect_only FILE FUNC LINE WORD...: the offers are exactly the WORDs.
expect_only() {
    local file=$1 func=$2 line=$3 got want
    shift 3
    got=$(complete_line "$file" "$func" "$line" | sort | tr '\n' ' ' || true)
    want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
    [ "$got" = "$want" ] || failure "completing '$line' offers '$got', expected '$want'"
}

bc_nicctl=$comp_dir/nicctl.bash
bc_nicd=$comp_dir/nicd.bash
bc_sim=$comp_dir/nicd-sim.bash
# shellcheck disable=SC2086,SC2046 # word lists
{
    expect_offers "$bc_nicctl" _nicctl "nicctl " $nicctl_subs
    expect_offers "$bc_nicctl" _nicctl "nicctl --" $(long_options "$nicctl")
    expect_offers "$bc_nicctl" _nicctl "nicctl --bus " system session
    for s in $nicctl_subs; do
        expect_offers "$bc_nicctl" _nicctl "nicctl $s --" $(long_options "$nicctl" "$s")
    done
    expect_offers "$bc_nicctl" _nicctl "nicctl --json status --" --help

    nicd_opts=$(long_options "$nicd")
    expect_offers "$bc_nicd" _nicd "nicd --" $nicd_opts
    levels=$("$nicd" --help | sed -n 's/.*--log-level TEXT:{\([^}]*\)}.*/\1/p' | tr ',' ' ')
    [ -n "$levels" ] || levels="trace debug info warn error"
    expect_offers "$bc_nicd" _nicd "nicd --log-level " $levels
    expect_only "$bc_nicd" _nicd "nicd --log-level " $levels
    expect_offers "$bc_nicd" _nicd "nicd --log-level=" $levels
    expect_offers "$bc_nicd" _nicd "nicd --bus " system session
    expect_offers "$bc_nicd" _nicd "nicd --root $tmp/sy" "$tmp/sys"

    # nicd-sim: its subcommands, each one's options, and every fault `inject --help` lists.
    sim_subs=$(subcommands "$sim")
    expect_offers "$bc_sim" _nicd_sim "nicd-sim " $sim_subs
    expect_only "$bc_sim" _nicd_sim "nicd-sim " $sim_subs -h --help
    for s in $sim_subs; do
        expect_offers "$bc_sim" _nicd_sim "nicd-sim $s --" $(long_options "$sim" "$s")
    done
    faults=$(subcommands "$sim" inject)
    [ -n "$faults" ] || failure "nicd-sim inject --help lists no fault"
    expect_only "$bc_sim" _nicd_sim "nicd-sim inject $tmp " $faults
    expect_offers "$bc_sim" _nicd_sim "nicd-sim inject $tmp/simnode link-down " mlx5_0 mlx5_1
}

# No nicd answers on this bus: the names come from NICCTL_COMPLETION_SYSFS.
nobus="unix:path=$tmp/no-such-bus"
# (3, nicd cannot be asked; 1 in a sanitizer build, where LeakSanitizer reports the sd_bus that
# sdbus-c++ leaks when it cannot connect.)
out=""
rc=0
out=$(timeout 10 "$nicctl" --bus "$nobus" --json status 2>/dev/null) || rc=$?
if [ "$rc" = 0 ] || [ "$rc" = 124 ] || [ -n "$out" ]; then
    failure "nicctl --bus $nobus status exits $rc with '$out': expected a quick failure, no output"
fi
expect_only "$bc_nicctl" _nicctl "nicctl --bus $nobus show " mlx5_0 mlx5_1
expect_offers "$bc_nicctl" _nicctl "nicctl --bus $nobus show " mlx5_0 mlx5_1
expect_offers "$bc_nicctl" _nicctl "nicctl --bus=$nobus clear " mlx5_0 mlx5_1
expect_offers "$bc_nicctl" _nicctl "nicctl --bus $nobus --json counters " mlx5_0 mlx5_1 \
    mlx5_0/1 mlx5_1/1 mlx5_1/2
expect_only "$bc_nicctl" _nicctl "nicctl --bus $nobus counters mlx5_1" mlx5_1 mlx5_1/1 mlx5_1/2

# A nicd that answers (a simulated node, a private bus): the names come from it.
if command -v dbus-daemon >/dev/null 2>&1; then
    node=$tmp/node
    "$sim" create "$node" >/dev/null
    cat >"$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$tmp/bus</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
    job dbus-daemon --nofork --nopidfile --config-file="$tmp/bus.conf" >/dev/null 2>&1
    bus="unix:path=$tmp/bus"
    for _ in $(seq 100); do [ -S "$tmp/bus" ] && break; sleep 0.1; done
    job "$nicd" --root "$node" --bus "$bus" --log-level warn >/dev/null 2>"$tmp/nicd.log"
    rc=3
    deadline=$((SECONDS + 30))
    while [ "$SECONDS" -lt "$deadline" ]; do
        rc=0
        timeout 5 "$nicctl" --bus "$bus" status >/dev/null 2>&1 || rc=$?
        [ "$rc" = 3 ] || [ "$rc" = 124 ] || break
        sleep 0.1
    done
    if [ "$rc" = 3 ] || [ "$rc" = 124 ]; then
        failure "nicd on a simulated node never answered on $bus"
        cat "$tmp/nicd.log"
    else
        devices=$("$sim" list "$node" | awk '{print $1}')
        ports=$(for d in $devices; do echo "$d/1"; done)
        # shellcheck disable=SC2086 # word lists
        {
            expect_only "$bc_nicctl" _nicctl "nicctl --bus $bus show " $devices
            expect_offers "$bc_nicctl" _nicctl "nicctl --bus=$bus show " $devices
            expect_only "$bc_nicctl" _nicctl "nicctl --bus $bus counters " $devices $ports
        }
        # Every code offered for `clear DEV` is an active condition of DEV.
        for d in $devices; do
            codes=$(complete_line "$bc_nicctl" _nicctl "nicctl --bus $bus clear $d " || true)
            shown=$("$nicctl" --bus "$bus" show "$d" 2>/dev/null || true)
            for c in $codes; do
                grep -qF " $c: " <<<"$shown" ||
                    failure "completing 'nicctl clear $d' offers $c, which nicctl show $d does not list"
            done
        done
        codes=$(complete_line "$bc_nicctl" _nicctl "nicctl --bus $bus clear mlx5_6 " || true)
        [ -n "$codes" ] || failure "completing 'nicctl clear mlx5_6' (a port never up) offers no code"
    fi
else
    echo "dbus-daemon not installed: completion from a running nicd not checked"
fi

# --- (d) zsh completions ------------------------------------------------------------------------
if command -v zsh >/dev/null 2>&1; then
    for f in "$comp_dir/_nicctl" "$comp_dir/_nicd" "$comp_dir/_nicd-sim"; do
        head -1 "$f" | grep -q '^#compdef ' || failure "$(basename "$f") does not start with #compdef"
        out=$(zsh -n "$f" 2>&1) || failure "zsh -n $(basename "$f"): $out"
    done
else
    echo "zsh not installed: zsh completions not parsed"
fi

[ "$fail" = 0 ] && echo "man pages and completions OK"
exit "$fail"
