/* rft-plot - columns of a TSV table (rft-vth, rft-duty --summary, ...) as a
 * standalone SVG chart: lines over a numeric x, grouped bars over categories.
 * The seeds' figures (duty per bit position, longest '0' duty per register
 * and scheme) from the tables the report programs print. */
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: rft-plot [-o FILE] [-x COL] [-y COL[,COL...]] [--kind line|bar] [--title TEXT]\n"
    "                [--xlabel TEXT] [--ylabel TEXT] [--ymin N] [--ymax N] [--width PX] [--height PX] [FILE]\n"
    "Draw columns of a TSV table (header row first) as a standalone SVG chart.\n";

/* Layout, in pixels (documented in rft-plot(1) so charts can be checked):
 * the plot area's left edge, top edge, right and bottom margins; a legend
 * column of LEG_PAD + CHAR_W per character of the longest series name. */
enum { LEFT = 64, TOP = 40, RIGHT = 16, BOTTOM = 48, LEG_PAD = 36, CHAR_W = 7 };
enum { LINE, BAR };

static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000", "#F0E442"};

static struct {
    const char *input, *name, *output, *xname, *title, *xlabel, *ylabel;
    char **pats;                /* -y patterns, in the order given */
    size_t npats;
    int kind;                   /* -1: from the x column */
    int ymin_set, ymax_set;
    double ymin, ymax;
    unsigned width, height;
    cli_tsv tab;                /* the input */
} g = {.kind = -1, .width = 800, .height = 480};

typedef struct {
    size_t col;
    double *v;                  /* per row; NAN where the cell is no number */
    const char *colour;
} series;

static const char *at(size_t row, size_t col) { return cli_tsv_at(&g.tab, row, col); }

static int all_numbers(size_t col)
{
    double v;
    for (size_t r = 0; r < g.tab.nrows; r++)
        if (!cli_number(at(r, col), &v))
            return 0;
    return 1;
}

/* The series: columns matching -y (in header order, each once; a pattern
 * with wildcards never picks the x column), or every all-number column. */
static series *select_series(size_t xcol, size_t *ns)
{
    series *s = NULL;
    size_t n = 0;
    unsigned char *hit = xrealloc(NULL, g.npats);
    memset(hit, 0, g.npats);
    for (size_t c = 0; c < g.tab.ncols; c++) {
        int take = 0;
        for (size_t p = 0; p < g.npats; p++)
            if (fnmatch(g.pats[p], g.tab.col[c], 0) == 0 &&
                (c != xcol || !strpbrk(g.pats[p], "*?[")))
                take = hit[p] = 1;
        if (!g.npats)
            take = c != xcol && all_numbers(c);
        if (!take)
            continue;
        s = xrealloc(s, (n + 1) * sizeof *s);
        s[n] = (series){c, xrealloc(NULL, g.tab.nrows * sizeof(double)),
                        palette[n % (sizeof palette / sizeof *palette)]};
        n++;
    }
    for (size_t p = 0; p < g.npats; p++)
        if (!hit[p])
            usage_error("-y: '%s' matches no column of %s", g.pats[p], g.name);
    free(hit);
    if (!n)
        die("%s: no column other than '%s' is all numbers: nothing to plot (see -y)", g.name,
            g.tab.col[xcol]);
    for (size_t i = 0; i < n; i++) {
        size_t bad = 0;
        for (size_t r = 0; r < g.tab.nrows; r++)
            if (!cli_number(at(r, s[i].col), &s[i].v[r])) {
                s[i].v[r] = NAN;
                bad++;
            }
        if (bad == g.tab.nrows)
            die("%s: column '%s': no cell is a number", g.name, g.tab.col[s[i].col]);
        if (bad)
            warnx("warning: %s: column '%s': %zu %s (left out)", g.name, g.tab.col[s[i].col], bad,
                  bad == 1 ? "cell is not a number" : "cells are not numbers");
    }
    *ns = n;
    return s;
}

/* Ticks at first*step, (first+1)*step, ...: the smallest step 1, 2 or 5 x
 * 10^k that puts at most 10 in lo..hi.  Returns how many. */
static int ticks(double lo, double hi, double *step, double *first)
{
    for (int k = (int)floor(log10(hi - lo)) - 1;; k++)
        for (int m = 1; m <= 5; m += m == 2 ? 3 : 1) {
            double s = m * pow(10, k), a = ceil(lo / s - 1e-9), n = floor(hi / s + 1e-9) - a + 1;
            if (n <= 10) {
                *step = s;
                *first = a;
                return (int)n;
            }
        }
}

