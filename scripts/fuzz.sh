#!/usr/bin/env bash
# The fuzz targets of tests/fuzz (targets.txt names them and their seeds), for ctest and `make fuzz`.
#
#   fuzz.sh build                 configure and build the libFuzzer binaries in $NICD_FUZZ_DIR with
#                                 clang; exit 77 (skipped) where clang or libFuzzer is missing
#   fuzz.sh check NAME            run fuzz-NAME for a fixed number of inputs (FUZZ_RUNS, default
#                                 below), seed 1, new inputs in a scratch folder (ctest fuzz.NAME)
#   fuzz.sh run NAME SECONDS      fuzz for SECONDS; what it finds is kept in
#                                 $NICD_FUZZ_DIR/corpus/NAME and used again next time
#   fuzz.sh all SECONDS           build, then `run` every target (`make fuzz SECONDS=N`)
#   fuzz.sh replay NAME BINARY    run a replay binary (gcc build) over the seeds of NAME
#   fuzz.sh seeds NAME DIR        copy the seeds of NAME into DIR (*.hex made binary)
#   fuzz.sh list                  the target names
#
# A crash's input is written to $NICD_FUZZ_DIR/crashes/NAME/. Once the parser is fixed, keep it
# as tests/data/fuzz/NAME/regressions/<what it was>: every later run and replay starts from it.
set -euo pipefail

