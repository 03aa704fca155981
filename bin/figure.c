/* figure.c - a chart as TSV data, an editable gnuplot script and the figure
 * gnuplot renders from them (rft-plot(1) documents what the script holds). */
#include "figure.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/* Distinct colours (Okabe-Ito's, then Tol's); past the last one a series
 * differs by its dash type and marker (lines) or fill pattern (bars). */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000", "#882255",
                                      "#999933", "#888888", "#661100", "#332288"};
/* gnuplot's markers, shapes that stay apart when they overlap first */
static const int markers[] = {1, 2, 6, 4, 8, 12, 10, 3, 7, 5, 9, 13, 11};
enum { NCOLOURS = sizeof palette / sizeof *palette, NMARKERS = sizeof markers / sizeof *markers,
       NDASHES = 5, NPATTERNS = 7 };
/* Fonts and the layout estimates that decide how category labels go:
 * pixels, a character ~0.6 of the font size wide */
enum { FONT = 11, MIN_FONT = 7, LEFT = 70, MARKS_SHOWN = 25 };
enum { MAX_WIDTH = 32000 };     /* cairo draws no wider than 32767 */
#define CHAR_W(font) (0.6 * (font))
/* a label in mixed case, as cairo draws it to PNG (DejaVu Sans): wider */
#define TICK_W(font) (0.75 * (font))

static const char *const suffixes[] = {".svg", ".png", ".pdf"};

int fig_term_of(const char *output)
{
    size_t n = output ? strlen(output) : 0;
    for (int t = 0; t < 3; t++)
        if (n > 4 && strcasecmp(output + n - 4, suffixes[t]) == 0)
            return t;
    return -1;
}

/* Length of the UTF-8 character at p if text may hold it (no control
 * character but tab), else 0. */
static int char_len(const unsigned char *p)
{
    unsigned c = *p;
    int len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
            : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!len || (c < 0x20 && c != '\t') || c == 0x7f)
        return 0;
    for (int i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    /* overlong 3- and 4-byte forms, surrogates, beyond U+10FFFF */
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) ||
        (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
        return 0;
    return len;
}

/* s with what is not such a character as U+FFFD, and each byte of from as
 * the string of to at its index. */
static void put_text(FILE *o, const char *s, const char *from, const char *const *to)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int len = char_len(p);
        const char *swap = len == 1 ? strchr(from, *p) : NULL;
        if (!len)
            fputs("\xef\xbf\xbd", o);
        else if (swap)
            fputs(to[swap - from], o);
        else
            fwrite(p, 1, (size_t)len, o);
        p += len ? len : 1;
    }
}

static void put_plain(FILE *o, const char *s) { put_text(o, s, "", NULL); }

/* A gnuplot string: in single quotes, which only '' escapes; a tick label
 * is a format too, where % is %%. */
static void put_quoted(FILE *o, const char *s, int format)
{
    if (*s == '\'') {  /* gnuplot reads a leading '' as an empty string: "'0' duty" */
        putc('"', o);
        put_text(o, s, format ? "\\\"%" : "\\\"", (const char *const[]){"\\\\", "\\\"", "%%"});
        putc('"', o);
        return;
    }
    putc('\'', o);
    put_text(o, s, format ? "'%" : "'", (const char *const[]){"''", "%%"});
    putc('\'', o);
}

/* A file name for gnuplot: its bytes as they are (see fig_output). */
static void put_name(FILE *o, const char *s)
{
    putc('\'', o);
    for (; *s; s++)
        *s == '\'' ? (void)fputs("''", o) : (void)putc(*s, o);
    putc('\'', o);
}

/* A text cell of the data: gnuplot reads " as a quote, so it becomes '. */
static void put_cell(FILE *o, const char *s) { put_text(o, s, "\"", (const char *const[]){"'"}); }

/* The shortest form that reads back as v (100, not 1e+02). */
static void put_number(FILE *o, double v)
{
    char b[32];
    int whole = fabs(v) >= 1 && fabs(v) < 1e17 ? (int)floor(log10(fabs(v))) + 1 : 1;
    for (int digits = whole < 17 ? whole : 17; digits <= 17; digits++) {
        snprintf(b, sizeof b, "%.*g", digits, v);
        if (strtod(b, NULL) == v)
            break;
    }
    fputs(b, o);
}

static size_t chars(const char *s)      /* UTF-8 characters, for widths */
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static int has(const char *s) { return s && *s; }

/* The unit suffixes of the tables' column names, and how a label writes
 * them: "dvth_naive_mV" is "dvth_naive (mV)". */
static const char *const units[][2] = {
    {"%", "%"},         {"_mV", "mV"},     {"_mW", "mW"},   {"_W", "W"},     {"_nJ", "nJ"},
    {"_pJ", "pJ"},      {"_uJ", "uJ"},     {"_J", "J"},     {"_years", "years"},
    {"_hours", "hours"}, {"_h", "h"},      {"_ms", "ms"},   {"_us", "us"},   {"_ns", "ns"},
    {"_s", "s"},        {"_B", "bytes"},   {"_MHz", "MHz"}};
/* The duty columns of rft-duty and rft-vth (a stem, before the unit) in
 * words: a label "0%" would read as a number. */
static const char *const stems[][2] = {
    {"longest_0_cell_1", "'1' duty of the longest-'0' cell"},
    {"longest_0_cell_off", "time off of the longest-'0' cell"},
    {"longest_1_cell_0", "'0' duty of the longest-'1' cell"},
    {"longest_1_cell_off", "time off of the longest-'1' cell"},
    {"longest_0", "longest '0' duty"}, {"longest_1", "longest '1' duty"},
    {"avg_0", "average '0' duty"},     {"avg_1", "average '1' duty"},
    {"avg_off", "average time off"},   {"avg_stress", "average stress"},
    {"0", "'0' duty"},                 {"1", "'1' duty"},
    {"off", "time off"}};
enum { NUNITS = sizeof units / sizeof *units, NSTEMS = sizeof stems / sizeof *stems };

