# Shared by plot.bats and figures.bats: what rft-plot wrote, read back.
# Scripts and data are checked without gnuplot (--no-render); the tests
# that render a figure skip, saying why, where gnuplot is missing.

need_gnuplot() {
    command -v gnuplot >/dev/null 2>&1 ||
        skip "gnuplot is not installed, no figure to render (Debian: gnuplot-nox; make installs it as root)"
}

# titles STEM: the series' titles in STEM.gp's plot command, one a line
titles() {
    sed -n "/^\(plot\)\{0,1\} \{1,5\}data skip [0-9]\{1,\} using /s/.* title '\(.*\)'\(, \\\\\)\{0,1\}\$/\1/p" "$1.gp" |
        sed "s/''/'/g"
}

# styles STEM: each series' style line without its number ("lc rgb '#0072B2' lw 1.5 dt 1 ...")
styles() { sed -n 's/^set style line [0-9]* //p' "$1.gp"; }

# What a figure holds, read with Python (an SVG must parse as XML):
#   fig FILE texts     every text of an SVG, one a line, spaces trimmed
#   fig FILE size      an SVG's width and height, a PNG's, a PDF's page in points
#   fig FILE breaks N  how many pieces the line of the Nth plot of an SVG is in
fig() {
    python3 - "$@" <<'EOF'
import re, struct, sys, xml.etree.ElementTree as E
f, what = sys.argv[1], sys.argv[2]
data = open(f, "rb").read()
ns = "{http://www.w3.org/2000/svg}"
if what == "size" and data.startswith(b"\x89PNG\r\n\x1a\n"):
    print("png %d %d" % struct.unpack(">II", data[16:24]))
elif what == "size" and data.startswith(b"%PDF-"):
    box = re.search(rb"/MediaBox \[ *([0-9. ]+)\]", data).group(1).split()
    print("pdf %s %s" % (box[2].decode(), box[3].decode()))
else:
    root = E.fromstring(data)
    if what == "size":
        print("svg %s %s" % (root.get("width"), root.get("height")))
    elif what == "texts":
        for t in root.iter(ns + "text"):
            print("".join(t.itertext()).strip())
    elif what == "breaks":
        g = [g for g in root.iter(ns + "g") if g.get("id") == "gnuplot_plot_" + sys.argv[3]][0]
        # the first move draws the key's sample; the others start pieces of the line
        print(max(p.get("d").count("M") - 1 for p in g.iter(ns + "path")))
EOF
}
