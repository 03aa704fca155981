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

char *fig_ylabel(const fig_series *s, size_t ns)
{
    if (ns == 1)
        return xasprintf("%s", s[0].name);
    /* the longest suffix all share that starts after a '_' in each */
    const char *suf = strchr(s[0].name, '_');
    for (; suf; suf = strchr(suf + 1, '_')) {
        size_t i = 0, n = strlen(suf);
        while (i < ns && strlen(s[i].name) > n && strcmp(s[i].name + strlen(s[i].name) - n, suf) == 0)
            i++;
        if (i == ns && suf[1])
            return xasprintf("%s", suf + 1);
    }
    /* the longest prefix all share that ends before a '_' in each */
    for (size_t n = strlen(s[0].name); n > 0; n--) {
        size_t i = 0;
        while (i < ns && strncmp(s[i].name, s[0].name, n) == 0 && s[i].name[n] == '_')
            i++;
        if (i == ns)
            return xasprintf("%.*s", (int)n, s[0].name);
    }
    size_t len = 0;
    for (size_t i = 0; i < ns; i++)
        len += strlen(s[i].name) + 2;
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

/* The y axis holds every value, and 0 under bars (they grow from it): an end
 * given inside them is widened, with a warning.  An end not given is 0
 * where 0 bounds the values (lines start at 0 unless below), else gnuplot's:
 * the tick past the data. */
static void y_range(const figure *f, axis_end *lo, axis_end *hi)
{
    int bar = f->kind == FIG_BAR;
    double vlo = INFINITY, vhi = -INFINITY;
    for (size_t i = 0; i < f->ns; i++)
        for (size_t r = 0; r < f->nrows; r++)
            if (!isnan(f->s[i].v[r])) {
                vlo = fmin(vlo, f->s[i].v[r]);
                vhi = fmax(vhi, f->s[i].v[r]);
            }
    double need_lo = bar ? fmin(vlo, 0) : vlo, need_hi = bar ? fmax(vhi, 0) : vhi;
    if (!isfinite(vhi - vlo) || !isfinite(need_hi - need_lo))
        die("%s: the values span too wide a range to plot", f->source);
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

/* Category labels: across while they fit in their slot, else upright in a
 * smaller font down to MIN_FONT; past that the figure is widened when its
 * width was not given, else a warning.  Returns the font, 0 when across. */
static double category_font(figure *f)
{
    size_t longest = 0, name = 0;
    for (size_t r = 0; r < f->nrows; r++)
        longest = chars(f->xcell[r]) > longest ? chars(f->xcell[r]) : longest;
    for (size_t i = 0; i < f->ns; i++)
        name = chars(f->s[i].name) > name ? chars(f->s[i].name) : name;
    double key = 40 + CHAR_W(FONT) * (double)name, n = (double)f->nrows;
    double slot = ((double)f->width - LEFT - key) / n;
    if (CHAR_W(FONT) * (double)longest + 8 <= slot)
        return 0;
    if (slot >= 1.25 * MIN_FONT)
        return fmin(FONT, floor(slot / 1.25));
    double need = ceil(LEFT + key + n * 1.25 * MIN_FONT);
    if (!f->width_set && need <= MAX_WIDTH)
        f->width = (unsigned)need;
    else
        warnx("warning: %zu category labels overlap at --width %u (%.0f would hold them)",
              f->nrows, f->width, need);
    return MIN_FONT;
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

/* The caption under the figure: the head of each note (up to " (") but the
 * long ones of the columns ("note:", "categories:"), in lines of about the
 * figure's width; *n lines, allocated, NULL when there are no notes. */
static char **caption(const figure *f, size_t *n)
{
    *n = 0;
    if (!f->nnotes)
        return NULL;
    size_t width = f->width / 7 > 40 ? f->width / 7 : 40;
    char **line = xrealloc(NULL, (f->nnotes + 2) * sizeof *line);
    line[(*n)++] = xstrdup("Assumed:");
    for (size_t i = 0; i < f->nnotes; i++) {
        const char *t = f->note[i];
        if (strstr(t, "note:") || strstr(t, "categories:"))
            continue;
        const char *end = strstr(t, " (");
        int len = end ? (int)(end - t) : (int)strlen(t);
        char *cur = line[*n - 1];
        if (strlen(cur) + (size_t)len + 2 > width && strlen(cur) > 9) {
            line = xrealloc(line, (*n + 2) * sizeof *line);
            line[(*n)++] = xasprintf("%.*s", len, t);
        } else {
            line[*n - 1] = xasprintf("%s%s %.*s", cur, strcmp(cur, "Assumed:") ? ";" : "", len, t);
            free(cur);
        }
    }
    char *last = line[*n - 1];
    line[*n - 1] = xasprintf("%s (every note: the data file)", last);
    free(last);
    return line;
}

/* The caption as labels under the plot, the plot raised to make room. */
static void put_caption(FILE *o, const figure *f, double tic_font)
{
    size_t n;
    char **line = caption(f, &n);
    if (!line)
        return;
    double step = 14.0 / f->height;
    fprintf(o, "set bmargin at screen %.4f\n", step * (double)n + (tic_font ? 0.3 : 0.1));
    for (size_t i = 0; i < n; i++) {
        fprintf(o, "set label %zu ", 100 + i);
        put_quoted(o, line[i], 0);
        fprintf(o, " at screen 0.01, %.4f left font \",9\"\n", step * (double)(n - i) - step / 2);
        free(line[i]);
    }
    free(line);
}

static void write_script(FILE *o, figure *f, const char *stem, const char *figname,
                         const char *data)
{
    fputs("# ", o);
    put_plain(o, figname);
    fputs(": gnuplot draws it from the columns of ", o);
    put_plain(o, data);
    fputs(" (NaN: no value).\n# Made by rft-plot from ", o);
    put_plain(o, f->source);
    fputs("; edit it and rerun: gnuplot ", o);
    put_plain(o, stem);
    fputs(".gp\n# The data and the figure are beside this script, wherever gnuplot starts.\n"
          "dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne \"/\") "
          "{ dir = dir[1:strlen(dir) - 1] }\n"
          "if (strlen(dir) > 0) { cd dir }\n\n", o);
    double tic_font = f->categories ? category_font(f) : 0;
    for (int t = 0; t < 3; t++)
        put_terminal(o, f, t, stem, figname);
    fputs("data = ", o);
    put_name(o, data);
    fputs("\nset datafile separator tab\nset datafile commentschars \"\"\n\n", o);
    const char *labels[][2] = {{"title", f->title}, {"xlabel", f->xlabel}, {"ylabel", f->ylabel}};
    for (int i = 0; i < 3; i++)
        if (has(labels[i][1])) {
            fprintf(o, "set %s ", labels[i][0]);
            put_quoted(o, labels[i][1], 0);
            putc('\n', o);
        }
    fputs("set border 3\nset tics nomirror\nset grid ytics lc rgb '#dddddd'\n"
          "set key outside right top\n", o);
    put_caption(o, f, tic_font);
    axis_end lo, hi;
    if (f->categories) {
        put_range(o, "x", (axis_end){1, -0.5}, (axis_end){1, (double)f->nrows - 0.5});
        fputs("set xtics ( \\\n", o);
        for (size_t r = 0; r < f->nrows; r++) {
            fputs("    ", o);
            put_quoted(o, f->xcell[r], 1);
            fprintf(o, " %zu%s\n", r, r + 1 < f->nrows ? ", \\" : " \\");
        }
        fputs(")\n", o);
        if (tic_font)
            fprintf(o, "set xtics rotate by 90 right font \",%.0f\"\n", tic_font);
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
    y_range(f, &lo, &hi);
    put_range(o, "y", lo, hi);
    if (f->kind == FIG_BAR)
        fputs("set style data histograms\nset style histogram clustered gap 1\n"
              "set style fill solid 1.0 border rgb 'black'\n", o);
    fputs("\n# a style per series: its colour, then dash type and marker (lines)\n", o);
    for (size_t i = 0; i < f->ns; i++) {
        fprintf(o, "set style line %zu lc rgb '%s' lw 1.5", i + 1, palette[i % NCOLOURS]);
        if (f->kind == FIG_LINE)
            fprintf(o, " dt %zu pt %d ps 0.8 pi %zu", i % NDASHES + 1, markers[i % NMARKERS],
                    mark_every(f, i));
        putc('\n', o);
    }
    fputs("\nplot ", o);
    for (size_t i = 0; i < f->ns; i++) {
        fprintf(o, "%sdata skip %zu using ", i ? ", \\\n     " : "", 1 + f->nnotes);
        if (f->kind == FIG_BAR)
            fprintf(o, "%zu ls %zu", i + 2, i + 1);
        else
            fprintf(o, "%s:%zu with linespoints ls %zu", f->categories ? "0" : "1", i + 2, i + 1);
        if (f->kind == FIG_BAR && i >= NCOLOURS)
            fprintf(o, " fill pattern %zu border rgb 'black'", (i / NCOLOURS - 1) % NPATTERNS + 1);
        fputs(" title ", o);
        put_quoted(o, f->s[i].name, 0);
    }
    putc('\n', o);
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
    putc('\n', o);
    for (size_t r = 0; r < f->nrows; r++) {
        f->categories ? put_cell(o, f->xcell[r]) : put_number(o, f->x[r]);
        for (size_t i = 0; i < f->ns; i++) {
            putc('\t', o);
            isnan(f->s[i].v[r]) ? (void)fputs("NaN", o) : put_number(o, f->s[i].v[r]);
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

/* The rendered figure into memory (*n bytes), to copy to a stream after the
 * temporary folder is gone. */
static char *slurp(const char *path, size_t *n)
{
    FILE *in = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    if (!in)
        die("gnuplot wrote no figure: %s", strerror(errno));
    do {
        buf = xrealloc(buf, cap += 1 << 16);
        *n += fread(buf + *n, 1, cap - *n, in);
    } while (*n == cap);
    if (ferror(in))
        die("gnuplot's figure: %s", strerror(errno));
    fclose(in);
    return buf;
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
    char *data = xasprintf("%s.data.tsv", stem), *script = xasprintf("%s.gp", stem);
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
    write_script(o, f, stem, figname, data);
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
        char *fig = slurp(tmp.path[FIG], &n);
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
