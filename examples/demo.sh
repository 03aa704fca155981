#!/bin/sh
# The built-in example behind `make demo`: a synthetic workload through the
# main stages.  Every step is an ordinary pipeline you can copy.
set -eu
here=$(dirname "$0")
# folders of our own: names nobody can plant before us (issue 31)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rft-demo.XXXXXX")
. "$here/stages.sh"     # stage, join; cleans up on exit and signals

echo "== rft-synth: a seeded synthetic workload (6 kernel models, 2 CUs x 4 SIMDs)"
stage rft-synth --writes 200000 --seed 1 -o "$tmp/demo.rft"
join
rft-view --stats "$tmp/demo.rft"

if command -v rft-classify >/dev/null 2>&1; then
    echo
    echo "== rft-classify: register value patterns (seed 002 Fig. 7, seed 001 Fig. 2)"
    stage rft-classify --summary "$tmp/demo.rft"
    join
fi

if [ -x "$here/aging.sh" ] && command -v rft-duty >/dev/null 2>&1; then
    echo
    echo "== aging: baseline, RC, RAR, RC+RAR, WC, ARGO (seed 002 section 6)"
    figs=$(mktemp -d "${TMPDIR:-/tmp}/rft-demo-figures.XXXXXX")   # kept: open them in a browser
    if command -v rft-plot >/dev/null 2>&1; then
        stage "$here/aging.sh" -p "$figs" "$tmp/demo.rft"
        join
        echo "figures (seed 002 Figs. 12-18): $figs/*.svg"
    else
        stage "$here/aging.sh" "$tmp/demo.rft"
        join
    fi
fi
if [ -x "$here/undervolt.sh" ] && command -v rft-dcpatch >/dev/null 2>&1; then
    echo
    echo "== undervolting: DC-Patch under the three fault scenarios (seed 001)"
    stage "$here/undervolt.sh" "$tmp/demo.rft"
    join
fi
if [ -x "$here/healing.sh" ] && command -v rft-heal >/dev/null 2>&1; then
    echo
    echo "== healing: PE and SC healing on a synthetic Evergreen (VLIW) workload (seed 003)"
    stage rft-synth --arch evergreen --kernels reduction --seed 1 -o "$tmp/vliw.rft"
    join
    stage "$here/healing.sh" --variation 10 "$tmp/vliw.rft"
    join
fi