/* The unit suffix name ends in (-1: none); *stem: the length before it. */
static int unit_of(const char *name, size_t *stem)
{
    size_t n = strlen(name);
    for (int u = 0; u < NUNITS; u++) {
        size_t k = strlen(units[u][0]);
        if (n > k && strcmp(name + n - k, units[u][0]) == 0) {
            *stem = n - k;
            return u;
        }
    }
    *stem = n;
    return -1;
}

/* The words of a known stem that the first len bytes of name end in, at a
 * '_' or the start; *at: where it starts.  NULL: none. */
static const char *stem_words(const char *name, size_t len, size_t *at)
{
    for (int i = 0; i < NSTEMS; i++) {
        size_t k = strlen(stems[i][0]);
        if (len >= k && strncmp(name + len - k, stems[i][0], k) == 0 &&
            (len == k || name[len - k - 1] == '_')) {
            *at = len - k;
            return stems[i][1];
        }
    }
    return NULL;
}

char *fig_meaning(const char *name)
{
    size_t stem, at;
    int u = unit_of(name, &stem);
    const char *words = stem_words(name, stem, &at);
    const char *unit = u >= 0 ? units[u][1] : NULL;
    if (words && at)    /* "base_longest_0%": base: longest '0' duty (%) */
        return unit ? xasprintf("%.*s: %s (%s)", (int)(at - 1), name, words, unit)
                    : xasprintf("%.*s: %s", (int)(at - 1), name, words);
    if (words)
        return unit ? xasprintf("%s (%s)", words, unit) : xasprintf("%s", words);
    if (unit && stem)
        return xasprintf("%.*s (%s)", (int)stem, name, unit);
    return xasprintf("%s", name);
}

/* A key's title: the column's name, a unit suffix spelled out ("_mV" as
 * " (mV)"; a name ending in % is read as it is). */
static char *key_title(const char *name)
{
    size_t stem;
    int u = unit_of(name, &stem);
    if (u <= 0 || !stem)
        return xasprintf("%s", name);
    return xasprintf("%.*s (%s)", (int)stem, name, units[u][1]);
}

/* Whether a part of names shared by all the series means something as a
 * label: a known stem, or a letter before its unit ("0%" alone is not). */
static int meaningful(const char *part)
{
    size_t stem, at;
    unit_of(part, &stem);
    if (stem_words(part, stem, &at) && at == 0)
        return 1;
    for (int u = 0; u < NUNITS; u++)    /* "mV" of "dvth_naive_mV" is a unit alone */
        if (strcmp(part, units[u][0] + (units[u][0][0] == '_')) == 0)
            return 0;
    for (size_t i = 0; i < stem; i++)
        if ((part[i] >= 'a' && part[i] <= 'z') || (part[i] >= 'A' && part[i] <= 'Z'))
            return 1;
    return 0;
}

/* The length of the longest suffix all the names share that starts at a
 * '_' in each and leaves something before it; 0: none (or one name). */
static size_t shared_suffix(const fig_series *s, size_t ns)
{
    for (const char *suf = ns > 1 ? strchr(s[0].name, '_') : NULL; suf; suf = strchr(suf + 1, '_')) {
        size_t i = 0, n = strlen(suf);
        while (i < ns && strlen(s[i].name) > n && strcmp(s[i].name + strlen(s[i].name) - n, suf) == 0)
            i++;
        if (i == ns && suf[1])
            return n;
    }
    return 0;
}

char *fig_ylabel(const fig_series *s, size_t ns)
{
    if (ns == 1)
        return fig_meaning(s[0].name);
    /* the longest suffix all share that starts after a '_' in each */
    const char *suf = strchr(s[0].name, '_');
    for (; suf; suf = strchr(suf + 1, '_')) {
        size_t i = 0, n = strlen(suf);
        while (i < ns && strlen(s[i].name) > n && strcmp(s[i].name + strlen(s[i].name) - n, suf) == 0)
            i++;
        if (i == ns && suf[1] && meaningful(suf + 1))
            return fig_meaning(suf + 1);
    }
    /* the longest prefix all share that ends before a '_' in each */
    for (size_t n = strlen(s[0].name); n > 0; n--) {
        size_t i = 0;
        while (i < ns && strncmp(s[i].name, s[0].name, n) == 0 && s[i].name[n] == '_')
            i++;
        if (i == ns) {  /* and the unit all end in: "dvth (mV)" */
            size_t stem;
            int u = unit_of(s[0].name, &stem);
            for (i = 1; u >= 0 && i < ns; i++)
                u = unit_of(s[i].name, &stem) == u ? u : -1;
            return u >= 0 ? xasprintf("%.*s (%s)", (int)n, s[0].name, units[u][1])
                          : xasprintf("%.*s", (int)n, s[0].name);
        }
    }
    size_t len = 0;
    int pct = 1;
    for (size_t i = 0; i < ns; i++) {
        len += strlen(s[i].name) + 2;
        pct &= s[i].name[0] && s[i].name[strlen(s[i].name) - 1] == '%';
    }
    /* a list longer than a figure's height: the key names the series */
    if (len > FIG_YLABEL_MAX)
        return xasprintf(pct ? "%% (the series in the key)" : "value (the series in the key)");
    char *all = xrealloc(NULL, len + 1);
    all[0] = 0;
    for (size_t i = 0; i < ns; i++)
        strcat(strcat(all, i ? ", " : ""), s[i].name);
    return all;
}

/* ---- the axes ----------------------------------------------------------------- */

/* One end of an axis: a value, or gnuplot's (the tick past the data). */
typedef struct { int fixed; double v; } axis_end;

static void put_range(FILE *o, const char *axis, axis_end lo, axis_end hi)
{
    fprintf(o, "set %srange [", axis);
    lo.fixed ? put_number(o, lo.v) : (void)putc('*', o);
    putc(':', o);
    hi.fixed ? put_number(o, hi.v) : (void)putc('*', o);
    fputs("]\n", o);
}

/* The ends of the values of series [i0, i1); of stacked bars, the ends of
 * the stacks (each row's sums of its negative and its positive values). */
