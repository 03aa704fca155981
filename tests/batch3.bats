#!/usr/bin/env bats
# rft-batch picks its traces (issue 26): a file of a folder is a trace by its
# content (an rft stream, or a text or CSV trace whose beginning rft-decode
# decodes), a raw simulator log only when --input-format names its format;
# the traces found and the files skipped are listed before the run; a file
# named on the command line is always taken, or refused loudly.

load test_helper

# A folder as a user has one: two traces, a Multi2Sim log excerpt of one
# wavefront (a trace of its own kernel, were it taken), a README, an empty file.
setup_file() {
    local d="$BATS_FILE_TMPDIR/traces"
    mkdir -p "$d"
    # an rft stream (of over 100 KiB) and a text trace (of MiB): the list
    # gives their sizes so, in columns of that width; 2,656 writes each (the
    # least rft-synth makes of its six kernels), not make_suite's 3,558:
    # the files picked are tested, and five batches run the aging study
    # over them
    rft-synth --writes 300 --seed 1 -o "$d/a.rft"
    rft-synth --writes 300 --seed 2 | rft-view > "$d/b.tsv"
    cp "$FIX/formats/m2s-matmul-head.txt" "$d/mm.txt"
    printf '# The traces\nThe traces of the study, one file a kernel.\n' > "$d/README"
    : > "$d/empty.tsv"
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    TR="$BATS_FILE_TMPDIR/traces"
}

# the skipped lines of the folder above, without --input-format
skipped() {
    printf '%s\n' \
        "rft-batch: skipped $TR/README: not a trace (read as text: line 2: unknown record type 'The')" \
        "rft-batch: skipped $TR/empty.tsv: an empty file" \
        "rft-batch: skipped $TR/mm.txt: a raw Multi2Sim (Southern Islands ISA) log (m2s): a trace only when its format is named (--input-format m2s)"
}

# every mean row of rft-collect's TSV table ($1) is the mean of $2 traces' rows
means_of() {
    local n
    n=$(awk -F '\t' 'NR > 1 && $1 != "mean" { t[$1] = 1 } END { print length(t) }' "$1")
    [ "$n" -eq "$2" ]
    run -0 awk -F '\t' '
        NR == 1 { next }
        $1 != "mean" { for (i = 3; i <= NF; i++) { s[$2, i] += $i; n[$2, i]++ }; next }
        { for (i = 3; i <= NF; i++) if ($i != "" && sprintf("%.2f", s[$2, i] / n[$2, i]) != $i)
              print "mean of " $2 ", column " i ": " $i ", not " sprintf("%.2f", s[$2, i] / n[$2, i]) }' "$1"
    assert_output ""
}

@test "a folder with two traces, a Multi2Sim log, a README and an empty file: the two are taken, the others named with why, the means are of two traces" {
    run -0 --separate-stderr rft-batch -j 2 -o out "$TR"
    run -0 cut -f1 out/traces.tsv
    assert_output "$(printf 'a\nb')"
    # the list before the run: the traces found, then each file skipped and why
    [ "${stderr_lines[0]}" = "rft-batch: 2 traces (the size of each file, not its writes: counting them takes decoding the whole trace, which the run does):" ]
    [ "${stderr_lines[1]}" = "  label  format       size  file" ]
    [[ ${stderr_lines[2]} =~ ^"  a      rft     "\ *[0-9.]+" KiB  $TR/a.rft"$ ]]
    [[ ${stderr_lines[3]} =~ ^"  b      text    "\ *[0-9.]+" MiB  $TR/b.tsv"$ ]]
    assert_equal "$(printf '%s\n' "${stderr_lines[@]:4}")" "$(skipped)"
    assert_equal "$stderr" "$(cat out/inputs.txt)"
    # the table: six schemes of two traces, and their means
    rft-collect --format tsv --columns longest_0%,longest_1%,saving% out > notes.tsv
    grep -v '^#' notes.tsv > table.tsv      # without its notes (tests/notes.bats)
    [ "$(wc -l < table.tsv)" -eq $((1 + 2 * 6 + 6)) ]
    means_of table.tsv 2
    [ ! -e out/traces/mm ]
}

