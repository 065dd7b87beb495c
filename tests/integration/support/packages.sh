# shellcheck shell=bash
# The packages the package tests look at, built once for all of them: ctest's fixture
# (integration.package_build, tests/CMakeLists.txt) runs `packages.sh BUILD DIR` first and the
# tests find them through $NICD_PACKAGE_DIR. A test run on its own builds them itself.
#   packages_dir BUILD OUT    prints the directory that holds the .deb/.ddeb/.rpm files
build_packages() { # BUILD DIR
    rm -rf "$2" && mkdir -p "$2"
    (cd "$1" && timeout 300 cpack -G "DEB;RPM" -B "$2" >"$2/cpack.log" 2>&1) || {
        cat "$2/cpack.log" >&2
        return 1
    }
}
packages_dir() { # BUILD OUT
    if [ -n "${NICD_PACKAGE_DIR:-}" ] && ls "$NICD_PACKAGE_DIR"/nicd_*.deb >/dev/null 2>&1; then
        echo "$NICD_PACKAGE_DIR"
    else
        build_packages "$1" "$2/packages" && echo "$2/packages"
    fi
}
# Run as a script: the fixture.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    build_packages "$1" "$2"
fi