static void value_ends(const figure *f, size_t i0, size_t i1, double *vlo, double *vhi)
{
    *vlo = INFINITY;
    *vhi = -INFINITY;
    for (size_t r = 0; r < f->nrows; r++) {
        double neg = 0, pos = 0;
        int any = 0;
        for (size_t i = i0; i < i1; i++) {
            double v = f->s[i].v[r];
            if (isnan(v))
                continue;
            any = 1;
            if (f->kind == FIG_STACK) {
                neg += fmin(v, 0);
                pos += fmax(v, 0);
            } else {
                *vlo = fmin(*vlo, v);
                *vhi = fmax(*vhi, v);
            }
        }
        if (any && f->kind == FIG_STACK) {
            *vlo = fmin(*vlo, neg);
            *vhi = fmax(*vhi, pos);
        }
    }
}

/* The y axis of series [i0, i1) holds every value, and 0 under bars (they
 * grow from it): an end given inside them is widened, with a warning.  An
 * end not given is 0 where 0 bounds the values (lines start at 0 unless
 * below), else gnuplot's: the tick past the data. */
static void y_range(const figure *f, size_t i0, size_t i1, axis_end *lo, axis_end *hi)
{
    int bar = f->kind != FIG_LINE;
    double vlo, vhi;
    value_ends(f, i0, i1, &vlo, &vhi);
    double need_lo = bar ? fmin(vlo, 0) : vlo, need_hi = bar ? fmax(vhi, 0) : vhi;
    if (!isfinite(vhi - vlo) || !isfinite(need_hi - need_lo))
        die("%s: the values span too wide a range to plot", f->source);
    /* a stack of rounded shares may pass 100 by a rounding (100.01) */
    double slack = f->kind == FIG_STACK ? 1e-3 * (need_hi - need_lo) : 0;
    if (f->ymax_set && need_hi > f->ymax && need_hi - f->ymax <= slack)
        need_hi = f->ymax;
    if (f->ymin_set && need_lo < f->ymin && f->ymin - need_lo <= slack)
        need_lo = f->ymin;
    *lo = (axis_end){fmin(vlo, 0) == 0, fmin(vlo, 0)};
    *hi = (axis_end){bar && need_hi == 0, need_hi};
    const char *what[] = {"the smallest value", "the largest value", "a bar's end"};
    if (f->ymin_set && f->ymin > need_lo)
        warnx("warning: --ymin %g is above %s (%g): the y axis goes down to it", f->ymin,
              what[bar && need_lo == 0 ? 2 : 0], need_lo);
    else if (f->ymin_set)
        *lo = (axis_end){1, f->ymin};
    if (f->ymax_set && f->ymax < need_hi)
        warnx("warning: --ymax %g is below %s (%g): the y axis goes up to it", f->ymax,
              what[bar && need_hi == 0 ? 2 : 1], need_hi);
    else if (f->ymax_set)
        *hi = (axis_end){1, f->ymax};
    if (!(lo->v < hi->v)) {     /* all one value: widen by 1, unless 1 is lost in it */
        double d = fabs(lo->v) + 1 != fabs(lo->v) ? 1 : fabs(lo->v) * 1e-6;
        if (hi->fixed && f->ymax_set)
            *lo = (axis_end){1, hi->v - d};
        else
            *hi = (axis_end){1, lo->v + d};
        lo->fixed = 1;
    }
}

/* Whether a bar of series [0, ns) lies in [lo, hi) (absolute values). */
static int bar_within(const figure *f, double lo, double hi)
{
    for (size_t i = 0; i < f->ns; i++)
        for (size_t r = 0; r < f->nrows; r++)
            if (fabs(f->s[i].v[r]) >= lo && fabs(f->s[i].v[r]) < hi)
                return 1;
    return 0;
}

/* Bars on one axis: one under 1 % of the axis, with none between it and a
 * tenth of the axis (not the foot of a ramp), hardly shows beside the large
 * ones (seed 004 Fig. 11: 0.92 mW beside 191 mW); a warning names it. */
static void small_bars(const figure *f)
{
    double vlo, vhi;
    value_ends(f, 0, f->ns, &vlo, &vhi);
    double span = fmax(vhi, 0) - fmin(vlo, 0);
    for (size_t i = 0; i < f->ns; i++)
        for (size_t r = 0; r < f->nrows; r++) {
            double v = fabs(f->s[i].v[r]);
            if (!isnan(v) && v != 0 && v < span / 100 &&
                !bar_within(f, nextafter(v, INFINITY), span / 10)) {
                warnx("warning: %s: '%s' of '%s' (%g) is under 1%% of the y axis (%g) and "
                      "hardly shows: give it a column of its own and draw with --panels",
                      f->source, f->s[i].name, f->xcell[r], f->s[i].v[r], span);
                return;
            }
        }
}

/* ---- the layout of an axis of categories ----------------------------------------- */

/* Pixels: the font's size, a line of text, a caption's line. */
enum { LINE = 15, CAPTION_LINE = 14, GROUP_GAP = 1, GROUP_FIT = 6 };
/* A caption's lines at most: the plot keeps most of the figure's height. */
enum { CAPTION_LINES = 4 };

typedef struct {
    double font;        /* the tick labels' font size */
    int rot;            /* their angle: 0 (across), 45 or 90 */
    size_t maxlen;      /* characters of a label, past which it is cut */
    double *pos;        /* the x of each row: its index, a slot more per group before it */
    size_t ngroups;     /* clusters (--group), 0 without */
    size_t *gfirst;     /* the first row of each cluster, then nrows */
    double slot;        /* pixels from one category to the next */
    double tics;        /* pixels the tick labels take under the axis */
} cat_layout;

static size_t longest_cell(const char *const *cell, size_t n)
{
    size_t longest = 0;
    for (size_t r = 0; r < n; r++)
        longest = chars(cell[r]) > longest ? chars(cell[r]) : longest;
    return longest;
}

/* The pixels the key takes right of the plot. */
static double key_width(const figure *f)
{
    size_t name = 0;
    for (size_t i = 0; i < f->ns; i++)
        name = chars(f->s[i].name) > name ? chars(f->s[i].name) : name;
    return f->panels || f->kind == FIG_STACK ? 0 : 70 + TICK_W(FONT) * (double)name;
}

