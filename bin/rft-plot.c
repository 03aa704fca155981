/* rft-plot - columns of a TSV table (rft-vth, rft-duty --summary, ...) as a
 * figure drawn by gnuplot: lines over a numeric x, grouped or stacked bars
 * over categories (in clusters by a column), a panel per series on request, with the data and an editable gnuplot script beside it
 * (bin/figure.c).  The seeds' figures from the tables the report programs
 * print. */
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "figure.h"

static const char usage[] =
    "rft-plot [-o FILE] [-x COL] [-y COL[,COL...]] [--kind line|bar|stack] [--group COL]\n"
    "         [--panels] [--title TEXT] [--xlabel TEXT] [--ylabel TEXT] [--ymin N] [--ymax N]\n"
    "         [--width PX] [--height PX] [--terminal svg|png|pdf] [--no-render] [FILE]\n"
    "Columns of a TSV table as a figure drawn by gnuplot\n"
    "\n"
    "  -o, --output FILE      Write the figure to FILE, and beside it its gnuplot script (to "
    "edit and rerun) and its data: NAME.gp and NAME.data.tsv for NAME.svg, FILE.gp and "
    "FILE.data.tsv for a PNG or PDF; default: the figure to standard output\n"
    "  -x, --x COL            The x column, by its exact name (default: the first column)\n"
    "  -y, --y COL[,COL...]   The series: column names, each of which may hold wildcards, "
    "and must match at least one column\n"
    "      --kind line|bar|stack  Lines, grouped bars, or stacked bars: a bar per row, the "
    "series stacked in it (default: lines on a numeric x, grouped bars on categories)\n"
    "      --group COL        Bars in clusters: the rows in a row with the same COL, the "
    "cluster named under its bars (a trace's schemes); not with lines or --panels\n"
    "      --panels           Each series in a panel of its own, with its own y axis and "
    "the series' name over it (multiplot), instead of all on one axis\n"
    "      --title TEXT       A title over the figure (default none)\n"
    "      --xlabel TEXT      The x axis label (default: the x column's name; \"\" for "
    "none)\n"
    "      --ylabel TEXT      The y axis label (default: what the series' names share, in "
    "words)\n"
    "      --ymin N           The bottom of the y axis, lowered (with a warning) to the "
    "smallest value when that is lower\n"
    "      --ymax N           The top of the y axis, raised (with a warning) to the largest "
    "value when that is higher\n"
    "      --width PX         The width of the figure, 200 to 10000 pixels (default 800; wider when category labels or --group's names need it)\n"
    "      --height PX        The height of the figure, 200 to 10000 pixels (default 480)\n"
    "      --terminal svg|png|pdf  The format of the figure (gnuplot's svg, pngcairo or "
    "pdfcairo terminal)\n"
    "      --no-render        Write the script and data beside -o FILE but do not run "
    "gnuplot\n";

typedef struct {
    const char *input, *output, *xname, *gname;
    char **pats;                /* -y patterns, in the order given */
    size_t npats;
    const char *term;           /* --terminal */
    int kind, render;           /* kind: -1 until known */
    size_t gcol;                /* --group's column; SIZE_MAX: none */
    cli_tsv tab;
    figure f;
} plot_cli;

/* A cell without a value: empty or nan (a gap, not text to warn about). */
static int missing(const char *s)
{
    return !*s || strcasecmp(s + (*s == '-' || *s == '+'), "nan") == 0;
}

/* Numbers and missing cells, at least one number. */
static int numeric(const cli_tsv *t, size_t col)
{
    size_t n = 0;
    double v;
    for (size_t r = 0; r < t->nrows; r++) {
        if (cli_number(cli_tsv_at(t, r, col), &v))
            n++;
        else if (!missing(cli_tsv_at(t, r, col)))
            return 0;
    }
    return n > 0;
}

static int percent(const cli_tsv *t, size_t col)
{
    const char *name = t->col[col];
    return *name && name[strlen(name) - 1] == '%';
}

/* The series: columns matching -y (in header order, each once; a pattern
 * with wildcards never picks the x column); by default the numeric columns
 * but x, only those named ...% if there are any (not counts beside shares). */
