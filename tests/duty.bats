#!/usr/bin/env bats
# rft-duty: time at '0', at '1' and switched off for every cell; hand-checked
# cases, never-allocated, ARGO-freed and RC-off entries, the three spans,
# the summary, bad input and output failures.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    D="$FIX/duty"
    small() { rft-decode --lanes 1 --block-lanes 1 --entries "$1" "$2"; }
}

# the cells of a duty map as TSV (map label "m")
cells() { rft-vth --by cells --format tsv "m=$1"; }

@test "hand-checked: one wavefront writing known values at known cycles" {
    small 4 "$D/hand.tsv" > t.rft
    rft-duty -o t.duty t.rft
    run -0 cells t.duty
    # entry 0: bit 0 '1' from 100, bit 1 '1' from 150; the slice runs 100..200
    # entry 1: zeros 100..160, then compressed (on=0): off 160..200
    # entries 2, 3: never allocated, off all the time
    assert_output "$(printf '%s\n' \
        'map	slice	entry	bit_from	bit_to	t0	t1	toff	cycles	span	first	last	use' \
        'm	0:0	0	0	0	0	100	0	100	slice	100	200	used' \
        'm	0:0	0	1	1	50	50	0	100	slice	100	200	used' \
        'm	0:0	0	2	31	100	0	0	100	slice	100	200	used' \
        'm	0:0	1	0	31	60	0	40	100	slice	100	200	used' \
        'm	0:0	2	0	31	0	0	100	100	slice	100	200	unused' \
        'm	0:0	3	0	31	0	0	100	100	slice	100	200	unused')"
}

@test "t0 + t1 + toff = the window for every cell of a gated synthetic trace" {
    rft-synth --cus 2 --simds 2 --writes 3000 --seed 7 > s.rft
    pipe 'rft-alloc --scheme rar s.rft | rft-gate --scheme wc | rft-duty --span slice -o s.duty'
    cells s.duty > c.tsv
    [ "$(wc -l < c.tsv)" -gt 100 ]
    # slice span: cycles = last - first; no time lost, none counted twice
    run -0 awk -F '\t' 'NR > 1 && ($6 + $7 + $8 != $9 || $9 != $12 - $11 || $6 < 0) { bad++ }
        END { print bad + 0 }' c.tsv
    assert_output 0
    # and bit by bit: every cell of every entry is listed once
    run -0 awk -F '\t' 'NR > 1 { n[$2 " " $3] += $5 - $4 + 1 }
        END { for (k in n) { e++; if (n[k] != 2048) bad++ } print e % 256, bad + 0 }' c.tsv
    assert_output '0 0'
}

@test "entries never allocated are off for the whole window (--unused on: on, zeros)" {
    small 4 "$D/hand.tsv" > t.rft
    rft-duty --unused on t.rft > on.duty
    run -0 cells on.duty
    assert_line 'm	0:0	2	0	31	100	0	0	100	slice	100	200	unused'
    run -0 rft-view -H on.duty
    assert_line --regexp '^duty.unused +on$'
}

@test "entries freed by an ARGO slice are off while free, and before their first window" {
    small 4 "$D/argo.tsv" | rft-alloc --scheme argo > a.rft
    rft-duty -o a.duty a.rft
    run -0 cells a.duty
    # wavefront 1 holds entries 0-1 100..200, wavefront 2 entries 2-3 300..400
    assert_line 'm	0:0	0	0	0	0	100	200	300	slice	100	400	used'
    assert_line 'm	0:0	1	0	31	100	0	200	300	slice	100	400	used'
    assert_line 'm	0:0	2	0	31	100	0	200	300	slice	100	400	used'
    assert_line 'm	0:0	3	0	1	0	100	200	300	slice	100	400	used'
    # first-fit gates nothing: freed entries keep their value
    small 4 "$D/argo.tsv" | rft-alloc --scheme first-fit | rft-duty > f.duty
    run -0 cells f.duty
    assert_line 'm	0:0	0	0	0	0	300	0	300	slice	100	400	used'
    assert_line 'm	0:0	2	0	31	0	0	300	300	slice	100	400	unused'
}

@test "RC: a compressed register is off until a write wakes it" {
    {
        printf 'B\t0\t0\t0\t1\t2\tk\t0\n'
        printf 'W\t0\t0\t0\t1\t0\tffffffffffffffff\t%s\n' "$(lanes_linear 7 1000003)"
        printf 'W\t10\t0\t0\t1\t1\tffffffffffffffff\t%s\n' "$(lanes_linear 5 0)"
        printf 'W\t60\t0\t0\t1\t1\tffffffffffffffff\t%s\n' "$(lanes_linear 0 0x40000000)"
        printf 'E\t100\t0\t0\t1\n'
    } > rc.tsv
    pipe 'rft-decode rc.tsv | rft-alloc | rft-gate --scheme rc | rft-duty -o rc.duty'
    cells rc.duty > c.tsv
    # entry 1: zeros 0..10, off 10..60 (constant 5), then lane i holds i << 30:
    # lane 0 and bits 0-29 of lane 1 stay '0', bit 30 of lane 1 is '1' 60..100
    run -0 awk -F '\t' '$3 == 1 && $4 <= 62' c.tsv
    assert_output "$(printf '%s\n' \
        'm	0:0	1	0	61	50	0	50	100	slice	0	100	used' \
        'm	0:0	1	62	62	10	40	50	100	slice	0	100	used')"
    # the gating counters go through
    run -0 rft-view rc.duty
    assert_line --partial '# counters	stage=rft-gate	scope=total	writes=3'
}