/* Panels: columns of them, and rows. */
static size_t panel_cols(const figure *f)
{
    return !f->panels ? 1 : f->kind == FIG_LINE ? (f->ns >= 4 ? 2 : 1) : (f->ns < 4 ? f->ns : 3);
}

static size_t panel_rows(const figure *f)
{
    return f->panels ? (f->ns + panel_cols(f) - 1) / panel_cols(f) : 1;
}

/* The height a tick label of len characters takes at the layout's angle. */
static double tick_extent(const cat_layout *L, size_t len)
{
    double w = TICK_W(L->font) * (double)len;
    return L->rot == 0 ? 1.3 * L->font : L->rot == 90 ? w : (w + L->font) * 0.70710678;
}

/* Category labels: across while they fit in their slot, else turned by 45
 * degrees where the slot leaves room between them, upright where not, in a
 * smaller font down to MIN_FONT; past that the figure is widened when its
 * width was not given, else a warning.  A label never takes more than a
 * quarter of the figure's height: a longer one is cut in its middle. */
static void category_layout(figure *f, cat_layout *L)
{
    L->pos = xrealloc(NULL, f->nrows * sizeof *L->pos);
    L->gfirst = xrealloc(NULL, (f->nrows + 1) * sizeof *L->gfirst);
    L->ngroups = 0;
    for (size_t r = 0; r < f->nrows; r++) {
        if (f->group && (r == 0 || strcmp(f->group[r], f->group[r - 1])))
            L->gfirst[L->ngroups++] = r;
        L->pos[r] = (double)r + (L->ngroups ? (double)(L->ngroups - 1) * GROUP_GAP : 0);
    }
    L->gfirst[L->ngroups] = f->nrows;
    double key = key_width(f);
    double n = f->nrows ? L->pos[f->nrows - 1] + 1 : 1, cols = (double)panel_cols(f);
    double width = (double)f->width / cols - LEFT - key;
    size_t longest = longest_cell(f->xcell, f->nrows);
    L->slot = width / n;
    L->font = FONT;
    L->rot = TICK_W(FONT) * (double)longest + 12 <= L->slot ? 0 : L->slot >= 1.8 * FONT ? 45 : 90;
    if (L->rot == 90 && L->slot >= 1.25 * MIN_FONT) {
        L->font = fmin(FONT, floor(L->slot / 1.25));
    } else if (L->rot == 90) {
        double need = ceil(cols * (LEFT + key + n * 1.25 * MIN_FONT));
        if (!f->width_set && need <= MAX_WIDTH) {
            f->width = (unsigned)need;
            L->slot = 1.25 * MIN_FONT;
        } else {
            warnx("warning: %zu category labels overlap at --width %u (%.0f would hold them)",
                  f->nrows, f->width, need);
        }
        L->font = MIN_FONT;
    }
    /* a group's label (a trace under its cluster of bars) needs GROUP_FIT
     * characters in its cluster's width: widened as above, else a warning */
    size_t narrowest = SIZE_MAX;
    for (size_t g = 0; g < L->ngroups; g++)
        if (L->gfirst[g + 1] - L->gfirst[g] < narrowest)
            narrowest = L->gfirst[g + 1] - L->gfirst[g];
    if (L->ngroups && L->slot * (double)(narrowest + GROUP_GAP) < TICK_W(FONT) * (GROUP_FIT + 2)) {
        double slot = TICK_W(FONT) * (GROUP_FIT + 2) / (double)(narrowest + GROUP_GAP);
        double need = ceil(cols * (LEFT + key + n * slot));
        if (!f->width_set && need <= MAX_WIDTH) {
            f->width = (unsigned)need;
            L->slot = slot;
        } else {
            warnx("warning: the labels of %zu groups are cut to fewer than %d characters at "
                  "--width %u (%.0f would hold them)", L->ngroups, GROUP_FIT, f->width, need);
        }
    }
    double quarter = f->height / 4.0 - 8;
    L->maxlen = longest;
    while (L->maxlen > 4 && tick_extent(L, L->maxlen) > quarter)
        L->maxlen--;
    L->tics = tick_extent(L, L->maxlen < longest ? L->maxlen : longest) + 8;
}

/* s in at most max characters: cut in its middle, an ellipsis in the cut
 * (allocated). */
static char *shorten(const char *s, size_t max)
{
    size_t n = chars(s);
    if (n <= max)
        return xstrdup(s);
    size_t head = (max - 1 + 1) / 2, tail = max - 1 - head, i = 0;
    const char *p = s, *cut = NULL, *rest = NULL;
    for (; *p; p++)
        if (((unsigned char)*p & 0xc0) != 0x80) {
            if (i == head)
                cut = p;
            if (i == n - tail)
                rest = p;
            i++;
        }
    return xasprintf("%.*s\xe2\x80\xa6%s", (int)(cut - s), s, rest ? rest : "");
}

/* ---- the script ---------------------------------------------------------------- */

static void put_terminal(FILE *o, const figure *f, int t, const char *stem, const char *figname)
{
    static const char *const term[] = {"svg", "pngcairo", "pdfcairo"};
    fprintf(o, "%sset terminal %s size ", t == (int)f->term ? "" : "# ", term[t]);
    if (t == FIG_PDF)   /* rounded up: cairo cuts the page to whole points */
        fprintf(o, "%gin,%gin", ceil(f->width / 96.0 * 1e4) / 1e4, ceil(f->height / 96.0 * 1e4) / 1e4);
    else
        fprintf(o, "%u,%u", f->width, f->height);
    /* noenhanced: _ ^ { } @ & in names are themselves, not markup */
    fprintf(o, " noenhanced font \"sans,%d\"%s", FONT,
            t == FIG_SVG ? " background rgb \"white\"" : t == FIG_PDF ? " fontscale 0.75" : "");
    fputs(t == (int)f->term ? "\nset output " : "; set output ", o);
    if (t == (int)f->term) {
        put_name(o, figname);
    } else {
        char *other = xasprintf("%s%s", stem, suffixes[t]);
        put_name(o, other);
        free(other);
    }
    putc('\n', o);
}