/* Text for SVG: markup characters escaped; control characters and bytes
 * that are not UTF-8 (XML allows neither) become U+FFFD. */
static void put_text(FILE *o, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned c = *p;
        int len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        int ok = len > 0 && (c >= 0x20 || c == '\t');
        for (int i = 1; ok && i < len; i++)
            ok = (p[i] & 0xc0) == 0x80;
        /* overlong 3- and 4-byte forms, surrogates, beyond U+10FFFF */
        if (ok && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) ||
                   (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
            ok = 0;
        if (!ok) {
            fputs("\xef\xbf\xbd", o);
            p++;
            continue;
        }
        switch (c) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&apos;", o); break;
        default: fwrite(p, 1, (size_t)len, o);
        }
        p += len;
    }
}

/* The 1-2-5 step after k: 1, 2, 5, 10, 20, 50, ... */
static size_t next_step(size_t k)
{
    size_t d = 1;
    while (k >= 10 * d)
        d *= 10;
    return (k / d == 1 ? 2 : k / d == 2 ? 5 : 10) * d;
}

/* <text> at x, y with an anchor and optional extra attributes. */
static void text(FILE *o, double x, double y, const char *anchor, const char *extra,
                 const char *s)
{
    fprintf(o, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\"%s>", x, y, anchor, extra);
    put_text(o, s);
    fputs("</text>\n", o);
}

static size_t chars(const char *s)      /* UTF-8 characters, for widths */
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* The chart's frame: data ranges and the plot area in pixels. */
static struct {
    int kind, cat;              /* cat: x values as categories 0..nrows-1 */
    double *x, xlo, xhi, ylo, yhi;
    double L, R, T, B;
} f;

static double px(double v) { return f.L + (v - f.xlo) / (f.xhi - f.xlo) * (f.R - f.L); }
static double py(double v) { return f.T + (f.yhi - v) / (f.yhi - f.ylo) * (f.B - f.T); }

static void frame(size_t xcol, const series *s, size_t ns)
{
    int numx = all_numbers(xcol);
    f.kind = g.kind >= 0 ? g.kind : numx ? LINE : BAR;
    f.cat = !numx || f.kind == BAR;
    f.x = xrealloc(NULL, g.tab.nrows * sizeof *f.x);
    for (size_t r = 0; r < g.tab.nrows; r++) {
        if (!f.cat)
            cli_number(at(r, xcol), &f.x[r]);
        else
            f.x[r] = (double)r;
        f.xlo = r && f.xlo <= f.x[r] ? f.xlo : f.x[r];
        f.xhi = r && f.xhi >= f.x[r] ? f.xhi : f.x[r];
    }
    if (f.cat) {                /* each category the middle of its slot */
        f.xlo = -0.5;
        f.xhi = (double)g.tab.nrows - 0.5;
    } else if (f.xlo == f.xhi) {        /* one x value: in the middle */
        double d = f.xlo + 0.5 != f.xlo ? 0.5 : fabs(f.xlo) * 1e-6;
        f.xlo -= d;
        f.xhi += d;
    }
    /* y: from 0 or below to the largest value, unless given */
    double lo = 0, hi = -INFINITY;
    for (size_t i = 0; i < ns; i++)
        for (size_t r = 0; r < g.tab.nrows; r++)
            if (!isnan(s[i].v[r])) {
                lo = s[i].v[r] < lo ? s[i].v[r] : lo;
                hi = s[i].v[r] > hi ? s[i].v[r] : hi;
            }
    lo = g.ymin_set ? g.ymin : lo;
    hi = g.ymax_set ? g.ymax : hi;
    if (!(lo < hi)) {           /* widen by 1, unless 1 is lost in the value */
        if (g.ymax_set && !g.ymin_set)
            lo = hi - (hi - 1 != hi ? 1 : fabs(hi) * 1e-6);
        else
            hi = lo + (lo + 1 != lo ? 1 : fabs(lo) * 1e-6);
    }
    f.ylo = lo;
    f.yhi = hi;
    if (!isfinite(f.xhi - f.xlo) || !isfinite(hi - lo) || !(f.xlo < f.xhi) || !(lo < hi))
        die("%s: the values span too wide a range to plot", g.name);
    /* the plot area: what the margins and the legend leave */
    size_t longest = 0;
    for (size_t i = 0; i < ns; i++)
        longest = chars(g.tab.col[s[i].col]) > longest ? chars(g.tab.col[s[i].col]) : longest;
    double leg = LEG_PAD + CHAR_W * (double)longest;
    f.L = LEFT;
    f.R = g.width - RIGHT - (leg > g.width / 3.0 ? g.width / 3.0 : leg);
    f.T = TOP;
    f.B = g.height - BOTTOM;
}

