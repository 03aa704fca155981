#!/usr/bin/env bats
# examples/reproduce.sh (issue 22): the four seeds' studies over a folder of
# traces and one Markdown report, the suite's value of each headline result
# beside the paper's (from examples/paper-values.tsv) with the reason.

load test_helper
load figure_helper

VALUES="$TOP/examples/paper-values.tsv"

# one run for the file: three small traces (a GCN stream labelled DCT, a GCN
# text trace, an Evergreen stream with VLIW bundles for PE healing)
setup_file() {
    export TR="$BATS_FILE_TMPDIR/tr" REP="$BATS_FILE_TMPDIR/rep"
    mkdir -p "$TR"
    rft-synth --writes 1000 --seed 1 -o "$TR/DCT.rft"
    rft-synth --writes 1000 --seed 2 | rft-view > "$TR/b.tsv"
    rft-synth --arch evergreen --bundles 800 -o "$TR/e.rft"
    "$TOP/examples/reproduce.sh" --quiet -j 2 --also-runs once -o "$REP" "$TR" > "$BATS_FILE_TMPDIR/out" 2> "$BATS_FILE_TMPDIR/err"
}

setup() { cd "$BATS_TEST_TMPDIR"; }

# the data rows of the values file (no comments, no header)
data_rows() { awk -F '\t' '!/^#/ && $1 != "id"' "${1:-$VALUES}"; }

@test "it names the report and says nothing else" {
    assert_equal "$(cat "$BATS_FILE_TMPDIR/out")" "$REP/REPORT.md"
    assert_equal "$(cat "$BATS_FILE_TMPDIR/err")" ""
}

@test "the report has a row for every figure and table of the four seeds the issue asks for" {
    # the rows of seed S's section: its figure column
    figs() { awk -v s="## Seed $1" '/^## / { on = ($0 == s) } on && /^\| (Fig|Table|V-)/' "$REP/REPORT.md" |
             awk -F ' [|] ' '{ print $1 }' | sed 's/^| //' | sort -u; }
    for f in "Fig. 2" "Fig. 3" "Fig. 5" "Fig. 6" "Fig. 7" "Fig. 8" "V-A2"; do
        run -0 figs 001; assert_line "$f"
    done
    for f in "Fig. 7" "Fig. 13" "Fig. 16" "Fig. 19" "Fig. 20" "Fig. 21" "Table 5"; do
        run -0 figs 002; assert_line "$f"
    done
    for f in "Fig. 4" "Fig. 7" "Fig. 8" "Fig. 9" "Fig. 16"; do
        run -0 figs 003; assert_line "$f"
    done
    for f in "Table 1" "Table 3" "Fig. 7" "Fig. 8" "Fig. 9" "Fig. 11"; do
        run -0 figs 004; assert_line "$f"
    done
}

@test "every paper value of the report is the data file's, with its figure, quantity and section" {
    # values.tsv starts with the data file's columns, row for row
    assert_equal "$(awk -F '\t' -v OFS='\t' 'NR > 1 { NF = 9; print }' "$REP/values.tsv")" "$(data_rows)"
    # and the report prints each: | figure | quantity [trace] | where | paper unit |
    n=0
    while IFS=$'\t' read -r id seed fig q paper unit where trace key; do
        case $trace in
        mean) ;;
        max) q="$q [largest trace]" ;;
        min) q="$q [smallest trace]" ;;
        min!*) q="$q [smallest trace but ${trace#min!}]" ;;
        *) q="$q [$trace]" ;;
        esac
        grep -qF -- "| $fig | $q | $where | $paper $unit |" "$REP/REPORT.md" || fail "no row for $id"
        n=$((n + 1))
    done < <(data_rows)
    # no other rows
    assert_equal "$(sed '/^## Seed 002: the reductions under other runs/q' "$REP/REPORT.md" | grep -c '^| \(Fig\|Table\|V-\)')" "$n"
}

