#!/usr/bin/env python3
"""duty_figure.py - seed 002 Fig. 12 redrawn from duty maps with NumPy and matplotlib.

    duty_figure.py [-o FIG.png] [--data FIG.tsv] [LABEL=]MAP.rft...

For each duty map (rft-duty(1), rft-merge(1)), one panel: for every bit
position of a register (0 to 32 x lanes - 1: bit b % 32 of lane b // 32,
2048 on GCN), the average share of time its cells hold '0', hold '1' and
are switched off, stacked to 100 %, over every used entry of every slice
(seed 002 Fig. 12; rft-vth --by bit prints the same numbers).  --data
writes them as a TSV table (map, bit, 0%, 1%, off%).  An example of rft_reader.duty_arrays(): the reader is found beside
this script, or in PREFIX/share/rftrace once installed.

Needs NumPy and matplotlib (Debian: python3-numpy python3-matplotlib).
Exit status: 0 ok, 1 bad data or a missing module, 2 usage.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import rft_reader  # noqa: E402

USAGE = "usage: duty_figure.py [-o FIG.png] [--data FIG.tsv] [LABEL=]MAP.rft..."


def bit_shares(d):
    """The mean share of '0', '1' and off of each bit position of a register
    over the used entries: three arrays of 32 x lanes (NaN without a used entry)."""
    np = rft_reader.import_numpy()
    t0, t1, off = d.shares()                    # [slice, entry, lane, bit]
    used = d.used & (d.cycles > 0)
    bits = t0.shape[2] * 32
    return tuple(a[used].reshape(-1, bits).mean(axis=0) if used.any() else np.full(bits, np.nan)
                 for a in (t0, t1, off))


def draw(maps, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    fig, axes = plt.subplots(1, len(maps), figsize=(4.2 * len(maps) + 1, 3.6), sharey=True,
                             squeeze=False)
    for ax, (label, (z, o, f)) in zip(axes[0], maps):
        bits = np.arange(len(z))
        ax.stackplot(bits, 100 * z, 100 * o, 100 * f, colors=("#4477aa", "#ee6677", "#bbbbbb"),
                     labels=("'0'", "'1'", "switched off"), step="post")
        ax.set_title(label)
        ax.set_xlabel("bit position of the register")
        ax.set_xlim(0, len(z))
        ax.set_xticks(range(0, len(z) + 1, max(32, len(z) // 4)))
        ax.set_ylim(0, 100)
    axes[0][0].set_ylabel("duty cycle (% of time)")
    axes[0][-1].legend(loc="lower right", fontsize="small", framealpha=0.9)
    fig.suptitle("Average duty cycle of each bit position (seed 002 Fig. 12)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv):
    out, data, inputs = "fig12.png", None, []
    it = iter(argv)
    for a in it:
        if a in ("-h", "--help"):
            print(USAGE)
            return 0
        if a in ("-o", "--data"):
            v = next(it, None)
            if v is None:
                sys.stderr.write(USAGE + "\n")
                return 2
            if a == "-o":
                out = v
            else:
                data = v
        elif a.startswith("-") and a != "-":
            sys.stderr.write(USAGE + "\n")
            return 2
        else:
            inputs.append(a)
    if not inputs:
        sys.stderr.write(USAGE + "\n")
        return 2
    maps = []
    for a in inputs:
        label, _, path = a.rpartition("=") if "=" in a else ("", "", a)
        label = label or os.path.basename(path).split(".")[0]
        try:
            d = rft_reader.duty_arrays(path)
            if not d.slices:
                raise rft_reader.Bad("no duty map records (rft-duty(1) writes them)")
            maps.append((label, bit_shares(d)))
        except (rft_reader.Bad, OSError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            sys.stderr.write("duty_figure.py: %s: %s\n" % (path, why))
            return 1
    if data:
        with open(data, "w") as f:
            f.write("map\tbit\t0%\t1%\toff%\n")
            for label, (z, o, off) in maps:
                for b in range(len(z)):
                    f.write("%s\t%d\t%.2f\t%.2f\t%.2f\n" % (label, b, 100 * z[b], 100 * o[b],
                                                            100 * off[b]))
    try:
        draw(maps, out)
    except ImportError:
        sys.stderr.write("duty_figure.py: matplotlib is not installed "
                         "(Debian: apt-get install python3-matplotlib)\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
