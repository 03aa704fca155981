#!/usr/bin/env bats
# The checkout may live anywhere (CI does): the suites whose messages,
# headers and file lookups carry paths run again from a copy of this tree
# (its tracked files and built programs) under a path of more than 200
# characters, with TMPDIR as long.

load test_helper

PATH_SUITES="energy faultmap dcpatch front decode decode-formats corrupt"

@test "the suites that handle paths pass from a checkout under a 200+ character path" {
    [[ -z ${RFT_LONG_PATH:-} ]] || skip "this is the copy under the long path"
    [[ ${VALGRIND:-} != 1 ]] || skip "a test of paths, not of memory: too slow under valgrind"
    git -C "$TOP" rev-parse --git-dir > /dev/null 2>&1 || skip "not a git checkout"
    local long="$BATS_TEST_TMPDIR" part suites=()
    for part in first second third fourth fifth; do
        long+="/the-$part-directory-of-a-checkout-path-longer-than-200"
    done
    (( ${#long} > 200 ))
    mkdir -p "$long/tmp"
    (cd "$TOP" && git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$long")
    for part in "$TOP"/bin/rft "$TOP"/bin/rft-*; do
        [[ -x $part && $part != *.* ]] && cp "$part" "$long/bin/"
    done
    for part in $PATH_SUITES; do suites+=("$long/tests/$part.bats"); done
    run env RFT_LONG_PATH=1 TMPDIR="$long/tmp" bats "${suites[@]}"
    if (( status != 0 )); then
        grep -A6 '^not ok' <<< "$output"     # what failed, not every line it printed
        return 1
    fi
    assert_line --regexp '^1\.\.[1-9][0-9]+$'
}