@test "a row computed from the traces has a number; one that is not says why; every difference has a reason" {
    run -0 awk -F '\t' 'NR > 1 && $11 == ""' "$REP/values.tsv"
    assert_output ""
    # the trace labelled DCT gives its own rows; no trace is labelled SobelFilter
    run -0 awk -F '\t' '$1 == "004-t1-dct" || $1 == "002-t5-dct" || $1 == "004-t3-dct" { print ($10 ~ /^[0-9.]+$/) }' \
        "$REP/values.tsv"
    assert_output $'1\n1\n1'
    run -0 awk -F '\t' '$1 == "004-t1-sf" { print $10 "|" $11 }' "$REP/values.tsv"
    assert_output "|not computed: no trace labelled SobelFilter or running its kernel sobel_filter"
    # PE healing from the Evergreen trace; the mean rows are of every trace
    run -0 awk -F '\t' '$1 == "003-f7-pe" || $1 == "003-f4-pex" { print ($10 ~ /^[0-9.]+$/) }' "$REP/values.tsv"
    assert_output $'1\n1'
    run -0 awk -F '\t' '$1 == "e" && $2 == "pe_red"' "$REP/facts.tsv"
    assert_output --regexp $'^e\tpe_red\t[0-9.]+$'
    run -0 awk -F '\t' '$2 == "pe_none" { print $1 }' "$REP/facts.tsv"
    assert_output $'DCT\nb'
    # the mean of a row is the mean of the traces' values
    want=$(awk -F '\t' '$2 == "compr" { s += $3; n++ } END { printf "%.2f", s / n }' "$REP/facts.tsv")
    run -0 awk -F '\t' '$1 == "001-f2-mean" { print $10 }' "$REP/values.tsv"
    assert_output "$want"
    # seed 002 Fig. 7 counts the writes whose values fit a pattern, divergent or
    # not (its "other" the rest); seed 001 Fig. 2 the writes stored compressed
    want=$(awk -F '\t' '$2 == "pattern" { s += $3; n++ } END { printf "%.2f", s / n }' "$REP/facts.tsv")
    run -0 awk -F '\t' '$1 == "002-f7-mean" { print $10 }' "$REP/values.tsv"
    assert_output "$want"
    run -0 awk -F '\t' '$2 == "pattern" || $2 == "compr" { v[$1, $2] = $3 } END { for (k in v) { split(k, a, SUBSEP)
        if (a[2] == "compr" && v[a[1], "pattern"] < v[k]) print a[1] } }' "$REP/facts.tsv"
    assert_output ""
    # a slowdown row says which estimate it is and gives the other (after its reason)
    run -0 awk -F '\t' '$1 == "002-f20-rcrar" { print $11 }' "$REP/values.tsv"
    assert_output --regexp '^agrees|replayed slowdown .*the upper bound .* is [0-9.]+%$'
}

@test "--also-runs once: seed 002's reductions of the aging study run once, beside the paper's and the steady state's" {
    run -0 sed -n '/^## Seed 002: the reductions under other runs/,/^## /p' "$REP/REPORT.md"
    assert_line '| figure | quantity | paper | steady (above) | once |'
    # a row per reduction of the values file, its paper and steady values those of the main table
    n=0
    while IFS=$'\t' read -r id seed fig q paper unit where trace key suite reason; do
        [[ $key == ag_l[01]red_* || $key == ag_t[01]red_* ]] || continue
        assert_line --partial "| $fig | $q | $paper $unit | $suite | "
        n=$((n + 1))
    done < <(tail -n +2 "$REP/values.tsv")
    [[ $n -ge 10 ]]
    # the once column: the mean row of rft-batch's table of the aging study run once
    want=$(awk -F '\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
                        $1 == "mean" && $2 == "rcrar" { print $c["longest_1_red%"] }' "$REP/batch/aging-once/table.tsv")
    run -0 grep -F "| Fig. 16 | longest '1' duty reduction, RC+RAR |" "$REP/REPORT.md"
    got=$(printf '%s\n' "$output" | tail -n 1 | awk -F ' [|] ' '{ print $5 }' | tr -d ' |')
    awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b <= 0.011 && b - a <= 0.011) }' || fail "once: $got, the table's mean $want"
    assert_equal "$(cat "$REP/batch/aging-once/traces/DCT/runs")" once
}

