# Shared by notes2.bats and notes3.bats: a table's notes in each format
# (rft(1) "NOTES ON EVERY TABLE").

# FORMAT FILE NOTE...: FILE, a table in FORMAT, carries its notes where that
# format keeps them (TSV, CSV: '# ' lines before the header; JSON lines: a
# first object with "notes"; for people: the lines after the last blank
# one; tsvs: TSV tables one after the other, each after its notes), each
# NOTE (a fixed string) among them.
has_notes() {
    local fmt=$1 f=$2 notes n
    shift 2
    case $fmt in
    tsv | csv)
        notes=$(awk '!/^# / { exit } { print substr($0, 3) }' "$f")
        # no '# ' line after the header
        [ "$(awk '!/^# / { h = 1 } h && /^# /' "$f")" = "" ] || { echo "$f: a note after the header"; return 1; }
        ;;
    json)
        notes=$(head -n 1 "$f" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
print("\n".join(d["notes"]))') || { echo "$f: no first object with notes"; head -n 2 "$f"; return 1; }
        ;;
    tsvs) notes=$(sed -n 's/^# //p' "$f")
          # each table (after a blank line) starts with its notes
          [ "$(awk 'NR == 1 || p == "" { if (!/^# /) print "no notes before: " $0 } { p = $0 }' "$f")" = "" ] ||
              { echo "$f: a table without notes"; return 1; } ;;
    table) notes=$(awk '/^$/ { b = ""; next } { b = b $0 "\n" } END { printf "%s", b }' "$f") ;;
    esac
    [ -n "$notes" ] || { echo "$f ($fmt): no notes"; head -n 3 "$f"; return 1; }
    for n; do
        grep -qF -- "$n" <<<"$notes" || { echo "$f ($fmt): no note '$n' among:"; echo "$notes"; return 1; }
    done
}