source_dir=${NICD_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
shared_dir=${NICD_SHARED_DIR:-$source_dir/../shared}
fuzz_dir=${NICD_FUZZ_DIR:-$source_dir/build-fuzz}
targets=$source_dir/tests/fuzz/targets.txt
# Chosen so that every target together runs in well under two minutes on two cores.
default_runs=20000
# The scratch folder of this run (staged seeds, new inputs), removed on exit.
scratch=
trap '[ -z "$scratch" ] || rm -rf "$scratch"' EXIT

die() {
    echo "fuzz: $*" >&2
    exit 1
}

# skip WHAT HOW: "clang not found: fuzz targets not run (apt install clang)", and ctest's "skipped".
skip() {
    echo "$1: fuzz targets not run ($2)" >&2
    exit 77
}

names() {
    grep -E '^[a-z]' "$targets" | awk '{print $1}'
}

# The seed paths of a target, one a line, absolute.
seed_paths() {
    local name=$1 line path
    line=$(grep -E "^$name( |$)" "$targets") || die "no fuzz target '$name' in $targets"
    for path in $(echo "$line" | cut -s -d' ' -f2- ); do
        path=${path//\$SHARED/$shared_dir}
        [[ $path == /* ]] || path=$source_dir/$path
        echo "$path"
    done
    [ -d "$source_dir/tests/data/fuzz/$name" ] && echo "$source_dir/tests/data/fuzz/$name"
    return 0
}

# Copies every seed file of NAME into DIR under a unique name; a *.hex capture becomes the binary
# image its "offset: bytes" lines describe (tests/data/module/SOURCES.md). Documentation (*.md)
# beside the data is left out.
stage_seeds() {
    local name=$1 dir=$2 path file n=0
    mkdir -p "$dir"
    while read -r path; do
        [ -e "$path" ] || die "seed path $path of $name is missing"
        while IFS= read -r -d '' file; do
            n=$((n + 1))
            if [[ $file == *.hex ]]; then
                hex_to_blob "$file" "$dir/$n-$(basename "$file" .hex).bin"
            else
                cp "$file" "$dir/$n-$(basename "$file")"
            fi
        done < <(find -L "$path" -type f ! -name "*.md" -print0 | sort -z)
    done < <(seed_paths "$name")
    [ "$n" -gt 0 ] || die "no seeds for $name"
}

hex_to_blob() {
    python3 - "$1" "$2" <<'EOF'
import re, sys
blob = bytearray()
for line in open(sys.argv[1]):
    line = re.split(r"[#|]", line)[0]
    offset, colon, rest = line.partition(":")
    try:
        at = int(offset, 16)
    except ValueError:
        continue
    if not colon:
        continue
    for token in rest.split():
        if at >= len(blob):
            blob.extend(bytes(at + 1 - len(blob)))
        blob[at] = int(token, 16)
        at += 1
open(sys.argv[2], "wb").write(blob)
EOF
}

binary_of() {
    echo "$fuzz_dir/tests/fuzz/fuzz-$1"
}

# Runs fuzz-NAME on its seeds with the libFuzzer options given. New inputs go to CORPUS, the first
# folder (the only one libFuzzer writes to); "" = a scratch folder, removed afterwards.
fuzz_target() {
    local name=$1 corpus=$2
    shift 2
    local bin rc=0
    bin=$(binary_of "$name")
    [ -x "$bin" ] || skip "fuzz-$name not built" "fuzz.build was skipped or failed"
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/nicd-fuzz-$name.XXXXXX")
    stage_seeds "$name" "$scratch/seeds"
    corpus=${corpus:-$scratch/new}
    mkdir -p "$corpus" "$fuzz_dir/crashes/$name"
    # libFuzzer's own exit code for a finding is 77, which ctest would take for "skipped".
    "$bin" "$@" -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 -timeout_exitcode=1 \
        -print_final_stats=1 -artifact_prefix="$fuzz_dir/crashes/$name/" "$corpus" \
        "$scratch/seeds" || rc=$?
    if [ "$rc" -ne 0 ]; then
        [ "$rc" -ne 77 ] || rc=1
        echo "fuzz: fuzz-$name failed (exit $rc); its input is in $fuzz_dir/crashes/$name/" >&2
        echo "fuzz: replay it with: $bin $fuzz_dir/crashes/$name/<file>" >&2
    fi
    return "$rc"
}

cmd_build() {
    command -v clang >/dev/null && command -v clang++ >/dev/null ||
        skip "clang not found" "apt install clang libclang-rt-14-dev"
    local probe
    probe=$(mktemp -d "${TMPDIR:-/tmp}/nicd-fuzz-probe.XXXXXX")
    echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
        >"$probe/probe.cpp"
    if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" -o "$probe/probe" \
        2>"$probe/log"; then
        cat "$probe/log" >&2
        rm -rf "$probe"
        skip "clang cannot link libFuzzer" "apt install libclang-rt-14-dev"
    fi
    rm -rf "$probe"
    mkdir -p "$fuzz_dir"
    # One build at a time: ctest's fuzz.build and `make fuzz` share the folder.
    exec 9>"$fuzz_dir/.lock"
    flock 9
    if [ ! -f "$fuzz_dir/build.ninja" ]; then
        CC=clang CXX=clang++ cmake -S "$source_dir" -B "$fuzz_dir" -G Ninja -DNICD_FUZZ=ON
    fi
    cmake --build "$fuzz_dir"
}

cmd_check() {
    local name=$1
    fuzz_target "$name" "" -runs="${FUZZ_RUNS:-$default_runs}" -seed=1
}

cmd_run() {
    local name=$1 seconds=$2
    fuzz_target "$name" "$fuzz_dir/corpus/$name" -max_total_time="$seconds"
}

cmd_all() {
    local seconds=$1 name failed=()
    cmd_build || exit
    for name in $(names); do
        echo "=== fuzz-$name: $seconds s"
        # A process of its own: its scratch folder is removed when it exits.
        bash "${BASH_SOURCE[0]}" run "$name" "$seconds" || failed+=("$name")
    done
    if [ ${#failed[@]} -gt 0 ]; then
        echo "fuzz: crashes in: ${failed[*]} (inputs in $fuzz_dir/crashes/)" >&2
        exit 1
    fi
    echo "fuzz: every target ran $seconds s without a finding"
}

cmd_replay() {
    local name=$1 bin=$2
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/nicd-replay-$name.XXXXXX")
    stage_seeds "$name" "$scratch"
    "$bin" "$scratch"
}

case "${1:-}" in
build) cmd_build ;;
check) [ $# -eq 2 ] || die "usage: fuzz.sh check NAME"; cmd_check "$2" ;;
run) [ $# -eq 3 ] || die "usage: fuzz.sh run NAME SECONDS"; cmd_run "$2" "$3" ;;
all) [ $# -eq 2 ] || die "usage: fuzz.sh all SECONDS"; cmd_all "$2" ;;
replay) [ $# -eq 3 ] || die "usage: fuzz.sh replay NAME BINARY"; cmd_replay "$2" "$3" ;;
seeds) [ $# -eq 3 ] || die "usage: fuzz.sh seeds NAME DIR"; stage_seeds "$2" "$3" ;;
list) names ;;
*) die "usage: fuzz.sh build | check NAME | run NAME SECONDS | all SECONDS | replay NAME BINARY | seeds NAME DIR | list" ;;
esac