static void select_series(plot_cli *plot, size_t xcol)
{
    const cli_tsv *t = &plot->tab;
    figure *f = &plot->f;
    fig_series *s = NULL;
    size_t n = 0, pct = 0;
    unsigned char *hit = xrealloc(NULL, plot->npats);
    memset(hit, 0, plot->npats);
    for (size_t c = 0; c < t->ncols && !plot->npats; c++)
        pct |= c != xcol && c != plot->gcol && numeric(t, c) && percent(t, c);
    for (size_t c = 0; c < t->ncols; c++) {
        int take = 0;
        for (size_t p = 0; p < plot->npats; p++)
            if (fnmatch(plot->pats[p], t->col[c], 0) == 0 &&
                ((c != xcol && c != plot->gcol) || !strpbrk(plot->pats[p], "*?[")))
                take = hit[p] = 1;
        if (!plot->npats)
            take = c != xcol && c != plot->gcol && numeric(t, c) && (!pct || percent(t, c));
        if (!take)
            continue;
        s = xrealloc(s, (n + 1) * sizeof *s);
        s[n].name = t->col[c];
        s[n].v = xrealloc(NULL, t->nrows * sizeof(double));
        size_t text = 0, gaps = 0;
        for (size_t r = 0; r < t->nrows; r++)
            if (!cli_number(cli_tsv_at(t, r, c), &s[n].v[r])) {
                s[n].v[r] = NAN;
                gaps++;
                text += !missing(cli_tsv_at(t, r, c));
            }
        if (gaps == t->nrows)
            die("%s: column '%s': no cell is a number", f->source, t->col[c]);
        if (text)
            warnx("warning: %s: column '%s': %zu %s (left out)", f->source, t->col[c], text,
                  text == 1 ? "cell is not a number" : "cells are not numbers");
        n++;
    }
    for (size_t p = 0; p < plot->npats; p++)
        if (!hit[p])
            usage_error("-y: '%s' matches no column of %s", plot->pats[p], f->source);
    free(hit);
    if (!n)
        die("%s: no column other than '%s' holds numbers: nothing to plot (see -y)", f->source,
            t->col[xcol]);
    f->s = s;
    f->ns = n;
}

/* The column named name, or a usage error naming the option. */
static size_t column(const plot_cli *plot, const char *opt, const char *name)
{
    size_t c = 0;
    while (c < plot->tab.ncols && strcmp(plot->tab.col[c], name))
        c++;
    if (c == plot->tab.ncols)
        usage_error("%s: '%s' is not a column of %s", opt, name, plot->f.source);
    return c;
}

/* The x axis: numbers, or the rows as categories (under bars always). */
static void x_axis(plot_cli *plot, size_t xcol)
{
    const cli_tsv *t = &plot->tab;
    figure *f = &plot->f;
    f->xname = t->col[xcol];
    f->nrows = t->nrows;
    f->xcell = xrealloc(NULL, f->nrows * sizeof *f->xcell);
    f->x = xrealloc(NULL, f->nrows * sizeof *f->x);
    int numx = 1;
    for (size_t r = 0; r < f->nrows; r++) {
        f->xcell[r] = cli_tsv_at(t, r, xcol);
        numx &= cli_number(f->xcell[r], &f->x[r]);
    }
    f->kind = plot->kind >= 0 ? plot->kind : numx ? FIG_LINE : FIG_BAR;
    f->categories = !numx || f->kind != FIG_LINE;
}

