# Shared by scripts/run and scripts/test: install what is missing, then configure and build.
# Sourced, not executed.

TANDEM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# ccache keys on paths relative to the checkout, so a fresh clone reuses earlier builds: the
# build folder is left out of the key (debug builds would otherwise hash it), and so are the
# absolute folders Qt Test defines for QFINDTESTDATA (unused here). The checkout's own path is
# compiled into one test object only (tests/support/test_paths.cpp).
export CCACHE_BASEDIR="$TANDEM_ROOT" CCACHE_NOHASHDIR=1
export CCACHE_IGNOREOPTIONS="-DQT_TESTCASE_BUILDDIR=* -DQT_TESTCASE_SOURCEDIR=*"

# Debian 12 packages the build, the tests and the screenshots need.
TANDEM_PACKAGES=(
    g++ cmake ninja-build pkg-config ccache
    qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl1-mesa-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    coinor-libcbc-dev nlohmann-json3-dev
    libonnx-dev libprotobuf-dev
    libopenmpi-dev openmpi-bin
    xvfb xauth
    clang-format-14 git
)

tandem_log() { printf '\033[1m[tandem]\033[0m %s\n' "$*" >&2; }

tandem_install_packages() {
    local missing=()
    for pkg in "${TANDEM_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            tandem_log "missing packages: ${missing[*]}"
            tandem_log "run as root or install sudo, then try again"
            return 1
        fi
    fi
    tandem_log "installing ${#missing[@]} missing packages: ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

# tandem_build PRESET [targets...]: configure with a CMake preset and build with both cores.
tandem_build() {
    local preset="$1"
    shift
    cd "$TANDEM_ROOT"
    tandem_log "configuring (preset $preset)"
    cmake --preset "$preset" >/dev/null
    tandem_log "building ${*:-everything}"
    if [ $# -gt 0 ]; then
        cmake --build --preset "$preset" --target "$@"
    else
        cmake --build --preset "$preset"
    fi
}