/* Grid lines and tick labels; category labels. */
static void axes(FILE *o, size_t xcol)
{
    char lab[64];
    double st, first;
    int nt = ticks(f.ylo, f.yhi, &st, &first);
    fputs("<g class=\"axes\">\n", o);
    for (int i = 0; i < nt; i++) {
        double v = (first + i) * st == 0 ? 0 : (first + i) * st;      /* never "-0" */
        fprintf(o, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#dddddd\"/>\n",
                f.L, py(v), f.R, py(v));
        snprintf(lab, sizeof lab, "%g", v);
        text(o, f.L - 6, py(v) + 4, "end", "", lab);
    }
    if (!f.cat) {
        nt = ticks(f.xlo, f.xhi, &st, &first);
        for (int i = 0; i < nt; i++) {
            double v = (first + i) * st == 0 ? 0 : (first + i) * st;
            fprintf(o, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                       "stroke=\"#dddddd\"/>\n", px(v), f.T, px(v), f.B);
            snprintf(lab, sizeof lab, "%g", v);
            text(o, px(v), f.B + 16, "middle", "", lab);
        }
    } else {
        /* every k-th category, k a 1-2-5 step: at most 20 labels, none overlapping */
        size_t wide = 0, k = 1;
        for (size_t r = 0; r < g.tab.nrows; r++)
            wide = chars(at(r, xcol)) > wide ? chars(at(r, xcol)) : wide;
        double slot = (f.R - f.L) / (double)g.tab.nrows;
        while (k < g.tab.nrows && (g.tab.nrows > 20 * k || (double)k * slot < CHAR_W * (double)wide + 6))
            k = next_step(k);
        for (size_t r = 0; r < g.tab.nrows; r += k)
            text(o, px((double)r), f.B + 16, "middle", "", at(r, xcol));
    }
    fputs("</g>\n", o);
}

/* Series i: its bars, or its polylines broken at gaps (a lone point a dot). */
static void draw(FILE *o, const series *s, size_t i, size_t ns)
{
    double base = py(f.ylo > 0 ? f.ylo : f.yhi < 0 ? f.yhi : 0);   /* bars grow from 0 */
    double slot = (f.R - f.L) / (double)g.tab.nrows, bw = 0.8 * slot / (double)ns;
    fputs("<g class=\"series\" data-name=\"", o);
    put_text(o, g.tab.col[s[i].col]);
    fprintf(o, "\" clip-path=\"url(#area)\" fill=\"%s\" stroke=\"%s\">\n", s[i].colour,
            f.kind == BAR ? "none" : s[i].colour);
    for (size_t r = 0; r < g.tab.nrows; r++) {
        double v = s[i].v[r];
        if (isnan(v))
            continue;
        if (f.kind == BAR) {
            double y = py(v), bx = px(f.x[r]) - 0.4 * slot + (double)i * bw;
            fprintf(o, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                       "height=\"%.2f\"/>\n", bx, y < base ? y : base, bw, fabs(base - y));
            continue;
        }
        size_t e = r;
        while (e + 1 < g.tab.nrows && !isnan(s[i].v[e + 1]))
            e++;
        if (e == r) {
            fprintf(o, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.50\" stroke=\"none\"/>\n",
                    px(f.x[r]), py(v));
            continue;
        }
        fputs("<polyline fill=\"none\" stroke-width=\"1.50\" points=\"", o);
        for (; r <= e; r++)
            fprintf(o, "%.2f,%.2f%s", px(f.x[r]), py(s[i].v[r]), r < e ? " " : "");
        fputs("\"/>\n", o);
        r = e;
    }
    fputs("</g>\n", o);
}