@test "--input-format m2s: the Multi2Sim log is taken and decoded as m2s; the README and the empty file still skipped" {
    run -0 --separate-stderr rft-batch -j 2 --input-format m2s -o out "$TR"
    run -0 cut -f1 out/traces.tsv
    assert_output "$(printf 'a\nb\nmm')"
    [[ ${stderr_lines[0]} == "rft-batch: 3 traces "* ]]
    [[ ${stderr_lines[4]} =~ ^"  mm     m2s     "\ *[0-9.]+" KiB  $TR/mm.txt"$ ]]
    assert_equal "$(printf '%s\n' "${stderr_lines[@]:5}")" "$(skipped | head -n 2)"
    grep -qx 'FORMAT_mm = m2s' out/traces.mk
    # its results: those of the log alone, decoded as m2s
    rft-decode --input-format m2s -o mm.rft "$TR"/mm.txt
    rft-batch --quiet -o ref mm.rft
    cmp ref/traces/mm/vth.tsv out/traces/mm/vth.tsv
    cmp ref/traces/mm/energy.tsv out/traces/mm/energy.tsv
    rft-collect --format tsv --columns longest_0%,longest_1%,saving% out > notes.tsv
    grep -v '^#' notes.tsv > table.tsv      # without its notes (tests/notes.bats)
    means_of table.tsv 3
    # a rerun resumes the three, its format kept
    run -0 --separate-stderr rft-batch -o out
    assert_equal "$stderr" ""
    grep -qx 'FORMAT_mm = m2s' out/traces.mk
    run -0 rft-batch --status out
    assert_line '3 traces: 3 done, 0 running, 0 failed, 0 waiting'
}

@test "a file named on the command line is always taken (a simulator log too), or refused loudly before the run" {
    run -0 --separate-stderr rft-batch -o out "$TR"/mm.txt "$TR"/a.rft
    run -0 cut -f1 out/traces.tsv
    assert_output "$(printf 'mm\na')"
    [ -s out/traces/mm/vth.tsv ]
    run -1 --separate-stderr rft-batch -o out2 "$TR"/README "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: $TR/README: not a trace (read as text: line 2: unknown record type 'The')"
    run -1 --separate-stderr rft-batch -o out2 "$TR"/empty.tsv
    assert_equal "$stderr" "rft-batch: $TR/empty.tsv: an empty file"
    printf '%s\n' "$TR/README" > list
    run -1 --separate-stderr rft-batch -m list -o out2
    assert_equal "$stderr" "rft-batch: $TR/README: not a trace (read as text: line 2: unknown record type 'The')"
    [ ! -e out2 ]
    run -2 --separate-stderr rft-batch --input-format text -o out2 "$TR"
    assert_equal "$stderr" "rft-batch: --input-format: 'text' is not one of m2s, evg, gem5, nvbit (rft streams, text and CSV traces are taken without it) (see rft-batch --help)"
    # a folder of no trace: each file and why, then the error
    mkdir d
    cp "$TR"/README "$TR"/mm.txt d/
    run -1 --separate-stderr rft-batch -o out2 d
    assert_equal "$stderr" "$(printf '%s\n' \
        "rft-batch: skipped d/README: not a trace (read as text: line 2: unknown record type 'The')" \
        "rft-batch: skipped d/mm.txt: a raw Multi2Sim (Southern Islands ISA) log (m2s): a trace only when its format is named (--input-format m2s)" \
        "rft-batch: d: no traces (no file in it decodes as a trace)")"
}

@test "--quiet: no list on standard error, inputs.txt still written; Slurm gets the two traces" {
    run -0 --separate-stderr rft-batch --quiet -o out "$TR"
    assert_equal "$stderr" ""
    run -0 grep -c '^rft-batch: skipped ' out/inputs.txt
    assert_output 3
    mkdir fake
    printf '#!/bin/sh\necho 42\n' > fake/sbatch
    chmod +x fake/sbatch
    run -0 env PATH="$PWD/fake:$PATH" rft-batch --quiet --slurm -o sl "$TR"
    run -0 cut -f1 sl/slurm/tasks
    assert_output "$(printf 'a\nb')"
}