/* Options into plot; usage errors that need no input. */
static void parse(int argc, char **argv, plot_cli *plot)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'},  {"x", required_argument, 0, 'x'},
        {"y", required_argument, 0, 'y'},       {"kind", required_argument, 0, 'k'},
        {"title", required_argument, 0, 't'},   {"xlabel", required_argument, 0, 'X'},
        {"ylabel", required_argument, 0, 'Y'},  {"ymin", required_argument, 0, 'm'},
        {"ymax", required_argument, 0, 'M'},    {"width", required_argument, 0, 'w'},
        {"height", required_argument, 0, 'h'},  {"terminal", required_argument, 0, 'T'},
        {"no-render", no_argument, 0, 'n'},     {"group", required_argument, 0, 'g'},
        {"panels", no_argument, 0, 'P'},        {0, 0, 0, 0}};
    figure *f = &plot->f;
    int c;
    argc = cli_take_quiet(argc, argv);   /* --quiet: no progress to silence, but taken */
    cli_init(argc, argv, usage);
    while ((c = cli_getopt(argc, argv, "o:x:y:", opts)) != -1) {
        switch (c) {
        case 'o': plot->output = optarg; break;
        case 'x': plot->xname = optarg; break;
        case 'y':
            if (!optarg[strspn(optarg, ",")])
                usage_error("-y: no column named");
            for (char *p = strtok(optarg, ","); p; p = strtok(NULL, ",")) {
                plot->pats = xrealloc(plot->pats, (plot->npats + 1) * sizeof *plot->pats);
                plot->pats[plot->npats++] = p;
            }
            break;
        case 'k': plot->kind = cli_choice("--kind", optarg, FIG_KINDS); break;
        case 'g': plot->gname = optarg; break;
        case 'P': f->panels = 1; break;
        case 't': f->title = optarg; break;
        case 'X': f->xlabel = optarg; break;
        case 'Y': f->ylabel = optarg; break;
        case 'm': f->ymin = cli_double("--ymin", optarg, -HUGE_VAL, HUGE_VAL), f->ymin_set = 1; break;
        case 'M': f->ymax = cli_double("--ymax", optarg, -HUGE_VAL, HUGE_VAL), f->ymax_set = 1; break;
        case 'w': f->width = (unsigned)cli_uint("--width", optarg, 200, 10000), f->width_set = 1; break;
        case 'h': f->height = (unsigned)cli_uint("--height", optarg, 200, 10000), f->height_set = 1; break;
        case 'T': plot->term = optarg; break;
        case 'n': plot->render = 0; break;
        default: cli_bad_option(argv);
        }
    }
    plot->input = cli_input(argc, argv);
    f->source = strcmp(plot->input, "-") ? plot->input : "standard input";
    if (f->ymin_set && f->ymax_set && !(f->ymin < f->ymax))
        usage_error("--ymin %g is not below --ymax %g", f->ymin, f->ymax);
    int named = fig_term_of(plot->output);
    f->term = plot->term ? cli_choice("--terminal", plot->term, FIG_TERMS)
                        : named >= 0 ? named : FIG_SVG;
    if (named >= 0 && (int)f->term != named)
        usage_error("--terminal %s does not match -o %s", plot->term, plot->output);
    if (plot->gname && plot->kind == FIG_LINE)
        usage_error("--group draws bars in clusters: not with --kind line");
    if (plot->gname && f->panels)
        usage_error("--group draws clusters on one axis: not with --panels");
    if (!plot->render && !fig_beside(plot->output))
        usage_error("--no-render writes the script and data beside -o FILE: name a file");
}

/* Lines chosen without -y drawn on one axis at most: beyond, panels (bars
 * stay clusters, told apart by colour and hatching). */
#define PLOT_MAX_OVERLAY 6

int main(int argc, char **argv)
{
    plot_cli plot = {.kind = -1, .render = 1, .gcol = SIZE_MAX, .f = {.width = 800, .height = 480}};
    figure *f = &plot.f;
    parse(argc, argv, &plot);

    cli_tsv_read(plot.input, f->source, &plot.tab);
    f->note = plot.tab.note;    /* what the input assumed: kept in the data, captioned */
    f->nnotes = plot.tab.nnotes;
    size_t xcol = plot.xname ? column(&plot, "-x", plot.xname) : 0;
    if (plot.gname) {
        size_t gcol = plot.gcol = column(&plot, "--group", plot.gname);
        if (gcol == xcol)
            usage_error("--group %s: the clusters and the bars are one column", plot.gname);
        if (plot.kind < 0)
            plot.kind = FIG_BAR;
        f->gname = plot.gname;
        f->group = xrealloc(NULL, plot.tab.nrows * sizeof *f->group);
        for (size_t r = 0; r < plot.tab.nrows; r++)
            f->group[r] = cli_tsv_at(&plot.tab, r, gcol);
    }
    select_series(&plot, xcol);
    x_axis(&plot, xcol);
    /* more series than one axis keeps legible, chosen by default: a panel
       each (nothing left out; -y draws fewer on one axis) */
    if (!plot.npats && f->ns > PLOT_MAX_OVERLAY && f->kind == FIG_LINE && !f->panels) {
        f->panels = 1;
        warnx("warning: %s: %zu series, more than %d on one axis: each in a panel of its own "
              "(-y picks the ones to draw together)", f->source, f->ns, PLOT_MAX_OVERLAY);
    }
    /* panels: each its own y label where --ylabel gives none */
    char *ylabel = f->ylabel || f->panels ? NULL : fig_ylabel(f->s, f->ns);
    f->xlabel = f->xlabel ? f->xlabel : f->xname;
    f->ylabel = f->ylabel ? f->ylabel : ylabel;
    int status = fig_output(f, plot.output, plot.render);
    for (size_t i = 0; i < f->ns; i++)
        free(f->s[i].v);
    free(f->s);
    free(f->xcell);
    free(f->x);
    free(f->group);
    free(ylabel);
    free(plot.pats);
    cli_tsv_free(&plot.tab);
    return status;
}