/* Markers on about MARKS_SHOWN points of a line, or on every one where a
 * series has a point alone between gaps (it would not show otherwise). */
static size_t mark_every(const figure *f, size_t i)
{
    const double *v = f->s[i].v;
    for (size_t r = 0; r < f->nrows; r++)
        if (!isnan(v[r]) && (r == 0 || isnan(v[r - 1])) && (r + 1 == f->nrows || isnan(v[r + 1])))
            return 1;
    return (f->nrows + MARKS_SHOWN - 1) / MARKS_SHOWN;
}

/* A note's head for the caption: up to " (" but its " [traces: ...]" (which
 * inputs it holds for; "[N traces]" when long), an absolute path by its
 * last name (a caption names no path of the machine).  Allocated. */
static char *caption_head(const char *t)
{
    const char *end = strstr(t, " ("), *which = strrchr(t, '[');
    size_t len = end ? (size_t)(end - t) : strlen(t);
    if (which && which < t + len)     /* inside the head already */
        which = NULL;
    char *head = xrealloc(NULL, len + 64), *o = head;
    for (size_t i = 0; i < len;) {
        if (t[i] == '/' && (i == 0 || t[i - 1] == ' ' || t[i - 1] == '=' || t[i - 1] == ':')) {
            size_t j = i, last = i;     /* the path's last name */
            while (j < len && t[j] != ' ' && t[j] != ',' && t[j] != ';')
                if (t[j++] == '/')
                    last = j;
            memcpy(o, t + last, j - last);
            o += j - last;
            i = j;
        } else {
            *o++ = t[i++];
        }
    }
    *o = 0;
    if (which && which[strlen(which) - 1] == ']') {
        const char *colon = strchr(which, ':');
        size_t wl = strlen(which), n = 1;
        for (const char *c = which; *c; c++)
            n += *c == ',';
        if (wl <= 32 || !colon)
            o += sprintf(o, " %.32s", which);
        else
            o += sprintf(o, " [%zu %.*s]", n, (int)(colon - which - 1 < 20 ? colon - which - 1 : 20),
                         which + 1);
    }
    return head;
}

/* The caption under the figure: the head of each note (caption_head) but
 * the long ones of the columns ("note:", "categories:", "estimate:"), each once, in at
 * most CAPTION_LINES lines of about the figure's width (the rest counted:
 * every note is in the data file); *n lines, allocated, NULL when there
 * are no notes. */
static char **caption(const figure *f, size_t *n)
{
    *n = 0;
    if (!f->nnotes)
        return NULL;
    size_t width = f->width / 7 > 40 ? f->width / 7 : 40, left = 0;
    char **line = xrealloc(NULL, (CAPTION_LINES + 1) * sizeof *line);
    char **seen = xrealloc(NULL, f->nnotes * sizeof *seen);
    size_t nseen = 0;
    line[(*n)++] = xstrdup("Assumed:");
    for (size_t i = 0; i < f->nnotes; i++) {
        const char *t = f->note[i];
        if (strstr(t, "note:") || strstr(t, "categories:") || strstr(t, "estimate:"))
            continue;           /* what a column is: the data file says it */
        char *h = caption_head(t);
        size_t k = 0;
        while (k < nseen && strcmp(seen[k], h))
            k++;
        if (k < nseen) {        /* said already */
            free(h);
            continue;
        }
        seen[nseen++] = h;
        char *cur = line[*n - 1];
        if (strlen(cur) + strlen(h) + 2 > width && strlen(cur) > 9) {
            if (*n == CAPTION_LINES) {
                left++;
                continue;
            }
            line[(*n)++] = xstrdup(h);
        } else {
            line[*n - 1] = xasprintf("%s%s %s", cur, strcmp(cur, "Assumed:") ? ";" : "", h);
            free(cur);
        }
    }
    for (size_t k = 0; k < nseen; k++)
        free(seen[k]);
    free(seen);
    /* the count and the pointer to the data file fit on the last line: its
     * last heads make room, counted with the rest (issue 36: the line ran
     * off the figure) */
    for (;;) {
        char *last = line[*n - 1], *cut, sfx[64];
        snprintf(sfx, sizeof sfx, left ? "; %zu more (every note: the data file)"
                                       : " (every note: the data file)", left);
        if (strlen(last) + strlen(sfx) <= width)
            break;
        if ((cut = strrchr(last, ';')) && cut - last >= 9) {
            *cut = 0;           /* its last head counted with the rest */
            left++;
        } else if (*n < CAPTION_LINES) {
            line[(*n)++] = xstrdup(left ? "and" : "");     /* the count on a line of its own */
            break;
        } else if (*n > 2) {
            free(last);         /* one long head: counted with the rest */
            (*n)--;
            left++;
        } else {
            break;
        }
    }
    char *last = line[*n - 1];
    line[*n - 1] = !*last ? xasprintf("(every note: the data file)")
                 : left ? xasprintf("%s%s %zu more (every note: the data file)", last,
                                    strcmp(last, "and") ? ";" : "", left)
                        : xasprintf("%s (every note: the data file)", last);
    free(last);
    return line;
}

/* What lies under the plot, from the bottom up: the caption, the x label,
 * the clusters' names and the tick labels, each at a height of its own (not
 * gnuplot's guess, which gives turned labels their whole length).  Returns
 * the pixels they take. */
