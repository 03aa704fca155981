/* crosstab.c - the cross-trace table of a batch (crosstab.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crosstab.h"

void crosstab_init(crosstab *x)
{
    if (rft_map_init(&x->at, 1024))
        die("out of memory");
    notes_init(&x->nt, x->ntraces, (const char *const *)x->label, "traces");
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void crosstab_free(crosstab *x)
{
    free_list(x->results, x->nresults);
    free_list(x->label, x->ntraces);
    free(x->skip);
    free_list(x->key, x->nkeys);
    free_list(x->col, x->ncols);
    free(x->keyname);
    free_list(x->val, x->nvals);
    rft_map_free(&x->at);
    free_list(x->owned, x->nowned);
    free(x->owner);
    notes_free(&x->nt);
}

void crosstab_note(crosstab *x, size_t t, const char *text) { notes_add(&x->nt, t, text); }

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

static const char *get(const crosstab *x, size_t t, size_t k, size_t c)
{
    uint64_t *v = rft_map_get(&x->at, cell_key(t, k, c));
    return v ? x->val[*v] : NULL;
}

static void put(crosstab *x, size_t t, const char *key, const char *col, const char *v)
{
    size_t k = intern(&x->key, &x->nkeys, key), c = intern(&x->col, &x->ncols, col);
    if (k >= 1u << 21 || c >= 1u << 21)
        die("%s: more than 2097151 keys or columns", x->dir);
    x->val = xrealloc(x->val, (x->nvals + 1) * sizeof *x->val);
    x->val[x->nvals] = xstrdup(v);
    if (rft_map_put(&x->at, cell_key(t, k, c), x->nvals++))
        die("out of memory");
}

/* The name a column of result r gets: its own, unless an earlier result has
 * one of that name, then "STEM.name" (STEM: the result's name up to a dot). */
