#!/usr/bin/env bats
# Issue 26, one set of options: a letter means one long option in every
# program and study script (derived from their --help, checked against the
# table of rft(1) OPTIONS), the old spellings still work with one warning,
# the four study scripts share -r, -j, -k, -p, --format and --quiet, and
# the help texts say what each option does.

load test_helper

STUDIES="aging.sh undervolt.sh argo.sh healing.sh"

# every program of bin/ (binaries and scripts) and the four study scripts,
# as paths
commands() {
    local p
    for p in "$TOP"/bin/rft "$TOP"/bin/rft-*; do
        if [[ -x $p && $p != *.* ]]; then echo "$p"; fi
    done
    for p in $STUDIES; do echo "$TOP/examples/$p"; done
}

# "LETTER LONG" for each short option of --help on standard input: a line
# "  -x, --long ..." or "  -x ARG  The same as --long=ARG"
letters() {
    sed -nE 's/^  -([a-zA-Z]), --([a-z][a-z-]*).*/\1 \2/p
             s/^  -([a-zA-Z]) [^ ]+ +The same as --([a-z][a-z-]*).*/\1 \2/p'
}

# "LETTER LONG" for each entry of rft(1) OPTIONS
man_letters() {
    sed -n '/^\.SH OPTIONS/,/^\.SH/p' "$TOP/man/rft.1" |
        sed -nE 's/^\.BR \\-([a-zA-Z]) ", " \\-\\-([a-z\\-]+).*/\1 \2/p' | sed 's/\\//g'
}

@test "one letter, one long option: every --help against the others and rft(1) OPTIONS" {
    local p l long seen=" " table bad=""
    table=$(man_letters)
    (( $(wc -l <<<"$table") >= 15 ))
    declare -A first
    for p in $(commands); do
        run -0 --separate-stderr "$p" --help
        while read -r l long; do
            [[ -n $l ]] || continue
            if [[ -n ${first[$l]:-} && ${first[$l]%% *} != "$long" ]]; then
                bad+=" -$l: --$long (${p##*/}) and --${first[$l]}"
            fi
            [[ -n ${first[$l]:-} ]] || first[$l]="$long ${p##*/}"
            # a whole line of the table (no grep a letter: they add up)
            [[ $'\n'$table$'\n' == *$'\n'"$l $long"$'\n'* ]] || bad+=" -$l --$long (${p##*/}) is not in rft(1) OPTIONS"
        done < <(letters <<<"$output")
    done
    assert_equal "$bad" ""
    # and no entry of the table that nothing takes
    while read -r l long; do
        [[ -n ${first[$l]:-} ]] || bad+=" -$l"
    done <<<"$table"
    assert_equal "$bad" ""
}

@test "every short option a command takes has a line of --help with its long option" {
    local p o
    for p in $(commands); do
        run -0 --separate-stderr "$p" --help
        local known
        known=$(letters <<<"$output" | cut -c1)
        run -0 --separate-stderr "$p" --list-options
        for o in "${lines[@]}"; do
            [[ $o == -[a-zA-Z] && $o != -h ]] || continue
            # a whole line of $known (no grep an option: they add up)
            [[ $'\n'$known$'\n' == *$'\n'"${o#-}"$'\n'* ]] || fail "${p##*/}: $o has no '  $o, --long' line in --help"
        done
    done
}