@test "the report, its values and facts name no absolute path of the machine; parameter files relative, with a checksum" {
    # the folders were given as absolute paths (setup_file)
    # nor the figures' data files and scripts, which keep the notes (their parameter
    # files) and name the table they were drawn from (a temporary file)
    local f
    for f in "$REP"/REPORT.md "$REP"/values.tsv "$REP"/facts.tsv "$REP"/figures/*.data.tsv "$REP"/figures/*.gp; do
        run -1 grep -nF -e "$BATS_FILE_TMPDIR" -e "$TOP" -e "$(cd "$TOP" && pwd -P)" -e "${TMPDIR:-/tmp}/" "$f"
        run -1 grep -nE '(^|[[:space:]:=(`[])/[^[:space:]/]+/' "$f"
    done
    ls "$REP"/figures/*.png.gp > /dev/null
    run -0 grep -E '^- energy: parameters: params/seed002-32nm\.conf \(sha256 [0-9a-f]{16}\)$' "$REP/REPORT.md"
    # the commit of the tree the script ran from, and over which folder
    run -0 grep -E '^Made by `examples/reproduce.sh` \([0-9-]+\) of commit ([0-9a-f]{12}|unknown)' "$REP/REPORT.md"
    # the programs: this tree's (test_helper puts bin/ first; valgrind its wrappers)
    [[ ${VALGRIND:-} == 1 ]] || assert_output --partial ", the programs of this tree's bin/,"
    run -0 grep -Fx 'over: folder `tr` (3 traces).' "$REP/REPORT.md"
}

@test "the report counts its rows by what their reason is" {
    run -0 grep '^Rows: ' "$REP/REPORT.md"
    n=$(data_rows | wc -l)
    a=$(awk -F '\t' 'NR > 1 && $11 ~ /^agrees/' "$REP/values.tsv" | wc -l)
    u=$(awk -F '\t' 'NR > 1 && $11 ~ /^differs: unexplained/' "$REP/values.tsv" | wc -l)
    assert_output --regexp "^Rows: $n; $a agree with the paper \(measured, within 10%\), [0-9]+ by construction, [0-9]+ bounds met, [0-9]+ differ for a reason that holds, $u differ unexplained, [0-9]+ not computed, [0-9]+ with no number in the paper\.\$"
}

@test "the figures the report shows exist as PNG files" {
    need_gnuplot
    run -0 grep -o 'figures/[^)]*\.png' "$REP/REPORT.md"
    [[ ${#lines[@]} -ge 12 ]] || fail "only ${#lines[@]} figures"
    for f in "${lines[@]}"; do
        [[ -s $REP/$f ]] || fail "$f is missing"
        assert_equal "$(head -c 4 "$REP/$f" | od -An -c | tr -d ' ')" '211PNG'
    done
    for f in seed001-fig2-seed002-fig7-compressible seed001-fig3-occupancy seed002-fig13-longest0 \
             seed003-fig4-fig7-pe seed004-table1-table3 seed004-fig7-fig8 seed004-fig11-leakage; do
        [[ -s $REP/figures/$f.png ]] || fail "$f.png is missing"
    done
}

@test "the paper's values come from --values, never computed: a changed value is printed as it is" {
    cp -r "$REP" rep2
    sed 's/^\(004-t1-mean\t[^\t]*\t[^\t]*\t[^\t]*\t\)46\t/\1123.5\t/' "$VALUES" > v.tsv
    ! cmp -s v.tsv "$VALUES"
    run -0 "$TOP/examples/reproduce.sh" --quiet --values v.tsv -o rep2 "$TR"
    run -0 grep -F '| Table 1 | register-file utilization, mean | 3.1 | 123.5 % |' rep2/REPORT.md
    # the rest is the same
    assert_equal "$(grep -v '^004-t1-mean' rep2/values.tsv | cut -f 1,10,11)" \
                 "$(grep -v '^004-t1-mean' "$REP/values.tsv" | cut -f 1,10,11)"
}

@test "usage errors exit 2; a folder without traces and an unreadable values file exit 1" {
    run -2 "$TOP/examples/reproduce.sh"
    assert_output --partial "usage: reproduce.sh"
    run -2 "$TOP/examples/reproduce.sh" --bogus "$TR"
    assert_output --partial "unknown option --bogus"
    run -2 "$TOP/examples/reproduce.sh" -j 0 "$TR"
    run -2 "$TOP/examples/reproduce.sh" --repeat sometimes "$TR"
    run -2 "$TOP/examples/reproduce.sh" --also-runs once,never "$TR"
    assert_output --partial "--also-runs: 'never' is not a positive whole number"
    run -1 "$TOP/examples/reproduce.sh" --values nosuch.tsv "$TR"
    assert_output "reproduce.sh: nosuch.tsv: cannot be read"
    mkdir empty
    echo "not a trace" > empty/README
    run -1 "$TOP/examples/reproduce.sh" --quiet -o r empty
    [[ ! -e r/REPORT.md ]]
    run -0 "$TOP/examples/reproduce.sh" --help
    assert_output --partial "usage: reproduce.sh"
}

@test "figures: legends in the paper's words; seed 003 Fig. 8 of the 10 mV case its row uses, Fig. 9 the replayed slowdown" {
    need_gnuplot
    local F="$REP/figures"
    # grouped bars name their series as the paper does, not by internal keys
    run -0 titles "$F/seed004-fig7-fig8.png"
    assert_output "$(printf '%s\n' 'dVth, aging-oblivious, 45 nm (% of Vth0)' 'dVth improvement of ARGO, 45 nm' \
        'dVth, aging-oblivious, 65 nm (% of Vth0)' 'dVth improvement of ARGO, 65 nm' 'read SNM improvement of ARGO (Fig. 8)')"
    grep -q '^# by construction: the aging-oblivious dVth is the calibration' "$F/seed004-fig7-fig8.png.data.tsv"
    run -0 titles "$F/seed001-fig3-occupancy.png"
    assert_output "$(printf '%s\n' 'reliable, compressed' 'reliable, uncompressed' 'faulty, uncompressed' 'faulty, compressed')"
    # Fig. 9: the replayed slowdown, a series per count of degraded SCs, a y label in words
    run -0 titles "$F/seed003-fig9-overhead.png"
    assert_line --index 0 '1 SC'
    assert_line --index 1 '2 SCs'
    refute_line --regexp '^[0-9]+$'
    grep -qx "set ylabel 'run-time slowdown, replayed (%)'" "$F/seed003-fig9-overhead.png.gp"
    # its bars are the cost table's slowdown_replay% (the mean row of 1 degraded SC)
    local want got
    want=$(awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 == "mean" && $2 == 1 { print $c["slowdown_replay%"] + 0 }' "$REP/batch/healing/table.tsv")
    got=$(awk -F '\t' '/^#/ { next } !h++ { next } $1 == "mean" { print $2 + 0 }' "$F/seed003-fig9-overhead.png.data.tsv")
    assert_equal "$got" "$want"
    # Fig. 8: the degraded SC's naive dVth with 10 mV of variation, as the
    # row sc_red10; the healed bar (the variation, by construction) not drawn
    run -0 titles "$F/seed003-fig8-dvth.png"
    assert_output 'naive kernel (mV)'
    grep -q '^# variation: 10 mV' "$F/seed003-fig8-dvth.png.data.tsv"
    grep -q '^# healed kernel: not drawn, it is the 10 mV initial variation by construction' "$F/seed003-fig8-dvth.png.data.tsv"
    local l
    for l in $(cut -f 1 "$REP/batch/undervolt/traces.tsv"); do
        want=$(awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $2 == "degraded" { print $c["dvth_naive_mV"] + 0; exit }' "$REP/traces/$l/sc-units.tsv")
        got=$(awk -F '\t' -v l="$l" '$1 == l { print $2 + 0 }' "$F/seed003-fig8-dvth.png.data.tsv")
        assert_equal "$got" "$want"
    done
}