@test "--span stream, slice, busy and --window give the documented windows" {
    small 2 "$D/span.tsv" > s.rft
    entry0() { rft-duty "$@" s.rft | rft-vth --by cells --format tsv | awk -F '\t' '$3 == 0 && $4 == 0' | cut -f 2,6-12; }
    run -0 entry0 --span stream
    assert_output "$(printf '0:0\t0\t500\t0\t500\tstream\t100\t600\n1:0\t450\t50\t0\t500\tstream\t100\t600')"
    run -0 entry0
    assert_output "$(printf '0:0\t0\t300\t0\t300\tslice\t100\t400\n1:0\t50\t50\t0\t100\tslice\t500\t600')"
    run -0 entry0 --span busy
    assert_output "$(printf '0:0\t0\t200\t0\t200\tbusy\t100\t400\n1:0\t50\t50\t0\t100\tbusy\t500\t600')"
    run -0 entry0 --span stream --window 0:1000
    assert_output "$(printf '0:0\t100\t900\t0\t1000\tstream\t0\t1000\n1:0\t550\t450\t0\t1000\tstream\t0\t1000')"
    run -0 entry0 --span stream --window 150:160
    assert_output "$(printf '0:0\t0\t10\t0\t10\tstream\t150\t160\n1:0\t10\t0\t0\t10\tstream\t150\t160')"
}

@test "--summary prints the window with every row; -o and --summary together" {
    small 2 "$D/span.tsv" > s.rft
    run -0 rft-duty --summary --span busy s.rft
    assert_line --index 0 --regexp '^slice +span +first +last +cycles +entries +used +avg_0% +avg_1% +avg_off% +longest_0% +longest_0_cell +longest_1% +longest_1_cell$'
    assert_line --index 1 --regexp '^0:0 +busy +100 +400 +200 +2 +1 .* 100.00 +0:0 r0 b0$'
    assert_line --index 3 --regexp '^all +busy +100 +600 +200 +4 +2 '
    run -0 rft-duty --summary=sum.tsv --format tsv -o m.duty s.rft
    assert_output ''
    run -0 pipe "grep -v '^# ' sum.tsv | cut -f 1-5"
    assert_line --index 2 "$(printf '1:0\tslice\t500\t600\t100')"
    run -0 rft-view --stats m.duty
    assert_line --regexp '^other_records +4$'
}

@test "a stream without physical entries is refused" {
    rft-decode --lanes 1 --block-lanes 1 --entries 4 "$D/argo.tsv" > n.rft
    run -1 --separate-stderr rft-duty -o out.duty n.rft
    assert_equal "$stderr" "rft-duty: n.rft: record 3: no physical entries: run rft-alloc first"
    [ ! -e out.duty ]
}

@test "a duty map as input, and bad options" {
    small 4 "$D/hand.tsv" | rft-duty > t.duty
    run -1 --separate-stderr rft-duty t.duty
    assert_equal "$stderr" "rft-duty: t.duty: record 1: the input is a duty map already (rft-merge(1) adds maps)"
    run -2 rft-duty --span often t.duty
    assert_line --index 0 "rft-duty: --span: 'often' is not one of stream, slice, busy (see rft-duty --help)"
    run -2 rft-duty --window 1:2 t.duty
    assert_line --index 0 "rft-duty: --window applies to --span stream only (see rft-duty --help)"
    run -2 rft-duty --span stream --window 9:2 t.duty
    assert_line --index 0 "rft-duty: --window: 9:2 ends before it starts (see rft-duty --help)"
    run -2 rft-duty --unused maybe t.duty
    run -2 rft-duty --format json t.duty
    run -2 rft-duty --summary a b
}

@test "a truncated input leaves no complete output; a full disk is an error" {
    small 4 "$D/hand.tsv" > t.rft
    head -c 60 t.rft > cut.rft
    run -1 rft-duty -o o.duty cut.rft
    [ ! -e o.duty ]
    run -1 --separate-stderr bash -c 'rft-duty t.rft > /dev/full'
    assert_equal "$stderr" "rft-duty: standard output: No space left on device"
}

@test "the map does not depend on the locale" {
    small 4 "$D/hand.tsv" > t.rft
    rft-duty t.rft | rft-vth --by cells > c.txt
    LC_ALL=de_DE.UTF-8 rft-duty t.rft | LC_ALL=de_DE.UTF-8 rft-vth --by cells > d.txt
    cmp c.txt d.txt
}

@test "a bad record ends rft-duty at once, while its input stays open" {
    # the reading thread may be blocked in read(2) on a writer that goes on
    mkfifo f
    # (the writer's sleep is the background job itself, so that the kill
    # ends it, and it does not hold Bats' output open: else the file's end
    # waits the 30 s for it)
    ( cat "$FIX/corrupt/huge-record-length.rft"; exec sleep 30 ) > f 3>&- &
    local writer=$!
    run timeout 10 rft-duty -o out.rft f
    kill "$writer" 2>/dev/null || true
    echo "status $status: $output"
    [ "$status" -eq 1 ]
    assert_output --partial "rft-duty: f: record 2:"
    [ ! -e out.rft ]
}

@test "the map is the same whether the input is a file or a pipe" {
    rft-synth --cus 2 --simds 2 --writes 20000 --seed 3 | rft-alloc > s.rft
    rft-duty -o a.duty s.rft
    cat s.rft | rft-duty -o b.duty
    cmp a.duty b.duty
}