static double put_bottom(FILE *o, const figure *f, const cat_layout *L)
{
    size_t n;
    char **line = caption(f, &n);
    double h = f->height, cap = n ? CAPTION_LINE * (double)n + 4 : 0;
    for (size_t i = 0; i < n; i++) {
        fprintf(o, "set label %zu ", 100 + i);
        put_quoted(o, line[i], 0);
        fprintf(o, " at screen 0.01, %.4f left font \",9\"\n",
                (CAPTION_LINE * (double)(n - i) - CAPTION_LINE / 2.0) / h);
        free(line[i]);
    }
    free(line);
    double xl = has(f->xlabel) ? LINE + 8 : 0, at = cap + xl;
    if (xl) {
        fputs("set label 90 ", o);
        put_quoted(o, f->xlabel, 0);
        fprintf(o, " at graph 0.5, screen %.4f center\n", (cap + xl / 2) / h);
    }
    if (L && L->ngroups) {
        for (size_t g = 0; g < L->ngroups; g++) {
            size_t a = L->gfirst[g], b = L->gfirst[g + 1] - 1;
            size_t fit = (size_t)(L->slot * (double)(b - a + 1 + GROUP_GAP) / TICK_W(FONT)) - 2;
            char *label = shorten(f->group[a], fit > 4 ? fit : 4);
            fprintf(o, "set label %zu ", 200 + g);
            put_quoted(o, label, 0);
            fprintf(o, " at first %g, screen %.4f center\n", (L->pos[a] + L->pos[b]) / 2,
                    (at + LINE / 2.0 + 2) / h);
            free(label);
        }
        at += LINE + 6;
    }
    return at + (L ? L->tics : 1.3 * FONT + 8) + 4;
}

/* A title wider than the figure in lines that fit, broken at spaces: in
 * double quotes, where \n breaks a line and \ and " are escaped (a title
 * of one line in single quotes, as every other string). */
static size_t title_fit(const figure *f)
{
    /* centred over the plot, which the key outside on the right pushes left */
    double centre = f->panels ? f->width / 2.0 : (LEFT + (double)f->width - key_width(f)) / 2;
    double half = fmin(centre, f->width - centre) - 10;
    return (size_t)fmax(2 * half / (1.15 * CHAR_W(FONT)), 10);
}

static void put_title(FILE *o, const figure *f, const char *t)
{
    size_t fit = title_fit(f), n = 0, all = chars(t);
    size_t lines = (all + fit - 1) / fit, per = lines > 1 ? (all + lines - 1) / lines : all;
    if (lines < 2) {
        put_quoted(o, t, 0);
        return;
    }
    const char *line = t, *brk = NULL;
    const char *const esc[] = {"\\\\", "\\\""};
    putc('"', o);
    for (const char *p = t; *p; p++) {
        n += ((unsigned char)*p & 0xc0) != 0x80;
        int here = *p == ' ' && n > per && n <= fit;   /* lines of about equal length */
        if (*p == ' ')
            brk = p;
        if (here || (n > fit && brk > line)) {
            char *part = xasprintf("%.*s", (int)(brk - line), line);
            put_text(o, part, "\\\"", esc);
            free(part);
            fputs("\\n", o);
            line = brk + 1;
            n = chars(line) - chars(p + 1);
            brk = NULL;
        }
    }
    put_text(o, line, "\\\"", esc);
    putc('"', o);
}

static void put_series_style(FILE *o, const figure *f, size_t i)
{
    fprintf(o, "set style line %zu lc rgb '%s' lw 1.5", i + 1, palette[i % NCOLOURS]);
    if (f->kind == FIG_LINE)
        fprintf(o, " dt %zu pt %d ps 0.8 pi %zu", f->panels ? 1 : i % NDASHES + 1, markers[i % NMARKERS],
                mark_every(f, i));
    putc('\n', o);
}

/* Series i's part of a plot command: rows [a, b] (every row: a > b). */
static void put_series(FILE *o, const figure *f, size_t i, size_t a, size_t b, int titled)
{
    fprintf(o, "data skip %zu ", 1 + f->nnotes);
    if (a <= b)
        fprintf(o, "every ::%zu::%zu ", a, b);
    fputs("using ", o);
    if (f->kind != FIG_LINE)
        fprintf(o, "%zu ls %zu", i + 2, i + 1);
    else
        fprintf(o, "%s:%zu with linespoints ls %zu", f->categories ? "0" : "1", i + 2, i + 1);
    if (f->kind != FIG_LINE && i >= NCOLOURS)
        fprintf(o, " fill pattern %zu border rgb 'black'", (i / NCOLOURS - 1) % NPATTERNS + 1);
    if (titled) {      /* a stack's part says what it is (its column in words) */
        char *t = f->kind == FIG_STACK ? fig_meaning(f->s[i].name) : key_title(f->s[i].name);
        fputs(" title ", o);
        put_quoted(o, t, 0);
        free(t);
    } else {
        fputs(" notitle", o);
    }
}

