#!/usr/bin/env bash
# Install what the test suite needs beyond Rust, python3 and gcc, from Debian packages:
# LLVM/clang 19 (opaque pointers) and 14 (typed pointers) with opt, lli, FileCheck, not, count;
# clang's sanitizer runtime (scripts/check-programs.py); csmith and its headers; GNU time;
# Graphviz's dot (tests/readme.rs renders the README's dot-cfg example); GCC 12's source
# tarball (scripts/torture.py reads GCC's C torture tests from it); Chromium, its driver and
# Selenium for Python (scripts/playground_browser_test.py drives the playground page).
#
# Idempotent and quiet: prints nothing and installs nothing when everything is present.
# Otherwise runs `apt-get update` then `apt-get install` (as root, or through sudo).
# Anything still missing afterwards is a hard failure (exit 1) with the list: the tests never
# skip silently. Usage: scripts/install-deps.sh [--check]   (--check: only report, no install)
set -euo pipefail

# "what must exist" "package providing it"; commands are looked up on PATH, paths are tested.
REQUIRED=(
  "clang-19                 clang-19"
  "clang++-19               clang-19"
  "opt-19                   llvm-19"
  "lli-19                   llvm-19"
  "FileCheck-19             llvm-19-tools"
  "/usr/lib/llvm-19/bin/not llvm-19-tools"
  "/usr/lib/llvm-19/bin/count llvm-19-tools"
  "/usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.asan-x86_64.a libclang-rt-19-dev"
  "clang-14                 clang-14"
  "clang++-14               clang-14"
  "opt-14                   llvm-14"
  "lli-14                   llvm-14"
  "csmith                   csmith"
  "/usr/include/csmith/csmith.h libcsmith-dev"
  "/usr/bin/time            time"
  "diff                     diffutils"
  "python3                  python3"
  "dot                      graphviz"
  "/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz gcc-12-source"
  "/usr/bin/chromium        chromium"
  "/usr/bin/chromedriver    chromium-driver"
  "/usr/lib/python3/dist-packages/selenium python3-selenium"
)

have() {
  case "$1" in
    /*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

missing_items() {
  local line item
  for line in "${REQUIRED[@]}"; do
    read -r item _ <<<"$line"
    have "$item" || echo "$line"
  done
}

missing=$(missing_items)
[ -z "$missing" ] && exit 0

pkgs=$(awk '{print $2}' <<<"$missing" | sort -u | tr '\n' ' ')
if [ "${1:-}" = "--check" ]; then
  echo "install-deps: missing: $(awk '{print $1}' <<<"$missing" | tr '\n' ' ')" >&2
  echo "install-deps: packages: $pkgs" >&2
  exit 1
fi

echo "install-deps: installing $pkgs"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: error: not root and no sudo; install these packages: $pkgs" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
t0=$(date +%s)
# shellcheck disable=SC2086
if ! "${SUDO[@]}" apt-get update -qq >/tmp/install-deps-apt.log 2>&1 ||
   ! "${SUDO[@]}" apt-get install -y -qq --no-install-recommends $pkgs >>/tmp/install-deps-apt.log 2>&1; then
  tail -n 30 /tmp/install-deps-apt.log >&2
  echo "install-deps: error: apt-get failed (log: /tmp/install-deps-apt.log)" >&2
  exit 1
fi

still=$(missing_items)
if [ -n "$still" ]; then
  echo "install-deps: error: still missing after installing $pkgs:" >&2
  sed 's/^/  /' <<<"$still" >&2
  if [ "${CI:-}" = "true" ]; then
    echo "install-deps: error: CI=true and the test tools are missing: failing (no stage is skipped)" >&2
  fi
  exit 1
fi
echo "install-deps: done in $(( $(date +%s) - t0 )) s"
