/* rft-collect - the cross-trace table of a batch (rft-batch(1)): the
 * per-trace result tables joined by their first column (scheme, scenario),
 * one row per trace and key, then the mean over the traces of each key, as
 * the seeds tabulate a benchmark suite. */
#include <getopt.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-collect [--format table|tsv|csv|json] [--columns LIST|all] [--key KEY | --pivot COL]\n"
    "                   [--partial] [-o FILE] DIR [RESULT...]\n"
    "The results of every trace of the batch folder DIR side by side: a row per trace\n"
    "and scheme (the first column of each result), then the mean row of each scheme.\n";

/* Files rft-batch(1) writes into DIR for us. */
#define TRACES_FILE "traces.tsv"
#define CONF_FILE "collect.conf"

static struct {
    const char *dir;
    char **results;             /* per-trace result files, joined in this order */
    size_t nresults;
    char **label;               /* traces, in the order of traces.tsv */
    size_t ntraces;
    unsigned char *skip;        /* --partial: trace left out */
    char **key, **col;          /* keys and columns, in first-seen order */
    size_t nkeys, ncols;
    char *keyname;              /* the first result's first column */
    char **val;                 /* the cells, as read */
    size_t nvals;
    rft_map at;                 /* trace << 42 | key << 21 | col -> index in val */
} g;

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

/* DIR/a/b (b may be NULL): allocated */
static char *path_of(const char *a, const char *b)
{
    size_t n = strlen(g.dir) + strlen(a) + (b ? strlen(b) : 0) + 3;
    char *p = xrealloc(NULL, n);
    snprintf(p, n, b ? "%s/%s/%s" : "%s/%s", g.dir, a, b);
    return p;
}

/* Index of s in *list (of *n), appended when absent. */
static size_t intern(char ***list, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i], s) == 0)
            return i;
    *list = xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[*n] = xstrdup(s);
    return (*n)++;
}

static uint64_t cell_key(size_t t, size_t k, size_t c)
{
    return (uint64_t)t << 42 | (uint64_t)k << 21 | c;
}

static const char *get(size_t t, size_t k, size_t c)
{
    uint64_t *v = rft_map_get(&g.at, cell_key(t, k, c));
    return v ? g.val[*v] : NULL;
}

static void put(size_t t, const char *key, const char *col, const char *v)
{
    size_t k = intern(&g.key, &g.nkeys, key), c = intern(&g.col, &g.ncols, col);
    if (k >= 1u << 21 || c >= 1u << 21)
        die("%s: more than 2097151 keys or columns", g.dir);
    g.val = xrealloc(g.val, (g.nvals + 1) * sizeof *g.val);
    g.val[g.nvals] = xstrdup(v);
    if (rft_map_put(&g.at, cell_key(t, k, c), g.nvals++))
        die("out of memory");
}

/* The name a column of result r gets: its own, unless an earlier result has
 * one of that name, then "STEM.name" (STEM: the result's name up to a dot). */
static char *column_name(size_t r, const char *name, char ***owner_names, size_t **owner,
                         size_t *nowned)
{
    size_t i = intern(owner_names, nowned, name);
    if (i + 1 == *nowned) {
        *owner = xrealloc(*owner, *nowned * sizeof **owner);
        (*owner)[i] = r;
    }
    if ((*owner)[i] == r)
        return xstrdup(name);
    const char *dot = strchr(g.results[r], '.');
    int stem = dot ? (int)(dot - g.results[r]) : (int)strlen(g.results[r]);
    size_t n = (size_t)stem + strlen(name) + 2;
    char *s = xrealloc(NULL, n);
    snprintf(s, n, "%.*s.%s", stem, g.results[r], name);
    return s;
}

/* The changes rft-vth gives against its first map, after each other map's
 * column: MAP_red% (a reduction) and MAP_increase% (a lifetime's). */
static const char *const change_suffix[] = {"_red%", "_increase%"};
#define NCHANGE 2

/* "longest_0%" -> "longest_0_red%": a metric's change */
static char *change_name(const char *metric, int k)
{
    size_t n = strlen(metric);
    if (n && metric[n - 1] == '%')
        n--;
    return xasprintf("%.*s%s", (int)n, metric, change_suffix[k]);
}

static int is_change(const char *col)
{
    size_t n = strlen(col);
    for (int k = 0; k < NCHANGE; k++) {
        size_t m = strlen(change_suffix[k]);
        if (n >= m && strcmp(col + n - m, change_suffix[k]) == 0)
            return 1;
    }
    return 0;
}

/* One result table of trace t.  rft-vth's layout (scope, metric, a column
 * per map and its changes) is turned to a row per map; any other table has
 * its key in the first column. */
