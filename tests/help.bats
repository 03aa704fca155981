#!/usr/bin/env bats
# Issue 16, one convention across programs: every program's --help against
# its man page (synopsis, options), one-line usage errors, man pages that
# mandoc finds clean with the same .TH form.

load test_helper

# rft and every rft-* program of bin/ (binaries and scripts, not sources)
programs() {
    local p
    for p in "$TOP"/bin/rft "$TOP"/bin/rft-*; do
        if [[ -x $p && $p != *.* ]]; then echo "${p##*/}"; fi
    done
}

# A man page's SYNOPSIS (the .nf block) without roff font escapes
man_synopsis() {
    sed -n '/^\.SH SYNOPSIS/,/^\.SH/p' "$TOP/man/$1.1" | sed '1d;$d' |
        grep -v '^\.\(nf\|fi\)$' | sed 's/\\f[BIRP]//g; s/\\-/-/g; s/\\&//g'
}

# The synopsis of --help: its lines up to the one-line description (the
# first line that does not start with the program's name or a space)
help_synopsis() {
    awk -v p="$1" 'index($0, p) != 1 && !/^ / { exit } { print }'
}

@test "every program is checked, and has a man page" {
    run -0 programs
    assert_line rft
    assert_line rft-decode
    assert_line rft-batch
    (( ${#lines[@]} >= 18 ))
    local p
    for p in $(programs); do
        [[ -f $TOP/man/$p.1 ]] || fail "$p has no man page"
    done
}

@test "--help starts with the man page SYNOPSIS, then a one-line description" {
    local p
    for p in $(programs); do
        run -0 --separate-stderr "$p" --help
        [[ -z $stderr ]] || fail "$p --help wrote on stderr: $stderr"
        diff -u <(man_synopsis "$p") <(help_synopsis "$p" <<<"$output") ||
            fail "$p: --help synopsis differs from man/$p.1"
        local n
        n=$(help_synopsis "$p" <<<"$output" | wc -l)
        [[ -n ${lines[n]} && ${lines[n]} != -* ]] || fail "$p: no description after the synopsis"
        [[ ${lines[n+1]} == "  "* ]] || fail "$p: the description is not one line: ${lines[n+1]}"
    done
}

# The COMMANDS of rft(1), "  NAME  first sentence of its entry" a line
man_commands() {
    sed -n '/^\.SH COMMANDS/,/^\.SH/p' "$TOP/man/rft.1" | awk '
        /^\.TP/ { if (name != "") print name "\t" text; name = ""; text = ""; next }
        /^\.SH/ { if (name != "") print name "\t" text; next }
        /^\.BR / && name == "" { name = $2; next }
        { text = text (text == "" ? "" : " ") $0 }' | sed 's/\\-/-/g' |
        awk -F '\t' '{ t = $2; i = index(t, ". "); if (i) t = substr(t, 1, i - 1); else sub(/\.$/, "", t)
                       printf "  %-10s %s\n", $1, t }'
}

@test "rft --help matches rft(1)" {
    run -0 rft --help
    assert_line --index 0 "rft command [argument ...]"
    assert_line --index 1 "rft run [--threads N] [--max-memory MIB] [--shard K/N] pipeline ..."
    diff -u <(man_synopsis rft) <(help_synopsis rft <<<"$output")
}

@test "rft --help and rft help: a usage line first, then rft(1)'s commands in its words" {
    run -0 --separate-stderr rft help
    local by_help=$output
    run -0 --separate-stderr rft --help
    assert_equal "$output" "$by_help"
    assert_equal "$stderr" ""
    # the first line is the synopsis's, as every program's --help starts
    assert_line --index 0 "$(man_synopsis rft | head -n 1)"
    refute_line --partial "usage:"
    # every command of rft(1), in its order, with the first sentence of its entry
    run -0 man_commands
    (( ${#lines[@]} >= 18 ))
    diff -u <(man_commands) <(sed -n '/^Commands:$/,/^$/p' <<<"$by_help" | sed '1d;/^$/d')
    # and every program of bin/ is one of them
    local p
    for p in $(programs); do
        [[ $p == rft ]] || grep -q "^  ${p#rft-} " <<<"$by_help" || fail "rft --help lacks ${p#rft-}"
    done
}

@test "every option a program takes is in its --help, one a line, and in its man page" {
    local p o
    for p in $(programs); do
        run -0 --separate-stderr "$p" --list-options
        local opts=("${lines[@]}")
        (( ${#opts[@]} >= 3 )) || fail "$p: --list-options gave ${#opts[@]} options"
        run -0 "$p" --help
        local help=$output
        local man
        man=$(sed 's/\\f[BIRP]//g; s/\\-/-/g' "$TOP/man/$p.1")
        for o in "${opts[@]}"; do
            # an option line: "  -o, --output FILE ..." or "      --level N ..."
            # (bash's own ERE over the whole text, a newline for grep's line
            # ends: no grep a option, 900 processes in all)
            local re_help=$'(^|\n)  (-[a-zA-Z], |    )?'"$o"$'([ =,[]|\n|$)'
            local re_man='(^|[^-a-z])'"$o"'([^-a-z]|$)'
            [[ $help =~ $re_help ]] || fail "$p: $o has no line of its own in --help"
            [[ $man =~ $re_man ]] || fail "$p: $o is not in man/$p.1"
        done
    done
}

@test "--list-options is checked: a program's table, not a fixed list" {
    run -0 rft-gate --list-options
    assert_line -- --max-delta
    assert_line -- -o
    refute_line -- --columns
    run -0 rft-collect --list-options
    assert_line -- --columns
}

@test "a usage error is one line naming the problem and --help" {
    local p
    for p in $(programs); do
        run -2 --separate-stderr "$p" --no-such-option
        [[ -z $output ]] || fail "$p: a usage error wrote on stdout"
        (( ${#stderr_lines[@]} == 1 )) || fail "$p: ${#stderr_lines[@]} lines: $stderr"
        [[ $stderr == "$p: "*"(see $p --help)" ]] || fail "$p: $stderr"
    done
    run -2 --separate-stderr rft-gate --scheme xx
    assert_equal "$stderr" "rft-gate: --scheme: 'xx' is not one of rc, wc (see rft-gate --help)"
}

@test "mandoc -T lint finds nothing in any man page" {
    command -v mandoc || skip "mandoc is not installed (make deps)"
    run -0 mandoc -T lint "$TOP"/man/*.1 "$TOP"/man/*.5
    assert_output ""
}

@test ".TH lines: one form, the version of rft.h" {
    local version f name
    version=$(sed -n 's/^#define RFT_VERSION "\(.*\)"/\1/p' "$TOP/lib/rft.h")
    for f in "$TOP"/man/*.[15]; do
        name=${f##*/}
        local want=".TH $(tr a-z A-Z <<<"${name%.*}") ${name##*.} [0-9]{4}-[0-9]{2}-[0-9]{2} \"rftrace $version\" \"rftrace manual\""
        grep -qxE "$want" "$f" || fail "$name: $(grep '^\.TH' "$f")"
    done
}

@test "every make target the READMEs name exists (make fuzz did not)" {
    local targets t missing=""
    # the targets with a recipe or prerequisites (a name in .PHONY alone is none)
    targets=$(make -C "$TOP" -pRrq __no_such_target__ 2>/dev/null | awk '
        /^[a-z][a-z-]*:/ { split($0, a, ":"); cur = a[1]; real[cur] += ($0 ~ /^[^:]*: *[^ =]/); next }
        /^\t/ && cur != "" { real[cur]++ }
        /^$/ { cur = "" }
        END { for (t in real) if (real[t]) print t }' | sort)
    for t in $(grep -ohE '(`|^  )make [a-z][a-z-]*' "$TOP/README.md" "$TOP/tests/fuzz/README" | sed 's/.*make //' | sort -u); do
        grep -qx "$t" <<< "$targets" || missing="$missing $t"
    done
    assert_equal "$missing" ""
    grep -qx fuzz <<< "$targets"
}