static void write_script(FILE *o, figure *f, const char *stem, const char *figname,
                         const char *data, const char *script)
{
    fputs("# ", o);
    put_plain(o, figname);
    fputs(": gnuplot draws it from the columns of ", o);
    put_plain(o, data);
    fputs(" (NaN: no value).\n# Made by rft-plot from ", o);
    put_plain(o, f->source);
    fputs("; edit it and rerun: gnuplot ", o);
    put_plain(o, script);
    fputs("\n# The data and the figure are beside this script, wherever gnuplot starts.\n"
          "dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne \"/\") "
          "{ dir = dir[1:strlen(dir) - 1] }\n"
          "if (strlen(dir) > 0) { cd dir }\n\n", o);
    size_t cols = panel_cols(f), rows = panel_rows(f);
    if (f->panels && !f->height_set && rows > 2)
        f->height = (unsigned)(100 + 170 * rows);
    cat_layout L = {0};
    if (f->categories)
        category_layout(f, &L);
    for (int t = 0; t < 3; t++)
        put_terminal(o, f, t, stem, figname);
    fputs("data = ", o);
    put_name(o, data);
    fputs("\nset datafile separator tab\nset datafile commentschars \"\"\n\n", o);
    /* the x label, the clusters and the caption are labels at heights of
     * their own under categories, panels or a caption (see put_bottom) */
    int own_bottom = f->categories || f->panels || f->nnotes;
    const char *labels[][2] = {{"title", f->panels ? NULL : f->title},
                               {"xlabel", own_bottom ? NULL : f->xlabel}, {"ylabel", f->ylabel}};
    for (int i = 0; i < 3; i++)
        if (has(labels[i][1])) {
            fprintf(o, "set %s ", labels[i][0]);
            i ? put_quoted(o, labels[i][1], 0) : put_title(o, f, labels[i][1]);
            putc('\n', o);
        }
    fputs("set border 3\nset tics nomirror\nset grid ytics lc rgb '#dddddd'\n", o);
    /* a stack's parts in a row over it: the clusters keep the width */
    fputs(f->panels ? "unset key\n" : f->kind == FIG_STACK ? "set key outside center top horizontal\n"
                                                            : "set key outside right top\n", o);
    double bottom = own_bottom ? put_bottom(o, f, f->categories ? &L : NULL) : 0;
    if (own_bottom && !f->panels)
        fprintf(o, "set bmargin at screen %.4f\n", bottom / f->height);
    if (f->categories) {
        double last = f->nrows ? L.pos[f->nrows - 1] : 0;
        put_range(o, "x", (axis_end){1, -0.5}, (axis_end){1, last + 0.5});
        fputs("set xtics ( \\\n", o);
        for (size_t r = 0; r < f->nrows; r++) {
            char *label = shorten(f->xcell[r], L.maxlen);
            fputs("    ", o);
            put_quoted(o, label, 1);
            fprintf(o, " %g%s\n", L.pos[r], r + 1 < f->nrows ? ", \\" : " \\");
            free(label);
        }
        fputs(")\n", o);
        if (L.rot)
            fprintf(o, "set xtics rotate by %d right font \",%.0f\"\n", L.rot, L.font);
        /* a label turned by 45 degrees reaches left of its tick */
        double reach = L.rot == 45 && f->nrows && !f->panels
                           ? tick_extent(&L, chars(f->xcell[0]) < L.maxlen ? chars(f->xcell[0]) : L.maxlen)
                           : 0;
        if (reach > LEFT + L.slot / 2 - 4)
            fprintf(o, "set lmargin at screen %.4f\n", (reach - L.slot / 2 + 4) / f->width);
    } else {
        double xlo = f->x[0], xhi = f->x[0];
        for (size_t r = 1; r < f->nrows; r++) {
            xlo = fmin(xlo, f->x[r]);
            xhi = fmax(xhi, f->x[r]);
        }
        if (!isfinite(xhi - xlo))
            die("%s: the x values span too wide a range to plot", f->source);
        if (xlo == xhi) {       /* one x value: in the middle */
            double d = fabs(f->x[0]) + 0.5 != fabs(f->x[0]) ? 0.5 : fabs(f->x[0]) * 1e-6;
            put_range(o, "x", (axis_end){1, f->x[0] - d}, (axis_end){1, f->x[0] + d});
        } else {
            fputs("set autoscale xfix\n", o);
        }
    }
    axis_end lo, hi;
    if (!f->panels) {
        y_range(f, 0, f->ns, &lo, &hi);
        put_range(o, "y", lo, hi);
    }
    if (f->kind == FIG_BAR)
        fputs("set style data histograms\nset style histogram clustered gap 1\n"
              "set style fill solid 1.0 border rgb 'black'\n", o);
    if (f->kind == FIG_STACK)
        fputs("set style data histograms\nset style histogram rowstacked\n"
              "set boxwidth 0.75 relative\nset style fill solid 1.0 border rgb 'black'\n", o);
    if (f->kind == FIG_BAR && !f->panels)
        small_bars(f);
    fputs("\n# a style per series: its colour, then dash type and marker (lines)\n", o);
    for (size_t i = 0; i < f->ns; i++)
        put_series_style(o, f, i);
    if (f->panels) {
        double top = (has(f->title) ? 16 + 18 * (double)((chars(f->title) + title_fit(f) - 1) /
                                                         title_fit(f)) : 0) + 28;
        fprintf(o, "\n# a panel per series, each with its own y axis\n"
                "set multiplot layout %zu,%zu", rows, cols);
        if (has(f->title)) {
            fputs(" title ", o);
            put_title(o, f, f->title);
        }
        fprintf(o, " margins screen %.4f, %.4f, %.4f, %.4f spacing screen %.4f, %.4f\n",
                (double)LEFT / f->width, 1 - 16.0 / f->width, bottom / f->height,
                1 - top / f->height, (LEFT + 16.0) / f->width,
                ((f->categories ? L.tics : 1.3 * FONT + 8) + 40) / f->height);
        size_t shared = shared_suffix(f->s, f->ns);
        for (size_t i = 0; i < f->ns; i++) {
            /* over the panel what sets it apart ("base" of base_longest_0%),
             * beside it what it holds where --ylabel gave nothing */
            const char *name = f->s[i].name;
            char *t = shared ? xasprintf("%.*s", (int)(strlen(name) - shared), name) : key_title(name);
            fputs("set title ", o);
            put_quoted(o, t, 0);
            free(t);
            putc('\n', o);
            if (!f->ylabel) {
                t = fig_meaning(name);
                fputs("set ylabel ", o);
                put_quoted(o, t, 0);
                putc('\n', o);
                free(t);
            }
            y_range(f, i, i + 1, &lo, &hi);
            put_range(o, "y", lo, hi);
            fputs("plot ", o);
            put_series(o, f, i, 1, 0, 0);
            /* the caption and the x label once, under the first panel's labels */
            fputs(i == 0 ? "\nunset label\n" : "\n", o);
        }
        fputs("unset multiplot\n", o);
    } else {
        fputs("\nplot ", o);
        for (size_t g = 0; g < (L.ngroups ? L.ngroups : 1); g++) {
            size_t a = L.ngroups ? L.gfirst[g] : 1, b = L.ngroups ? L.gfirst[g + 1] - 1 : 0;
            if (L.ngroups)
                fprintf(o, "%snewhistogram at %g, ", g ? ", \\\n     " : "", L.pos[a]);
            for (size_t i = 0; i < f->ns; i++) {
                fputs(i ? ", \\\n     " : "", o);
                put_series(o, f, i, a, b, g == 0);
            }
        }
        putc('\n', o);
    }
    free(L.pos);
    free(L.gfirst);
}