static void read_result(size_t t, size_t r, char ***owner_names, size_t **owner, size_t *nowned)
{
    char *path = path_of(g.label[t], g.results[r]);
    cli_tsv tab;
    cli_tsv_read(path, path, &tab);
    int vth = tab.ncols >= 3 && strcmp(tab.col[0], "scope") == 0 &&
              strcmp(tab.col[1], "metric") == 0;
    if (!g.keyname)
        g.keyname = xstrdup(vth ? "scheme" : tab.col[0]);
    if (!vth) {
        for (size_t c = 1; c < tab.ncols; c++) {
            char *name = column_name(r, tab.col[c], owner_names, owner, nowned);
            for (size_t row = 0; row < tab.nrows; row++)
                put(t, cli_tsv_at(&tab, row, 0), name, cli_tsv_at(&tab, row, c));
            free(name);
        }
        cli_tsv_free(&tab);
        free(path);
        return;
    }
    /* the rows of scope all (several slices together), else of the first scope */
    const char *scope = cli_tsv_at(&tab, 0, 0);
    for (size_t row = 0; row < tab.nrows; row++)
        if (strcmp(cli_tsv_at(&tab, row, 0), "all") == 0)
            scope = "all";
    /* each map's column (map[c]) and the columns of its changes, if any */
    int *map = xrealloc(NULL, tab.ncols * sizeof *map);
    size_t *chg = xrealloc(NULL, tab.ncols * NCHANGE * sizeof *chg);
    for (size_t c = 2; c < tab.ncols; c++) {
        size_t n = strlen(tab.col[c]);
        map[c] = !is_change(tab.col[c]);
        for (int k = 0; k < NCHANGE; k++) {
            chg[c * NCHANGE + k] = 0;
            for (size_t c2 = 2; map[c] && c2 < tab.ncols; c2++)
                if (strncmp(tab.col[c2], tab.col[c], n) == 0 &&
                    strcmp(tab.col[c2] + n, change_suffix[k]) == 0)
                    chg[c * NCHANGE + k] = c2;
        }
    }
    /* a metric's changes follow it, where rft-vth gives them */
    for (size_t row = 0; row < tab.nrows; row++) {
        if (strcmp(cli_tsv_at(&tab, row, 0), scope))
            continue;
        const char *metric = cli_tsv_at(&tab, row, 1);
        char *name = column_name(r, metric, owner_names, owner, nowned);
        for (size_t c = 2; c < tab.ncols; c++)
            if (map[c])
                put(t, tab.col[c], name, cli_tsv_at(&tab, row, c));
        for (int k = 0; k < NCHANGE; k++) {
            char *cn = change_name(metric, k), *cname = NULL;
            for (size_t c = 2; c < tab.ncols; c++) {
                size_t at = map[c] ? chg[c * NCHANGE + k] : 0;
                if (!at || !*cli_tsv_at(&tab, row, at))
                    continue;
                if (!cname)
                    cname = column_name(r, cn, owner_names, owner, nowned);
                put(t, tab.col[c], cname, cli_tsv_at(&tab, row, at));
            }
            free(cn);
            free(cname);
        }
        free(name);
    }
    free(map);
    free(chg);
    cli_tsv_free(&tab);
    free(path);
}

/* DIR/traces.tsv: LABEL<TAB>TRACE a line, in the batch's order. */
static void read_traces(void)
{
    char *path = path_of(TRACES_FILE, NULL);
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: not a batch folder: no %s (see rft-batch(1))", g.dir, TRACES_FILE);
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) != -1) {
        lineno++;
        if (n && line[n - 1] == '\n')
            line[--n] = 0;
        if (!n || line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        if (tab)
            *tab = 0;
        if (!*line || strchr(line, '/') || strcmp(line, "mean") == 0 || line[0] == '.')
            die("%s: line %zu: '%s' is not a trace label", path, lineno, line);
        g.label = xrealloc(g.label, (g.ntraces + 1) * sizeof *g.label);
        g.label[g.ntraces++] = xstrdup(line);
    }
    if (ferror(f))
        die("%s: read error", path);
    fclose(f);
    free(line);
    if (!g.ntraces)
        die("%s: no traces", path);
    free(path);
}

/* DIR/collect.conf: "results FILE..." and "columns A,B,..." lines, the
 * study's defaults (command-line operands and options win). */
static char *read_conf(int want_results)
{
    char *path = path_of(CONF_FILE, NULL), *columns = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        free(path);
        return NULL;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) != -1) {
        if (n && line[n - 1] == '\n')
            line[--n] = 0;
        char *v = line + strcspn(line, " \t");
        if (*v)
            *v++ = 0;
        v += strspn(v, " \t");
        if (strcmp(line, "columns") == 0) {
            free(columns);
            columns = xstrdup(v);
        } else if (strcmp(line, "results") == 0 && want_results) {
            for (char *w = strtok(v, " \t"); w; w = strtok(NULL, " \t")) {
                g.results = xrealloc(g.results, (g.nresults + 1) * sizeof *g.results);
                g.results[g.nresults++] = xstrdup(w);
            }
        }
    }
    fclose(f);
    free(line);
    free(path);
    return columns;
}

