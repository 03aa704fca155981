#!/usr/bin/env bats
# rft-synth: reproducibility, size, the stream's invariants (cycle order,
# slice capacity, work-groups on one slice, exec-mask semantics), the models
# and bad options.

load test_helper

setup() {
    T=$BATS_TEST_TMPDIR
}

# rft-view --stats value of one statistic
stat() { rft-view --stats "$1" | awk -v k="$2" '$1 == k { print $2 }'; }

# Check the text of a whole stream; prints "ok" or the first broken rule.
# Rules: cycles never decrease; wavefront ids are unique; a slice holds at
# most 16 wavefronts whose windows add up to at most 256 entries; all
# wavefronts of a work-group of a kernel are on one slice; writes and reads
# name a live wavefront and a register of its window; the first three writes
# of a wavefront are v0, v1, v2 at its begin cycle, with a full mask; lanes
# outside the exec mask keep the value they had after the previous write of
# that register by that wavefront; bundles name a live wavefront; every
# wavefront ends.
check_stream() {
    rft-view "$1" | awk -F'\t' '
    function bad(msg) { print "line " NR ": " msg; failed = 1; exit 1 }
    function hexval(c) { return index("0123456789abcdef", c) - 1 }
    BEGIN { last = 0 }
    {
        if ($2 + 0 < last) bad("cycle goes back")
        last = $2 + 0
    }
    $1 == "K" { kern = $3 }
    $1 == "B" {
        if ($5 in seen) bad("wavefront id " $5 " used twice")
        seen[$5] = 1; live[$5] = $6; start[$5] = $2; sl = $3 ":" $4; slice[$5] = sl
        n[sl]++; use[sl] += $6
        if (n[sl] > 16) bad("more than 16 wavefronts on slice " sl)
        if (use[sl] > 256) bad("windows exceed 256 entries on slice " sl)
        g = $7 "/" $8
        if (g in wgslice && wgslice[g] != sl) bad("work-group " g " on two slices")
        wgslice[g] = sl
        if ($7 != kern) bad("begin of kernel " $7 " during kernel " kern)
    }
    $1 == "W" || $1 == "R" {
        if (!($5 in live)) bad("record of a wavefront not running")
        if ($6 + 0 >= live[$5] + 0) bad("register v" $6 " outside the window")
    }
    $1 == "W" {
        if (nw[$5]++ < 3) {
            if ($6 != nw[$5] - 1 || $2 != start[$5] || $7 !~ /^0*[137]?f*$/)
                bad("wavefront does not start with v0, v1, v2 written at its begin")
        }
        key = $5 "/" $6; m = $7; nl = NF - 7
        for (i = 0; i < nl; i++) {
            d = hexval(substr(m, length(m) - int(i / 4), 1))
            active = int(d / 2 ^ (i % 4)) % 2
            if (!active && (key, i) in val && val[key, i] != $(8 + i))
                bad("inactive lane " i " of v" $6 " changed")
            val[key, i] = $(8 + i)
        }
    }
    $1 == "A" && !($5 in live) { bad("bundle of a wavefront not running") }
    $1 == "E" {
        if (!($5 in live)) bad("end of a wavefront not running")
        sl = slice[$5]; n[sl]--; use[sl] -= live[$5]; delete live[$5]
    }
    END {
        if (failed) exit 1
        if (NR == 0) { print "empty"; exit 1 }
        for (w in live) { print "wavefront " w " never ends"; exit 1 }
        print "ok"
    }'
}

@test "the same seed gives the same bytes, another seed other bytes" {
    rft-synth --seed 7 --writes 20000 -o "$T/a.rft"
    rft-synth --seed 7 --writes 20000 > "$T/b.rft"
    rft-synth --seed 8 --writes 20000 -o "$T/c.rft"
    cmp "$T/a.rft" "$T/b.rft"
    run cmp -s "$T/a.rft" "$T/c.rft"
    assert_failure 1
    # the seed changes values and latencies, not the kernels or their size
    run pipe "rft-view --kind K '$T/a.rft' | cut -f3; rft-view --kind B '$T/a.rft' | wc -l"
    assert_success
    expected=$output
    run pipe "rft-view --kind K '$T/c.rft' | cut -f3; rft-view --kind B '$T/c.rft' | wc -l"
    assert_output "$expected"
}