static void plot(FILE *o, size_t xcol, const series *s, size_t ns)
{
    unsigned W = g.width, H = g.height;
    frame(xcol, s, ns);
    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" "
               "height=\"%u\" viewBox=\"0 0 %u %u\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n", W, H, W, H);
    if (g.title && *g.title) {
        fputs("<title>", o);
        put_text(o, g.title);
        fputs("</title>\n", o);
    }
    fprintf(o, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", W, H);
    /* a little beyond the plot area, so lines on its edges show whole */
    fprintf(o, "<defs><clipPath id=\"area\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
               "height=\"%.2f\"/></clipPath></defs>\n", f.L - 4, f.T - 4, f.R - f.L + 8,
            f.B - f.T + 8);
    axes(o, xcol);
    for (size_t i = 0; i < ns; i++)
        draw(o, s, i, ns);
    /* the axes over the bars; the legend right of the plot area; titles */
    fprintf(o, "<path class=\"axis\" d=\"M%.2f %.2fV%.2fH%.2f\" fill=\"none\" "
               "stroke=\"#000000\"/>\n", f.L, f.T, f.B, f.R);
    fputs("<g class=\"legend\">\n", o);
    for (size_t i = 0; i < ns; i++) {
        double y = f.T + 18 * (double)i;
        fprintf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"12.00\" height=\"12.00\" fill=\"%s\"/>\n",
                f.R + 12, y, s[i].colour);
        text(o, f.R + 30, y + 10, "start", "", g.tab.col[s[i].col]);
    }
    fputs("</g>\n", o);
    if (g.title && *g.title)
        text(o, W / 2.0, 24, "middle", " font-size=\"16\"", g.title);
    const char *xl = g.xlabel ? g.xlabel : g.tab.col[xcol];
    const char *yl = g.ylabel ? g.ylabel : ns == 1 ? g.tab.col[s[0].col] : "";
    if (*xl)
        text(o, (f.L + f.R) / 2, H - 10.0, "middle", "", xl);
    if (*yl) {
        char rot[96];
        snprintf(rot, sizeof rot, " transform=\"rotate(-90 16.00 %.2f)\"", (f.T + f.B) / 2);
        text(o, 16, (f.T + f.B) / 2, "middle", rot, yl);
    }
    fputs("</svg>\n", o);
    free(f.x);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"x", required_argument, 0, 'x'},
        {"y", required_argument, 0, 'y'},      {"kind", required_argument, 0, 'k'},
        {"title", required_argument, 0, 't'},  {"xlabel", required_argument, 0, 'X'},
        {"ylabel", required_argument, 0, 'Y'}, {"ymin", required_argument, 0, 'm'},
        {"ymax", required_argument, 0, 'M'},   {"width", required_argument, 0, 'w'},
        {"height", required_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    cli_init(argc, argv, usage);
    while ((c = getopt_long(argc, argv, "o:x:y:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': g.output = optarg; break;
        case 'x': g.xname = optarg; break;
        case 'y':
            if (!optarg[strspn(optarg, ",")])
                usage_error("-y: no column named");
            for (char *p = strtok(optarg, ","); p; p = strtok(NULL, ",")) {
                g.pats = xrealloc(g.pats, (g.npats + 1) * sizeof *g.pats);
                g.pats[g.npats++] = p;
            }
            break;
        case 'k':
            g.kind = cli_choice("--kind", optarg, "line|bar") ? BAR : LINE;
            break;
        case 't': g.title = optarg; break;
        case 'X': g.xlabel = optarg; break;
        case 'Y': g.ylabel = optarg; break;
        case 'm':
            g.ymin = cli_double("--ymin", optarg, -HUGE_VAL, HUGE_VAL);
            g.ymin_set = 1;
            break;
        case 'M':
            g.ymax = cli_double("--ymax", optarg, -HUGE_VAL, HUGE_VAL);
            g.ymax_set = 1;
            break;
        case 'w': g.width = (unsigned)cli_uint("--width", optarg, 200, 10000); break;
        case 'h': g.height = (unsigned)cli_uint("--height", optarg, 200, 10000); break;
        default: cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    g.name = strcmp(g.input, "-") ? g.input : "standard input";
    if (g.ymin_set && g.ymax_set && !(g.ymin < g.ymax))
        usage_error("--ymin %g is not below --ymax %g", g.ymin, g.ymax);

    cli_tsv_read(g.input, g.name, &g.tab);
    size_t xcol = 0, ns;
    if (g.xname) {
        while (xcol < g.tab.ncols && strcmp(g.tab.col[xcol], g.xname))
            xcol++;
        if (xcol == g.tab.ncols)
            usage_error("-x: '%s' is not a column of %s", g.xname, g.name);
    }
    series *s = select_series(xcol, &ns);
    FILE *o = cli_output_open(g.output);
    plot(o, xcol, s, ns);
    for (size_t i = 0; i < ns; i++)
        free(s[i].v);
    free(s);
    return cli_output_close(o);
}
