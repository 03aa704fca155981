#!/usr/bin/env bats
# Every program that reads an rft stream rejects every file of
# fixtures/corrupt (see its README; regenerate with its make.sh): exit status
# exactly 1 (a crash, 134 or 139, never passes), and exactly one line on
# stderr, "rft-<prog>: <file>: ...".  Programs not built yet are skipped, so
# this file keeps working as programs are added.

load test_helper

C="$FIX/corrupt"

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# Options a program needs besides its input to read a stream (none so far);
# a program that needs some adds a line here.
args_for() {
    case $1 in
    rft-faultmap | rft-dcpatch) echo --scenario common ;;
    rft-heal) echo --scheme sc ;;    # PE healing would refuse a trace without bundles
    *) ;;
    esac
}

# reject_all PROG: run PROG on every corrupt file; collect every failure so
# that one run shows them all
reject_all() {
    local p=$1 f bad=0 n=0 args
    command -v "$p" >/dev/null || skip "$p not built"
    [[ $(command -v "$p") == "$RFT_BIN/$p" ]] || skip "$p is not from this tree"
    args=$(args_for "$p")      # once, not a subshell a file
    for f in "$C"/*.rft; do
        n=$((n + 1))
        run --separate-stderr bash -c '"$@" > /dev/null' _ "$p" $args "$f"
        if [[ $status -ne 1 ]]; then
            echo "$p $(basename "$f"): status $status (want 1): $stderr"
            bad=1
        elif [[ ${#stderr_lines[@]} -ne 1 ]]; then
            echo "$p $(basename "$f"): ${#stderr_lines[@]} lines on stderr (want 1): $stderr"
            bad=1
        elif [[ $stderr != "$p: $f: "* ]]; then
            echo "$p $(basename "$f"): message does not start '$p: $f: ': $stderr"
            bad=1
        fi
    done
    [[ $n -ge 20 ]] || { echo "only $n corrupt files found in $C"; return 1; }
    return $bad
}

@test "the corrupt folder: every file is described, make.sh makes them all" {
    local f names
    for f in "$C"/*.rft; do
        grep -q "^$(basename "$f") " "$C/README" || { echo "$(basename "$f") not in README"; return 1; }
    done
    # make.sh, run on a copy, produces exactly the files committed here
    mkdir m
    cp "$C/make.sh" m/
    sh m/make.sh
    names=$(cd m && ls *.rft)
    assert_equal "$names" "$(cd "$C" && ls *.rft)"
    # the files that stay intact through zstd hold the same content
    for f in m/*.rft; do
        if zstd -q -t "$f" 2>/dev/null; then
            cmp <(zstd -q -dc "$f") <(zstd -q -dc "$C/$(basename "$f")")
        fi
    done
}

@test "rft-view rejects every corrupt stream" { reject_all rft-view; }
@test "rft-view --stats rejects every corrupt stream" {
    args_for() { echo --stats; }
    reject_all rft-view
}
@test "rft-view --format json rejects every corrupt stream" {
    args_for() { echo --format json; }
    reject_all rft-view
}
@test "rft-classify rejects every corrupt stream" { reject_all rft-classify; }
@test "rft-alloc rejects every corrupt stream" { reject_all rft-alloc; }
@test "rft-gate rejects every corrupt stream" { reject_all rft-gate; }
@test "rft-duty rejects every corrupt stream" { reject_all rft-duty; }
@test "rft-dcpatch rejects every corrupt stream" { reject_all rft-dcpatch; }
@test "rft-merge rejects every corrupt stream" { reject_all rft-merge; }
@test "rft-vth rejects every corrupt stream" { reject_all rft-vth; }
@test "rft-energy rejects every corrupt stream" { reject_all rft-energy; }
@test "rft-faultmap rejects every corrupt stream" { reject_all rft-faultmap; }
@test "rft-repeat rejects every corrupt stream" { reject_all rft-repeat; }
@test "rft-heal rejects every corrupt stream" { reject_all rft-heal; }

@test "the messages say what is wrong" {
    local -A want=(
        [absurd-block-lanes]="header: lanes per block must divide lanes per register"
        [absurd-lanes]="header: lanes per register out of range 1..1024"
        [bad-bom]="bad byte-order mark"
        [bad-magic]="not an rft stream (bad magic)"
        [bad-zstd-frame]="corrupt zstd data: *"
        [bundle-trans-without-t]="record 3: bundle record: a transcendental T instruction without slot T"
        [bundle-unknown-slot]="record 3: bundle record with unknown slot bits 0x21"
        [data-after-end]="record 6: data after the end record"
        [empty-content]="empty stream (no header)"
        [empty]="empty input"
        [end-count-mismatch]="record 6: end record counts 3 records, stream has 5"
        [future-major]="unsupported format version 2.0 (this reader knows 1.x)"
        [huge-header-length]="header length 4294967280 out of range"
        [huge-record-length]="record 2: write record of 4294967280 bytes (at most 304)"
        [huge-unknown-record]="record 2: unknown record of 2147483647 bytes (at most 16777216)"
        [kernel-name-length]="record 1: kernel name length does not match the record length"
        [long-end-wf-record]="record 3: end-wf record of 17 bytes (at most 16)"
        [no-end-record]="record 6: stream ends without an end record (truncated)"
        [plain-text]="text, not an rft stream: a trace is decoded first (rft-decode FILE | ...)"
        [short-begin-record]="record 2: begin record of 16 bytes (expected 27)"
        [short-bundle-record]="record 3: bundle record of 25 bytes (expected 26)"
        [truncated-frame-header]="record 6: truncated record header"
        [truncated-header]="truncated header"
        [truncated-record]="record 6: stream ends inside a record (truncated)"
        [uncompressed]="an rft stream's content without its zstd frame (zstd -q FILE makes the stream)"
    )
    local k bad=0
    for k in "${!want[@]}"; do
        run -1 --separate-stderr rft-view "$C/$k.rft"
        # a trailing * stands for the zstd library's own words
        if [[ $stderr != "rft-view: $C/$k.rft: ${want[$k]%\*}"${want[$k]//[^*]/} ]]; then
            echo "$k: got '$stderr', want '${want[$k]}'"
            bad=1
        fi
    done
    return $bad
}

@test "a zstd frame cut in half is reported as truncated" {
    run -1 --separate-stderr rft-view "$C/truncated-zstd-frame.rft"
    assert_output ""
    assert_equal "$stderr" "rft-view: $C/truncated-zstd-frame.rft: truncated zstd frame"
}

@test "bytes after the last zstd frame are reported as such" {
    run -1 --separate-stderr rft-view "$C/trailing-garbage.rft"
    [[ $stderr == "rft-view: $C/trailing-garbage.rft: record 6: corrupt zstd data: "* ]]
}

@test "the partial output of a failed rft-decode is rejected by every reader" {
    printf 'K\t1\tk\nB\t2\t0\t0\t0\t4\nK\t1\tj\n' > bad.tsv
    run -1 bash -c 'rft-decode bad.tsv > part.rft'
    local p bad=0
    for p in rft-view rft-classify rft-alloc rft-gate rft-duty rft-dcpatch rft-merge rft-vth \
             rft-energy rft-faultmap rft-repeat rft-heal; do
        [[ -x "$TOP/bin/$p" ]] || continue
        run --separate-stderr bash -c '"$@" > /dev/null' _ "$p" $(args_for "$p") part.rft
        if [[ $status -ne 1 || $stderr != "$p: part.rft: record 3: "*"(truncated)" ]]; then
            echo "$p: status $status: $stderr"
            bad=1
        fi
    done
    return $bad
}

@test "a corrupt stream in the middle of a pipeline fails the pipeline" {
    run -1 --separate-stderr pipe "cat '$C/no-end-record.rft' | rft-view | cat > out.tsv"
    assert_equal "$stderr" "rft-view: -: record 6: stream ends without an end record (truncated)"
    run -0 wc -l < out.tsv
    assert_output 5
}
