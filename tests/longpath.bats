#!/usr/bin/env bats
# The project under a path of more than 200 bytes: CI may live anywhere, and
# paths end up in headers, fault-map origins, messages and parameter lookups
# (issue 11).  A copy of the work tree without its build products is built
# there with the same flags (SAN=1 too), its programs alone (make programs:
# no unit tests, no shared library), and runs the suites that handle paths.
# The library's objects come along when this tree has them, built with the
# same flags (make's stamps of the flags and the dependencies with them:
# other flags rebuild everything): no path is compiled into them, and
# compiling them again was half the test's 27 CPU-s; the programs are
# compiled and everything is linked under the long path.

load test_helper

@test "built under a 200+ byte path, the suites that handle paths pass" {
    local top
    top=$BATS_TEST_TMPDIR/$(printf 'a-long-directory-name-%.0s' {1..10})/rftrace
    [ ${#top} -gt 200 ]
    mkdir -p "$top"
    # the files git tracks and the new ones it does not ignore; without git,
    # everything, then make clean
    if git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
        git -C "$TOP" ls-files -z --cached --others --exclude-standard |
            (cd "$TOP" && tar --null -T - -cf -) | tar -xf - -C "$top"
    else
        cp -a "$TOP/." "$top"
        make -C "$top" clean > /dev/null
    fi
    [ ! -e "$top/bin/rft-decode" ]
    # the library's objects and make's two stamps, their times kept (tar)
    if compgen -G "$TOP/lib/*.o" > /dev/null && compgen -G "$TOP/.flags-*" > /dev/null &&
        compgen -G "$TOP/.deps-ok*" > /dev/null; then
        (cd "$TOP" && tar -cf - lib/*.o .flags-* .deps-ok*) | tar -xf - -C "$top"
    fi
    # a make of its own: not the jobs of the make check that may run this
    local log=$BATS_TEST_TMPDIR/build.log
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" -j2 ${SAN:+SAN=$SAN} programs > "$log" 2>&1 ||
        { cat "$log"; false; }
    run bats "$top/tests/energy.bats" "$top/tests/faultmap.bats" "$top/tests/dcpatch.bats" \
        "$top/tests/hostile.bats"
    [ "$status" -eq 0 ] || { printf '%s\n' "$output" | grep -v '^ok'; false; }
    refute_output --partial 'not ok'
}