static void write_data(FILE *o, const figure *f)
{
    for (size_t i = 0; i < f->nnotes; i++) {
        fputs("# ", o);
        put_cell(o, f->note[i]);
        putc('\n', o);
    }
    put_cell(o, f->xname);
    for (size_t i = 0; i < f->ns; i++) {
        putc('\t', o);
        put_cell(o, f->s[i].name);
    }
    if (f->group) {             /* last: the series keep their columns */
        putc('\t', o);
        put_cell(o, f->gname);
    }
    putc('\n', o);
    for (size_t r = 0; r < f->nrows; r++) {
        f->categories ? put_cell(o, f->xcell[r]) : put_number(o, f->x[r]);
        for (size_t i = 0; i < f->ns; i++) {
            putc('\t', o);
            isnan(f->s[i].v[r]) ? (void)fputs("NaN", o) : put_number(o, f->s[i].v[r]);
        }
        if (f->group) {
            putc('\t', o);
            put_cell(o, f->group[r]);
        }
        putc('\n', o);
    }
}

/* ---- the files ----------------------------------------------------------------- */

/* The temporary folder and what is in it, removed at exit: whatever is
 * still there was not renamed into place. */
enum { DATA, SCRIPT, FIG };
static struct {
    char *dir, *path[3];
} tmp;

static void drop_tmp(void)
{
    for (int i = 0; i < 3; i++) {
        if (tmp.path[i])
            unlink(tmp.path[i]);
        free(tmp.path[i]);
        tmp.path[i] = NULL;
    }
    if (tmp.dir)
        rmdir(tmp.dir);
    free(tmp.dir);
    tmp.dir = NULL;
}

/* A file of the temporary folder; name: its final name, for messages. */
static FILE *create(const char *path, const char *name)
{
    FILE *o = fopen(path, "w");
    if (!o)
        die("%s: %s", name, strerror(errno));
    return o;
}

static void finish(FILE *o, const char *name)
{
    if (fflush(o) != 0 || ferror(o) || fclose(o) != 0)
        die("%s: %s", name, strerror(errno));
}

/* gnuplot on the script, without the user's ~/.gnuplot (-d); its messages
 * go to standard error, never into our output. */
static void render(const char *script, const char *name)
{
    extern char **environ;
    char *argv[] = {"gnuplot", "-d", (char *)script, NULL};
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int e, status;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 2, 1);
    fflush(stdout);
    e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e == ENOENT)
        die("gnuplot: not found: install it (Debian: apt-get install gnuplot-nox), "
            "or write the script alone with --no-render");
    if (e)
        die("gnuplot: %s", strerror(e));
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            die("gnuplot: %s", strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status))
        die("%s: gnuplot failed (%s %d)", name, WIFEXITED(status) ? "exit status" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

int fig_beside(const char *output)
{
    struct stat st;
    return output && strcmp(output, "-") && !(stat(output, &st) == 0 && !S_ISREG(st.st_mode));
}

int fig_output(figure *f, const char *output, int render_it)
{
    struct stat st;
    int beside = fig_beside(output);
    const char *slash = beside ? strrchr(output, '/') : NULL, *base = slash ? slash + 1 : output;
    int dirlen = slash ? (int)(slash - output + 1) : 0, t = fig_term_of(output);
    char *stem = beside ? xasprintf("%.*s", (int)strlen(base) - (t >= 0 ? 4 : 0), base)
                        : xasprintf("figure");
    char *figname = beside ? xasprintf("%s", base) : xasprintf("figure%s", suffixes[f->term]);
    /* an SVG's script and data are NAME.gp and NAME.data.tsv, a PNG's or a
     * PDF's NAME.png.gp and NAME.png.data.tsv: one name drawn in two formats
     * keeps two scripts */
    const char *own = beside && (t == FIG_PNG || t == FIG_PDF) ? base : stem;
    char *data = xasprintf("%s.data.tsv", own), *script = xasprintf("%s.gp", own);
    const char *names[] = {data, script, figname};
    for (const char *c = figname; *c; c++)      /* a gnuplot string is one line */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            die("%s: a control character in the name: gnuplot cannot take it", output);
    if (beside) {
        tmp.dir = xasprintf("%.*s.rft-plot-XXXXXX", dirlen, output);
    } else {
        const char *td = getenv("TMPDIR");
        tmp.dir = xasprintf("%s/rft-plot-XXXXXX", td && *td ? td : "/tmp");
    }
    if (!mkdtemp(tmp.dir)) {
        int e = errno;
        die("%s: %s", beside ? output : tmp.dir, strerror(e));
    }
    atexit(drop_tmp);
    for (int i = 0; i < 3; i++)
        tmp.path[i] = xasprintf("%s/%s", tmp.dir, names[i]);
    char *final[3];
    for (int i = 0; i < 3; i++)
        final[i] = xasprintf("%.*s%s", dirlen, output ? output : "", names[i]);
    FILE *o = create(tmp.path[DATA], final[DATA]);
    write_data(o, f);
    finish(o, final[DATA]);
    o = create(tmp.path[SCRIPT], final[SCRIPT]);
    write_script(o, f, stem, figname, data, script);
    finish(o, final[SCRIPT]);
    if (render_it) {
        render(tmp.path[SCRIPT], beside ? final[SCRIPT] : "the figure's script");
        if (stat(tmp.path[FIG], &st) != 0 || st.st_size == 0)
            die("%s: gnuplot wrote no figure", beside ? final[FIG] : "standard output");
    }
    int status = 0;
    if (beside) {
        for (int i = 0; i < (render_it ? 3 : 2); i++)
            if (rename(tmp.path[i], final[i]) != 0)
                die("%s: %s", final[i], strerror(errno));
    } else {
        size_t n;
        /* the figure in memory, to copy to a stream once the temporary folder is gone */
        char *fig = cli_read_file(tmp.path[FIG], 0, &n);
        if (!fig)
            die("gnuplot wrote no figure: %s", strerror(errno));
        drop_tmp();
        o = cli_output_open(output);
        size_t put = fwrite(fig, 1, n, o);
        free(fig);
        if (put != n)
            die("%s: %s", o == stdout ? "standard output" : output, strerror(errno));
        status = cli_output_close(o);
    }
    for (int i = 0; i < 3; i++)
        free(final[i]);
    free(stem);
    free(figname);
    free(data);
    free(script);
    return status;
}