/* Is every result of trace t there?  Else its first missing one. */
static const char *missing_result(size_t t)
{
    for (size_t r = 0; r < g.nresults; r++) {
        char *p = path_of(g.label[t], g.results[r]);
        FILE *f = fopen(p, "r");
        free(p);
        if (!f)
            return g.results[r];
        fclose(f);
    }
    return NULL;
}

/* A cell as strtod reads it whole, nan and inf included. */
static int parse_value(const char *s, double *v)
{
    char *end;
    if (!*s)
        return 0;
    *v = strtod(s, &end);
    return !*end;
}

static int decimals_of(const char *s)
{
    const char *dot = strchr(s, '.');
    return dot ? (int)strspn(dot + 1, "0123456789") : 0;
}

/* One value cell: a number unquoted (nan and inf too), text quoted, none
 * empty. */
static void value_cell(cli_table *tb, const char *s)
{
    double v;
    if (!s || !*s)
        table_none(tb);
    else if (parse_value(s, &v))
        table_num(tb, s);
    else
        table_str(tb, s);
}

/* The mean over the traces of key k in column c: as many decimals as the
 * most precise value (2 for a mean of integers that is not one); NULL when a
 * value is text or no trace has one. */
static const char *mean_cell(size_t k, size_t c, char *buf, size_t size)
{
    double sum = 0, v;
    size_t n = 0;
    int dec = 0, expo = 0;
    for (size_t t = 0; t < g.ntraces; t++) {
        const char *s = g.skip[t] ? NULL : get(t, k, c);
        if (!s || !*s)
            continue;
        if (!parse_value(s, &v))
            return NULL;
        sum += v;
        n++;
        dec = decimals_of(s) > dec ? decimals_of(s) : dec;
        expo |= strpbrk(s, "eE") && isfinite(v);
    }
    if (!n)
        return NULL;
    double m = sum / (double)n;
    if (isnan(m))
        return "nan";
    if (isinf(m))
        return m > 0 ? "inf" : "-inf";
    if (expo)
        snprintf(buf, size, "%.6g", m);
    else
        snprintf(buf, size, "%.*f", !dec && m != floor(m) ? 2 : dec, m);
    return buf;
}

/* Selected columns: LIST (comma-separated names), all, or every column. */
static size_t *select_columns(const char *list, size_t *n)
{
    size_t *sel = xrealloc(NULL, (g.ncols + 1) * sizeof *sel);
    *n = 0;
    if (!list || strcmp(list, "all") == 0) {
        for (size_t c = 0; c < g.ncols; c++)
            sel[(*n)++] = c;
        return sel;
    }
    char *copy = xstrdup(list);
    for (char *p = copy, *comma; p; p = comma ? comma + 1 : NULL) {
        if ((comma = strchr(p, ',')))
            *comma = 0;
        size_t c = 0;
        while (c < g.ncols && strcmp(g.col[c], p))
            c++;
        if (c == g.ncols)
            usage_error("--columns: '%s' is not a column of the results in %s", p, g.dir);
        sel = xrealloc(sel, (*n + 1) * sizeof *sel);
        sel[(*n)++] = c;
    }
    free(copy);
    return sel;
}

static size_t find_key(const char *k)
{
    for (size_t i = 0; i < g.nkeys; i++)
        if (strcmp(g.key[i], k) == 0)
            return i;
    usage_error("--key: '%s' is not a %s of the results in %s", k, g.keyname, g.dir);
}