static char *column_name(crosstab *x, size_t r, const char *name)
{
    size_t i = intern(&x->owned, &x->nowned, name);
    if (i + 1 == x->nowned) {
        x->owner = xrealloc(x->owner, x->nowned * sizeof *x->owner);
        x->owner[i] = r;
    }
    if (x->owner[i] == r)
        return xstrdup(name);
    const char *dot = strchr(x->results[r], '.');
    int stem = dot ? (int)(dot - x->results[r]) : (int)strlen(x->results[r]);
    size_t n = (size_t)stem + strlen(name) + 2;
    char *s = xrealloc(NULL, n);
    snprintf(s, n, "%.*s.%s", stem, x->results[r], name);
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

/* rft-vth's table: a row per map, a column per metric of one scope (and of
 * its changes, where rft-vth gives them) */
static void add_vth(crosstab *x, size_t t, size_t r, const cli_tsv *tab)
{
    /* the rows of scope all (several slices together), else of the first scope */
    const char *scope = cli_tsv_at(tab, 0, 0);
    for (size_t row = 0; row < tab->nrows; row++)
        if (strcmp(cli_tsv_at(tab, row, 0), "all") == 0)
            scope = "all";
    /* each map's column (map[c]) and the columns of its changes, if any */
    int *map = xrealloc(NULL, tab->ncols * sizeof *map);
    size_t *chg = xrealloc(NULL, tab->ncols * NCHANGE * sizeof *chg);
    for (size_t c = 2; c < tab->ncols; c++) {
        size_t n = strlen(tab->col[c]);
        map[c] = !is_change(tab->col[c]);
        for (int k = 0; k < NCHANGE; k++) {
            chg[c * NCHANGE + k] = 0;
            for (size_t c2 = 2; map[c] && c2 < tab->ncols; c2++)
                if (strncmp(tab->col[c2], tab->col[c], n) == 0 &&
                    strcmp(tab->col[c2] + n, change_suffix[k]) == 0)
                    chg[c * NCHANGE + k] = c2;
        }
    }
    /* a metric's changes follow it, where rft-vth gives them */
    for (size_t row = 0; row < tab->nrows; row++) {
        if (strcmp(cli_tsv_at(tab, row, 0), scope))
            continue;
        const char *metric = cli_tsv_at(tab, row, 1);
        char *name = column_name(x, r, metric);
        for (size_t c = 2; c < tab->ncols; c++)
            if (map[c])
                put(x, t, tab->col[c], name, cli_tsv_at(tab, row, c));
        for (int k = 0; k < NCHANGE; k++) {
            char *cn = change_name(metric, k), *cname = NULL;
            for (size_t c = 2; c < tab->ncols; c++) {
                size_t at = map[c] ? chg[c * NCHANGE + k] : 0;
                if (!at || !*cli_tsv_at(tab, row, at))
                    continue;
                if (!cname)
                    cname = column_name(x, r, cn);
                put(x, t, tab->col[c], cname, cli_tsv_at(tab, row, at));
            }
            free(cn);
            free(cname);
        }
        free(name);
    }
    free(map);
    free(chg);
}

void crosstab_add(crosstab *x, size_t t, size_t r, const cli_tsv *tab)
{
    int vth = tab->ncols >= 3 && strcmp(tab->col[0], "scope") == 0 &&
              strcmp(tab->col[1], "metric") == 0;
    if (!x->keyname)
        x->keyname = xstrdup(vth ? "scheme" : tab->col[0]);
    if (vth) {
        add_vth(x, t, r, tab);
        return;
    }
    for (size_t c = 1; c < tab->ncols; c++) {
        char *name = column_name(x, r, tab->col[c]);
        for (size_t row = 0; row < tab->nrows; row++)
            put(x, t, cli_tsv_at(tab, row, 0), name, cli_tsv_at(tab, row, c));
        free(name);
    }
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
static const char *mean_cell(const crosstab *x, size_t k, size_t c, char *buf, size_t size)
{
    double sum = 0, v;
    size_t n = 0;
    int dec = 0, expo = 0;
    for (size_t t = 0; t < x->ntraces; t++) {
        const char *s = x->skip[t] ? NULL : get(x, t, k, c);
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

/* Trace t's cell (t == ntraces: the mean) of key k, column c. */
static void cell(const crosstab *x, cli_table *tb, size_t t, size_t k, size_t c)
{
    char buf[64];
    value_cell(tb, t < x->ntraces ? get(x, t, k, c) : mean_cell(x, k, c, buf, sizeof buf));
}

/* Selected columns: LIST (comma-separated names), all, or every column. */
static size_t *select_columns(const crosstab *x, const char *list, size_t *n)
{
    size_t *sel = xrealloc(NULL, (x->ncols + 1) * sizeof *sel);
    *n = 0;
    if (!list || strcmp(list, "all") == 0) {
        for (size_t c = 0; c < x->ncols; c++)
            sel[(*n)++] = c;
        return sel;
    }
    char *copy = xstrdup(list);
    for (char *p = copy, *comma; p; p = comma ? comma + 1 : NULL) {
        if ((comma = strchr(p, ',')))
            *comma = 0;
        size_t c = 0;
        while (c < x->ncols && strcmp(x->col[c], p))
            c++;
        if (c == x->ncols)
            usage_error("--columns: '%s' is not a column of the results in %s", p, x->dir);
        sel = xrealloc(sel, (*n + 1) * sizeof *sel);
        sel[(*n)++] = c;
    }
    free(copy);
    return sel;
}

static size_t find_key(const crosstab *x, const char *k)
{
    for (size_t i = 0; i < x->nkeys; i++)
        if (strcmp(x->key[i], k) == 0)
            return i;
    usage_error("--key: '%s' is not a %s of the results in %s", k, x->keyname, x->dir);
}

static size_t find_col(const crosstab *x, const char *name)
{
    for (size_t c = 0; c < x->ncols; c++)
        if (strcmp(x->col[c], name) == 0)
            return c;
    usage_error("--pivot: '%s' is not a column of the results in %s", name, x->dir);
}

/* The notes of a table of columns names (n): those given, then the
 * estimates (cli.h table_note says them in each format). */
static void put_notes(const crosstab *x, cli_table *tb, const char *const *names, size_t n)
{
    notes_put(&x->nt, tb, x->skip);
    notes_estimates(tb, names, n);
}

/* a row per trace, a column per key */
static void print_pivot(const crosstab *x, FILE *o, enum cli_fmt fmt, const char *pivot)
{
    size_t pc = find_col(x, pivot), n = 0;
    size_t *keys = xrealloc(NULL, (x->nkeys + 1) * sizeof *keys);
    for (size_t k = 0; k < x->nkeys; k++)
        for (size_t t = 0; t < x->ntraces; t++)
            if (!x->skip[t] && get(x, t, k, pc)) {
                keys[n++] = k;
                break;
            }
    const char **names = xrealloc(NULL, (n + 1) * sizeof *names);
    names[0] = "trace";
    for (size_t i = 0; i < n; i++)
        names[i + 1] = x->key[keys[i]];
    cli_table *tb = table_new(fmt, o, (int)n + 1, names);
    put_notes(x, tb, &pivot, 1);
    for (size_t t = 0; t <= x->ntraces; t++) {
        if (t < x->ntraces && x->skip[t])
            continue;
        table_str(tb, t < x->ntraces ? x->label[t] : "mean");
        for (size_t i = 0; i < n; i++)
            cell(x, tb, t, keys[i], pc);
        table_end_row(tb);
    }
    table_free(tb);
    free(names);
    free(keys);
}

void crosstab_print(const crosstab *x, FILE *o, enum cli_fmt fmt, const char *columns,
                    const char *only_key, const char *pivot)
{
    size_t nsel, k0 = only_key ? find_key(x, only_key) : 0;
    if (pivot) {
        print_pivot(x, o, fmt, pivot);
        return;
    }
    size_t *sel = select_columns(x, columns, &nsel);
    int lead = only_key ? 1 : 2;
    const char **names = xrealloc(NULL, (nsel + 2) * sizeof *names);
    names[0] = "trace";
    names[1] = x->keyname;
    for (size_t i = 0; i < nsel; i++)
        names[i + lead] = x->col[sel[i]];
    cli_table *tb = table_new(fmt, o, (int)nsel + lead, names);
    put_notes(x, tb, names, nsel + lead);
    for (size_t t = 0; t <= x->ntraces; t++) {      /* t == ntraces: the means */
        if (t < x->ntraces && x->skip[t])
            continue;
        for (size_t k = only_key ? k0 : 0; k < (only_key ? k0 + 1 : x->nkeys); k++) {
            int present = 0;
            for (size_t u = 0; u < x->ntraces && !present; u++)
                for (size_t i = 0; i < x->ncols && !present; i++)
                    present = !x->skip[u] && (u == t || t == x->ntraces) && get(x, u, k, i);
            if (!present)
                continue;
            table_str(tb, t < x->ntraces ? x->label[t] : "mean");
            if (!only_key)
                table_str(tb, x->key[k]);
            for (size_t i = 0; i < nsel; i++)
                cell(x, tb, t, k, sel[i]);
            table_end_row(tb);
        }
    }
    table_free(tb);
    free(names);
    free(sel);
}