@test "--writes is roughly honoured" {
    for n in 20000 200000; do
        rft-synth --writes $n -o "$T/w.rft"
        w=$(stat "$T/w.rft" writes)
        echo "asked $n, got $w"
        ((w > n * 95 / 100 && w < n * 105 / 100))
    done
    rft-synth --kernels transpose --writes 1000 -o "$T/w.rft"
    w=$(stat "$T/w.rft" writes)
    ((w > 900 && w < 1100))
}

@test "the default workload keeps every stream invariant" {
    rft-synth --writes 30000 -o "$T/s.rft"
    run check_stream "$T/s.rft"
    assert_output ok
}

@test "every model keeps the invariants, on one CU and on three, 32 lanes too" {
    for k in vecadd matmul reduction transpose blackscholes histogram; do
        rft-synth --kernels $k --writes 5000 --cus 1 --simds 1 -o "$T/$k.rft"
        run check_stream "$T/$k.rft"
        assert_output ok
    done
    rft-synth --kernels matmul,transpose,matmul --cus 3 --simds 2 --writes 20000 -o "$T/m.rft"
    run check_stream "$T/m.rft"
    assert_output ok
    rft-synth --lanes 32 --writes 10000 -o "$T/l.rft"
    run check_stream "$T/l.rft"
    assert_output ok
    run pipe "rft-view --kind W '$T/l.rft' | awk -F'\t' '{ print NF - 7, length(\$7) }' | sort -u"
    assert_output "32 8"
}