static size_t find_col(const char *name)
{
    for (size_t c = 0; c < g.ncols; c++)
        if (strcmp(g.col[c], name) == 0)
            return c;
    usage_error("--pivot: '%s' is not a column of the results in %s", name, g.dir);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"format", required_argument, 0, 'f'},
        {"columns", required_argument, 0, 'c'}, {"key", required_argument, 0, 'k'},
        {"pivot", required_argument, 0, 'p'},  {"partial", no_argument, 0, 'P'},
        {0, 0, 0, 0}};
    const char *output = "-", *columns = NULL, *only_key = NULL, *pivot = NULL;
    enum cli_fmt fmt = FMT_TABLE;
    int partial = 0, c;
    cli_init(argc, argv, usage);
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'f': fmt = cli_format(optarg); break;
        case 'c': columns = optarg; break;
        case 'k': only_key = optarg; break;
        case 'p': pivot = optarg; break;
        case 'P': partial = 1; break;
        default: cli_bad_option(argv);
        }
    }
    if (optind == argc)
        usage_error("no batch folder");
    if (only_key && pivot)
        usage_error("--key and --pivot do not go together");
    g.dir = argv[optind++];
    for (int i = optind; i < argc; i++) {
        if (!*argv[i] || strchr(argv[i], '/'))
            usage_error("'%s' is not the name of a result in a trace's folder", argv[i]);
        g.results = xrealloc(g.results, (g.nresults + 1) * sizeof *g.results);
        g.results[g.nresults++] = xstrdup(argv[i]);
    }
    read_traces();
    char *conf_columns = read_conf(!g.nresults);
    if (!g.nresults)
        die("%s: no results named (none on the command line, none in %s)", g.dir, CONF_FILE);
    if (!columns)
        columns = conf_columns;

    g.skip = xrealloc(NULL, g.ntraces);
    size_t complete = 0;
    for (size_t t = 0; t < g.ntraces; t++) {
        const char *m = missing_result(t);
        g.skip[t] = m != NULL;
        complete += !m;
        if (m && !partial)
            die("%s/%s: no %s: the trace is not done (rft-batch --status %s)", g.dir,
                g.label[t], m, g.dir);
        if (m)
            warnx("warning: %s/%s: no %s: left out", g.dir, g.label[t], m);
    }
    if (!complete)
        die("%s: no trace is done", g.dir);
    if (rft_map_init(&g.at, 1024))
        die("out of memory");
    char **owner_names = NULL;
    size_t *owner = NULL, nowned = 0;
    for (size_t t = 0; t < g.ntraces; t++)
        for (size_t r = 0; r < g.nresults && !g.skip[t]; r++)
            read_result(t, r, &owner_names, &owner, &nowned);

    FILE *o = cli_output_open(output);
    char buf[64];
    size_t nsel, k0 = only_key ? find_key(only_key) : 0;
    size_t *sel = pivot ? NULL : select_columns(columns, &nsel);
    cli_table *tb;
    if (pivot) {                /* a row per trace, a column per key */
        size_t pc = find_col(pivot), n = 0;
        size_t *keys = xrealloc(NULL, (g.nkeys + 1) * sizeof *keys);
        for (size_t k = 0; k < g.nkeys; k++)
            for (size_t t = 0; t < g.ntraces; t++)
                if (!g.skip[t] && get(t, k, pc)) {
                    keys[n++] = k;
                    break;
                }
        const char **names = xrealloc(NULL, (n + 1) * sizeof *names);
        names[0] = "trace";
        for (size_t i = 0; i < n; i++)
            names[i + 1] = g.key[keys[i]];
        tb = table_new(fmt, o, (int)n + 1, names);
        for (size_t t = 0; t <= g.ntraces; t++) {
            if (t < g.ntraces && g.skip[t])
                continue;
            table_str(tb, t < g.ntraces ? g.label[t] : "mean");
            for (size_t i = 0; i < n; i++)
                value_cell(tb, t < g.ntraces ? get(t, keys[i], pc)
                                             : mean_cell(keys[i], pc, buf, sizeof buf));
            table_end_row(tb);
        }
        table_free(tb);
        free(names);
        free(keys);
    } else {                    /* a row per trace and key, then the means */
        int lead = only_key ? 1 : 2;
        const char **names = xrealloc(NULL, (nsel + 2) * sizeof *names);
        names[0] = "trace";
        names[1] = g.keyname;
        for (size_t i = 0; i < nsel; i++)
            names[i + lead] = g.col[sel[i]];
        tb = table_new(fmt, o, (int)nsel + lead, names);
        for (size_t t = 0; t <= g.ntraces; t++) {
            if (t < g.ntraces && g.skip[t])
                continue;
            for (size_t k = only_key ? k0 : 0; k < (only_key ? k0 + 1 : g.nkeys); k++) {
                int present = 0;
                for (size_t u = 0; u < g.ntraces && !present; u++)
                    for (size_t i = 0; i < g.ncols && !present; i++)
                        present = !g.skip[u] && (u == t || t == g.ntraces) && get(u, k, i);
                if (!present)
                    continue;
                table_str(tb, t < g.ntraces ? g.label[t] : "mean");
                if (!only_key)
                    table_str(tb, g.key[k]);
                for (size_t i = 0; i < nsel; i++)
                    value_cell(tb, t < g.ntraces ? get(t, k, sel[i])
                                                 : mean_cell(k, sel[i], buf, sizeof buf));
                table_end_row(tb);
            }
        }
        table_free(tb);
        free(names);
    }
    free(sel);
    free(conf_columns);
    for (size_t i = 0; i < nowned; i++)
        free(owner_names[i]);
    free(owner_names);
    free(owner);
    return cli_output_close(o);
}