# The old spellings every command lists (--list-deprecated), "COMMAND OLD
# LONG" a line
deprecated() {
    local p
    for p in $(commands); do
        [[ ${p##*/} != rft ]] || continue       # the front end: no options but --help, --version
        "$p" --list-deprecated | awk -F '\t' -v p="${p##*/}" '{ print p, $1, $2 }'
    done
}

@test "each old spelling is in rft(1) OPTIONS and README, and has its case below" {
    run -0 deprecated
    (( ${#lines[@]} == 12 )) || fail "$output"
    local opts readme c old long
    opts=$(sed -n '/^\.SH OPTIONS/,/^\.SH/p' "$TOP/man/rft.1" | sed 's/\\f[BIRP]//g; s/\\-/-/g')
    readme=$(cat "$TOP/README.md")
    while read -r c old long; do
        grep -q -- "^\.B $c .*$old" <<<"$opts" || fail "rft(1) OPTIONS lacks $c $old"
        grep -q -- "$c[^|]*$old" <<<"$readme" || fail "README lacks $c $old"
        grep -q -- "^ *old_case $c $old " "$BATS_TEST_FILENAME" || fail "no case of $c $old below"
    done <<<"$output"
}

# old_case COMMAND OLD NEW ARGS...: COMMAND OLD ARGS does what COMMAND NEW
# ARGS does (the same output and status), with one warning line first
old_case() {
    local c=$1 old=$2 new=$3
    shift 3
    local p="$TOP/bin/$c"
    [[ -x $p ]] || p="$TOP/examples/$c"
    run --separate-stderr "$p" "$new" "$@"
    local want_status=$status want=$output want_err=$stderr
    run --separate-stderr "$p" "$old" "$@"
    assert_equal "$status" "$want_status"
    assert_equal "$output" "$want"
    local long
    long=$("$p" --list-deprecated | awk -F '\t' -v o="$old" '$1 == o { print $2 }')
    assert_equal "${stderr_lines[0]}" "$c: warning: $old for $long is deprecated, use $(
        "$p" --list-deprecated | awk -F '\t' -v o="$old" '$1 == o { print $3 }') (rft(1), OPTIONS)"
    assert_equal "$(sed 1d <<<"$stderr")" "$want_err"
}

@test "the old spellings still work as the option they stand for, with one warning" {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --cus 1 --simds 2 --writes 600 --seed 2 > s.rft
    rft-view s.rft > t.tsv
    rft-synth --arch evergreen --cus 1 --bundles 300 > e.rft
    old_case rft-view -s --stats s.rft
    old_case rft-synth -k --kernels vecadd,matmul --writes 300
    old_case rft-synth -n --writes 300
    old_case rft-synth -s --seed 7 --writes 300
    old_case rft-energy -p --params seed001-28nm --show-params
    old_case rft-decode -f --input-format text t.tsv
    old_case rft-decode --format --input-format csv t.tsv
    old_case rft-batch -s --study undervolt -o b /nonexistent
    old_case aging.sh -s --span busy s.rft --format tsv
    old_case argo.sh -y --years 3 s.rft --format tsv
    old_case healing.sh -v --variation 10 e.rft --format tsv
    old_case healing.sh -H --hours 100 e.rft --format tsv
    # the new short spelling of --seed
    cmp <(rft-synth -S 7 --writes 300 | rft-view) <(rft-synth --seed 7 --writes 300 | rft-view)
}

@test "the four study scripts share -r, -j, -k, -p, -f and --quiet, with long names" {
    local s o
    for s in $STUDIES; do
        run -0 "$TOP/examples/$s" --list-options
        for o in -r --repeat -j --jobs -k --keep -p --plots -f --format --quiet -h --help; do
            assert_line -- "$o"
        done
        run -0 "$TOP/examples/$s" --help
        assert_line --index 0 --regexp "^usage: $s .*\[-f table\|tsv\|json\] \[--quiet\] TRACE"
    done
}

@test "study scripts: -r N, -j 1, -k DIR, -p DIR, --format json and --quiet in each" {
    command -v gnuplot > /dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
    cd "$BATS_TEST_TMPDIR"
    rft-synth --cus 1 --simds 2 --writes 600 --seed 2 > s.rft
    rft-synth --arch evergreen --cus 1 --bundles 300 > e.rft
    local s t
    for s in $STUDIES; do
        t=s.rft
        [[ $s != healing.sh ]] || t=e.rft
        run -0 --separate-stderr "$TOP/examples/$s" -r 2 -j 1 -k "keep-$s" -p "figs-$s" --quiet \
            --format=json "$t"
        assert_equal "$stderr" ""
        (( ${#lines[@]} > 3 ))
        # every line one JSON object with its table first
        python3 -c 'import json, sys
for l in sys.stdin: assert list(json.loads(l))[0] == "table", l' <<<"$output"
        ls "keep-$s" | grep -q . || fail "$s -k kept nothing"
        ls "figs-$s"/*.svg > /dev/null || fail "$s -p drew nothing"
        # the same tables in TSV: a header line first, tab-separated
        run -0 --separate-stderr "$TOP/examples/$s" --jobs 2 --format tsv "$t"
        no_notes
        [[ ${lines[0]} == *$'\t'* ]] || fail "$s --format tsv: ${lines[0]}"
    done
}

@test "study scripts: -r says what it cannot mean; --NAME=VALUE; usage errors exit 2" {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --cus 1 --simds 2 --writes 300 --seed 2 > s.rft
    run -2 --separate-stderr "$TOP/examples/undervolt.sh" -r steady s.rft
    assert_equal "${stderr_lines[0]}" "undervolt.sh: -r steady: DC-Patch keeps no duty, it has no steady state (give once or N)"
    run -2 --separate-stderr "$TOP/examples/healing.sh" --repeat once s.rft
    assert_equal "${stderr_lines[0]}" "healing.sh: -r once: rft-heal takes a trace as the kernel run again and again over the horizon (give steady or N)"
    run -2 --separate-stderr "$TOP/examples/argo.sh" --jobs=0 s.rft
    assert_equal "${stderr_lines[0]}" "argo.sh: --jobs: '0' is not a positive whole number"
    run -2 --separate-stderr "$TOP/examples/healing.sh" --quiet=yes s.rft
    assert_equal "${stderr_lines[0]}" "healing.sh: --quiet takes no value"
    run -2 --separate-stderr "$TOP/examples/argo.sh" s.rft --years 3
    assert_equal "${stderr_lines[0]}" "argo.sh: after the trace: '--years' '3': argo.sh passes no options on"
    run -0 "$TOP/examples/argo.sh" --years=3 --bank=2 --repeat=once --format=tsv s.rft
    assert_line --regexp $'^45nm\tdvth_rd%\t'
}

# ---- help texts ---------------------------------------------------------------

# the option lines of --help on standard input, "OPTION<TAB>DESCRIPTION"
descriptions() {
    sed -nE 's/^  (-[a-zA-Z], |    )(--?[a-zA-Z][^ ]*( [^ ]+)?) {2,}(.*)/\2\t\4/p'
}

@test "help texts: no two options share a description, none points above or below, parentheses closed" {
    local p bad=""
    for p in $(commands); do
        run -0 "$p" --help
        local d
        d=$(descriptions <<<"$output")
        (( $(wc -l <<<"$d") >= 2 )) || fail "${p##*/}: $(wc -l <<<"$d") option lines"
        local dup
        dup=$(cut -f2 <<<"$d" | sort | uniq -d)
        [[ -z $dup ]] || bad+=" ${p##*/}: shared description '$dup';"
        # help is read top down: nothing is above an option line but others
        grep -qiE $'\t.*(\\babove\\b|\\(below\\))' <<<"$d" && bad+=" ${p##*/}: $(grep -iE 'above|\(below' <<<"$d");"
        local line
        while IFS= read -r line; do
            local o=${line//[^(]/} c=${line//[^)]/}
            (( ${#o} == ${#c} )) || bad+=" ${p##*/}: unclosed: $line;"
        done <<<"$d"
    done
    assert_equal "$bad" ""
}

@test "help texts: rft-heal --years and --hours exclude each other; its hint names --input-format" {
    run -2 --separate-stderr rft-heal --years 1 --hours 5 /dev/null
    assert_equal "$stderr" "rft-heal: --hours and --years: give one of them (see rft-heal --help)"
    cd "$BATS_TEST_TMPDIR"
    rft-synth --writes 300 > g.rft
    run -1 --separate-stderr rft-heal --scheme pe --source bundles g.rft
    [[ $stderr == *"rft-decode --input-format evg"* ]] || fail "$stderr"
    [[ $stderr != *"--format evg"* ]]
}

@test "rft-decode -v ends a text trace with what was decoded" {
    run -0 --separate-stderr bash -c "rft-decode -v '$FIX/decode/basic.tsv' > /dev/null"
    assert_equal "${#stderr_lines[@]}" 2
    [[ ${stderr_lines[1]} =~ ^rft-decode:\ .*basic.tsv:\ [0-9]+\ lines,\ [0-9]+\ records\ in\  ]] ||
        fail "$stderr"
}