@test "kernels, windows and slice filling follow the models" {
    rft-synth --writes 40000 --cus 1 --simds 1 -o "$T/s.rft"
    run pipe "rft-view --kind K '$T/s.rft' | cut -f1,3"
    assert_output - <<'EOF'
K	vecadd
K	matmul
K	reduction
K	transpose
K	blackscholes
K	histogram
EOF
    # VGPRs per kernel, as in --list
    run pipe "rft-view --kind B '$T/s.rft' | cut -f6,7 | sort -u | sort -k2"
    assert_output - <<'EOF'
62	blackscholes
26	histogram
69	matmul
13	reduction
4	transpose
8	vecadd
EOF
    # most wavefronts at once on the slice: 4 Black-Scholes fill it (248
    # entries), 16 transposes use 64, 3 matmuls 207
    run pipe "rft-view --kind B,E '$T/s.rft' | awk -F'\t' '
        \$1 == \"B\" { k[\$5] = \$7; s[\$5] = \$3 \":\" \$4; n[\$3 \":\" \$4, \$7]++;
                     if (n[\$3 \":\" \$4, \$7] > max[\$7]) max[\$7] = n[\$3 \":\" \$4, \$7] }
        \$1 == \"E\" { n[s[\$5], k[\$5]]-- }
        END { print max[\"blackscholes\"], max[\"transpose\"], max[\"matmul\"], max[\"histogram\"] }'"
    # histogram: 2 work-groups of 4 (208 entries), 9 windows when they overlap
    assert_output --regexp '^4 16 3 [89]$'
}

@test "slices see windows reassigned: more wavefronts than fit at once" {
    rft-synth --kernels reduction --writes 20000 --cus 1 --simds 1 -o "$T/r.rft"
    b=$(rft-view --kind B "$T/r.rft" | wc -l)
    ((b > 16))
    # a new wavefront begins after an earlier one of the same slice ended
    run pipe "rft-view --kind B,E '$T/r.rft' | cut -f1 | tr -d '\n' | grep -c 'EB'"
    assert_output 1
}

@test "v0..v2 hold the local ids at the begin" {
    rft-synth --kernels reduction,transpose --writes 3000 -o "$T/s.rft"
    # 1-D: the second wavefront of a work-group has local ids 64..127
    run pipe "rft-view --kind W --wf 1 '$T/s.rft' | head -3 | cut -f6,8,9,71"
    assert_output - <<'EOF'
0	00000040	00000041	0000007f
1	00000000	00000000	00000000
2	00000000	00000000	00000000
EOF
    # 2-D, 8 wide: v0 = x, v1 = y; the second wavefront has rows 8..15
    w=$(rft-view --kind B "$T/s.rft" | awk -F'\t' '$7 == "transpose" { print $5; exit }')
    w=$((w + 1))
    run pipe "rft-view --kind W --wf $w '$T/s.rft' | head -2 | cut -f6,8,15,16,71"
    assert_output - <<'EOF'
0	00000000	00000007	00000000	00000007
1	00000008	00000008	00000009	0000000f
EOF
}

@test "divergent writes in reduction and histogram only" {
    rft-synth --writes 30000 -o "$T/s.rft"
    run pipe "rft-view --kind B,W '$T/s.rft' | awk -F'\t' '
        \$1 == \"B\" { k[\$5] = \$7 }
        \$1 == \"W\" && \$7 != \"ffffffffffffffff\" { d[k[\$5]]++ }
        END { for (x in d) print x }' | sort"
    assert_output - <<'EOF'
histogram
reduction
EOF
}

@test "reads name the sources of an instruction once each" {
    rft-synth --kernels matmul --writes 3000 -o "$T/m.rft"
    # the multiply-adds read three registers at the cycle of their write
    run pipe "rft-view --kind R,W '$T/m.rft' | awk -F'\t' '
        { key = \$2 \"/\" \$5 \"/\" \$1 \"/\" \$6; if (key in seen && \$1 == \"R\") dup++; seen[key] = 1 }
        END { print dup + 0 }'"
    assert_output 0
    r=$(stat "$T/m.rft" reads)
    w=$(stat "$T/m.rft" writes)
    ((r > w))
}

@test "the header names the workload" {
    rft-synth --seed 42 --kernels transpose,histogram --writes 2000 --cus 3 -o "$T/s.rft"
    run pipe "rft-view -H '$T/s.rft' | awk '\$1 ~ /^(producer|source|seed|kernels|writes|cus|simds)\$/ { print \$1, \$2 }'"
    assert_output - <<'EOF'
producer rft-synth
source rft-synth
seed 42
kernels transpose,histogram
writes 2000
cus 3
simds 4
EOF
}

@test "--list names the six models and their VGPRs" {
    run rft-synth --list
    assert_success
    run pipe "rft-synth --list | awk '{ print \$1, \$2 }'"
    assert_output - <<'EOF'
vecadd 8
matmul 69
reduction 13
transpose 4
blackscholes 62
histogram 26
EOF
}

# ---- evergreen: VLIW bundles (seed 003) ------------------------------------------

# share of ALU instructions per slot (%) and packing of each kernel of a
# stream: "kernel X Y Z W T packing bundles" a line
slot_shares() {
    rft-view "$1" | awk -F'\t' '
        $1 == "K" { k = $3 }
        $1 == "A" { n[k]++; s = $6; if (s == "-") next
                    for (i = 1; i <= length(s); i++) c[k, substr(s, i, 1)]++; tot[k] += length(s) }
        END { for (k in n) printf "%s %.2f %.2f %.2f %.2f %.2f %.4f %d\n", k,
                  100 * c[k, "X"] / tot[k], 100 * c[k, "Y"] / tot[k], 100 * c[k, "Z"] / tot[k],
                  100 * c[k, "W"] / tot[k], 100 * c[k, "T"] / tot[k], tot[k] / n[k] / 5, n[k] }' | sort
}

# the models as --list states them: "kernel X Y Z W T packing" a line
listed() { rft-synth --arch evergreen --list | awk '{ print $1, $7, $9, $11, $13, $15, $17 }'; }

@test "evergreen: --list states the skew of seed 003 Fig. 4 and a packing of 0.3" {
    run -0 listed
    assert_output - <<'EOF'
reduction 50.7 16.3 9.0 13.0 11.0 0.26
sobel 41.5 19.0 15.5 13.0 11.0 0.36
blackscholes 42.0 16.0 13.0 11.0 18.0 0.40
binomial 44.0 18.0 12.0 14.0 12.0 0.28
fwt 47.0 20.0 10.0 12.0 11.0 0.24
quasirandom 45.0 17.0 11.0 14.0 13.0 0.26
EOF
    # X above 40 % everywhere, shares adding up to 100, packing 0.30 on average
    got=$(listed | awk '{ if ($2 <= 40 || $2 + $3 + $4 + $5 + $6 != 100) bad = 1; p += $7 }
        END { printf "%d %.3f", bad, p / NR }')
    assert_equal "$got" "0 0.300"
    run -0 pipe "rft-synth --arch evergreen --list | awk '{ print \$1, \$4 }' | paste -sd ' '"
    assert_output "reduction 256 sobel 256 blackscholes 256 binomial 127 fwt 256 quasirandom 128"
}

@test "evergreen: measured slot shares and packing within 0.6 points and 0.006 of the models" {
    rft-synth --arch evergreen --bundles 600000 --cus 4 --seed 5 -o "$T/v.rft"
    slot_shares "$T/v.rft" > "$T/got.txt"
    listed | sort > "$T/want.txt"
    run -0 awk 'NR == FNR { for (i = 2; i <= 7; i++) w[$1, i] = $i; next }
        { if ($8 < 90000) print $1 ": only " $8 " bundles"
          for (i = 2; i <= 6; i++) if ($i - w[$1, i] > 0.6 || w[$1, i] - $i > 0.6)
              print $1 ": slot " i - 1 " share " $i " (model " w[$1, i] ")"
          if ($7 - w[$1, 7] > 0.006 || w[$1, 7] - $7 > 0.006) print $1 ": packing " $7 }' \
        "$T/want.txt" "$T/got.txt"
    assert_output ""
    run -0 wc -l < "$T/got.txt"
    assert_output 6
}

@test "evergreen: K, B, A, a few W and E on one SIMD engine of 20 CUs, some T transcendental" {
    rft-synth --arch evergreen --kernels reduction,blackscholes,sobel --bundles 30000 -o "$T/e.rft"
    run check_stream "$T/e.rft"
    assert_output ok
    run -0 pipe "rft-view '$T/e.rft' | cut -f1 | sort -u | tr -d '\n'"
    assert_output "ABEKW"
    run -0 pipe "rft-view --kind B '$T/e.rft' | cut -f3,4 | sort -u | sort -n | paste -sd ' '"
    assert_output "$(for c in $(seq 0 19); do printf '%s\t0\n' $c; done | paste -sd ' ')"
    b=$(stat "$T/e.rft" bundles)
    w=$(stat "$T/e.rft" writes)
    echo "bundles $b writes $w"
    ((b > 28500 && b < 31500 && w < b))
    t=$(rft-view --kind A "$T/e.rft" | grep -c trans)
    ((t > 100))
    # vector (DOT4-like) groups in sobel only, always with X to W
    run -0 pipe "rft-view --kind K,A '$T/e.rft' | awk -F'\t' '\$1 == \"K\" { k = \$3 } /vector/ { print k, substr(\$6, 1, 4) }' | sort -u"
    assert_output "sobel XYZW"
    run -0 pipe "rft-view -H '$T/e.rft' | awk '\$1 ~ /^(arch|bundles|cus|simds)\$/ { print \$1, \$2 }'"
    assert_output "arch evergreen
bundles 30000
cus 20
simds 1"
}

@test "evergreen: work-groups of 256 by default; 127 work-items leave a partial wavefront" {
    rft-synth --arch evergreen --kernels reduction --bundles 5000 --cus 2 -o "$T/r.rft"
    run -0 pipe "rft-view --kind B '$T/r.rft' | cut -f8 | sort -n | uniq -c | awk '{ print \$1 }' | sort -u"
    assert_output 4
    rft-synth --arch evergreen --kernels reduction --wg-size 127 --bundles 5000 --cus 2 -o "$T/p.rft"
    run check_stream "$T/p.rft"
    assert_output ok
    run -0 pipe "rft-view --kind B '$T/p.rft' | cut -f8 | sort -n | uniq -c | awk '{ print \$1 }' | sort -u"
    assert_output 2
    # the second wavefront of a work-group has 63 work-items: never lane 63
    run -0 pipe "rft-view --kind B,A '$T/p.rft' | awk -F'\t' '\$1 == \"B\" { second[\$5] = (n[\$8]++ == 1) }
        \$1 == \"A\" && second[\$5] { full += (\$7 == \"7fffffffffffffff\"); lane63 += (\$7 ~ /^[89a-f]/) }
        END { print (full > 0), lane63 + 0 }'"
    assert_output "1 0"
    run -0 pipe "rft-view -H '$T/p.rft' | awk '\$1 == \"wg_size\" { print \$2 }'"
    assert_output 127
    # binomial is 127 work-items of its own (seed 003 Table I)
    rft-synth --arch evergreen --kernels binomial --bundles 3000 -o "$T/b.rft"
    run -0 pipe "rft-view --kind B '$T/b.rft' | cut -f8 | sort -n | uniq -c | awk '{ print \$1 }' | sort -u"
    assert_output 2
}

@test "evergreen: the same seed gives the same bytes" {
    rft-synth --arch evergreen --seed 9 --bundles 20000 -o "$T/a.rft"
    rft-synth --arch evergreen --seed 9 --bundles 20000 > "$T/b.rft"
    cmp "$T/a.rft" "$T/b.rft"
    rft-synth --arch evergreen --seed 10 --bundles 20000 -o "$T/c.rft"
    run cmp -s "$T/a.rft" "$T/c.rft"
    assert_failure 1
}

@test "evergreen: options of the other architecture are usage errors" {
    local -A want=(
        ["--arch evergreen --simds 2"]="--simds: an Evergreen compute unit is one SIMD engine"
        ["--arch evergreen --lanes 32"]="--lanes: Evergreen wavefronts are 64 work-items wide"
        ["--arch evergreen --writes 5"]="--writes applies to --arch gcn; --bundles sizes an evergreen run"
        ["--bundles 5"]="--bundles applies to --arch evergreen; --writes sizes a gcn run"
        ["--arch vliw"]="--arch: 'vliw' is not one of gcn, evergreen"
        ["--arch evergreen --kernels vecadd"]="--kernels: unknown model 'vecadd' (see --list)"
        ["--arch evergreen --wg-size 1025"]="--wg-size: 1025 is out of range 1..1024"
        ["--kernels matmul --wg-size 256"]="--wg-size: 256 work-items are 4 wavefronts, more than the 3 of model matmul that fit a slice"
    )
    local k bad=0
    for k in "${!want[@]}"; do
        run -2 --separate-stderr rft-synth $k
        if [[ ${stderr_lines[0]} != "rft-synth: ${want[$k]} (see rft-synth --help)" ]]; then
            echo "$k: got '${stderr_lines[0]}', want '${want[$k]}'"
            bad=1
        fi
    done
    return $bad
}

@test "--help prints the synopsis, --version the version" {
    run rft-synth --help
    assert_success
    assert_line --index 0 --partial "rft-synth [--kernels LIST]"
    run rft-synth --version
    assert_success
    assert_output --partial "rft-synth"
}

@test "bad options exit 2 with one message line" {
    for args in "--bogus" "--writes" "--writes 0" "--writes x" "--kernels foo" \
                "--kernels vecadd,,matmul" "--lanes 12" "--lanes 4096" "--cus 0" \
                "--simds 17" "--seed -1" "--level 0" "--level 23" "extra"; do
        run -2 --separate-stderr rft-synth $args
        assert_output ""
        [[ ${stderr_lines[0]} == "rft-synth: "* ]]
        (( ${#stderr_lines[@]} == 1 ))
    done
}

@test "a full disk fails the run with status 1" {
    run -1 --separate-stderr bash -c 'rft-synth --writes 200000 > /dev/full'
    [[ $stderr == "rft-synth: "*"No space left on device"* ]]
}

@test "an -o file that cannot be created fails with status 1" {
    mkdir "$T/out"
    run -1 --separate-stderr rft-synth --writes 1000 -o "$T/out/no/x.rft"
    [[ $stderr == "rft-synth: $T/out/no/x.rft: "* ]]
    run ls "$T/out"
    assert_output ""
}
