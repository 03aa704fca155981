/* rft-collect - the cross-trace table of a batch (rft-batch(1)): the
 * per-trace result tables joined by their first column (scheme, scenario),
 * one row per trace and key, then the mean over the traces of each key, as
 * the seeds tabulate a benchmark suite (the join and the table: crosstab.c). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "crosstab.h"

static const char usage[] =
    "rft-collect [--format table|tsv|csv|json] [--columns LIST|all] [--key KEY | --pivot "
    "COL]\n"
    "            [--partial] [-o FILE] DIR [RESULT...]\n"
    "The cross-trace table of a batch: a row per trace and scheme, and the mean\n"
    "\n"
    "      --format table|tsv|csv|json  A table for people (default), TSV, CSV or JSON lines "
    "(numbers unquoted; nan, inf and empty cells are null)\n"
    "      --columns LIST|all  The columns, comma-separated, in this order\n"
    "      --key KEY          Only the rows of KEY, without the key column: a row per trace "
    "having it, then the mean\n"
    "      --pivot COL        Column COL only, a row per trace and the mean, a column per "
    "key that has it\n"
    "      --partial          Leave out (with a warning) the traces whose results are not "
    "all there, instead of refusing the batch\n"
    "  -o, --output FILE      Write to FILE, under a temporary name renamed when complete\n";

/* Files rft-batch(1) writes into DIR for us. */
#define TRACES_FILE "traces.tsv"
#define CONF_FILE "collect.conf"

/* DIR/a/b (b may be NULL): allocated */
static char *path_of(const crosstab *x, const char *a, const char *b)
{
    size_t n = strlen(x->dir) + strlen(a) + (b ? strlen(b) : 0) + 3;
    char *p = xrealloc(NULL, n);
    snprintf(p, n, b ? "%s/%s/%s" : "%s/%s", x->dir, a, b);
    return p;
}

/* The folder of the traces' folders: DIR, or DIR/NAME when collect.conf
 * says "folders NAME" (rft-batch keeps them in DIR/traces). */
static char *trace_dir;

/* collect.conf's "notes FILE...": per-trace files of notes, a line each;
 * "runs FILE [ASKED]": the per-trace file saying how many runs (steady, once,
 * N) and what the batch asked for. */
static char **note_files, *runs_file, *runs_asked;
static size_t nnote_files;

/* The runs of trace t, as a note. */
static void runs_note(crosstab *x, size_t t)
{
    char *path = xasprintf("%s/%s/%s", trace_dir, x->label[t], runs_file), *line = NULL;
    size_t cap = 0;
    FILE *f = fopen(path, "r");
    ssize_t n = f ? getline(&line, &cap, f) : -1;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
        line[--n] = 0;
    if (n <= 0) {
        free(line);
        line = xstrdup("unknown");
    }
    char *note = notes_runs_text(line, runs_asked);
    crosstab_note(x, t, note);
    free(note);
    free(line);
    free(path);
    if (f)
        fclose(f);
}

/* The notes of trace t: its runs, then the lines of its note files (those
 * missing give none). */
static void read_notes(crosstab *x, size_t t)
{
    if (runs_file)
        runs_note(x, t);
    for (size_t i = 0; i < nnote_files; i++) {
        char *path = xasprintf("%s/%s/%s", trace_dir, x->label[t], note_files[i]);
        FILE *f = fopen(path, "r");
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while (f && (n = getline(&line, &cap, f)) != -1) {
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
                line[--n] = 0;
            if (n) {     /* named by the table it comes from: vth.notes, "vth: ..." */
                char *note = xasprintf("%.*s: %s", (int)strcspn(note_files[i], "."),
                                       note_files[i], line);
                crosstab_note(x, t, note);
                free(note);
            }
        }
        if (f && ferror(f))
            die("%s: read error", path);
        if (f)
            fclose(f);
        free(line);
        free(path);
    }
}

/* The notes of result r's table of trace t (its '# ' lines, as the
 * programs write them in TSV): each named by its table (vth.tsv: "vth:
 * ..."), but the runs, which are the trace's (and which the runs file says
 * instead when the batch has one). */
static void result_notes(crosstab *x, size_t t, size_t r, const cli_tsv *tab)
{
    for (size_t i = 0; i < tab->nnotes; i++) {
        const char *n = tab->note[i];
        if (!*n || (runs_file && strncmp(n, "runs: ", 6) == 0))
            continue;
        char *note = strncmp(n, "runs: ", 6) == 0
                         ? xstrdup(n)
                         : xasprintf("%.*s: %s", (int)strcspn(x->results[r], "."),
                                     x->results[r], n);
        crosstab_note(x, t, note);
        free(note);
    }
}

/* Result r of trace t into the table. */
static void read_result(crosstab *x, size_t t, size_t r)
{
    char *path = xasprintf("%s/%s/%s", trace_dir, x->label[t], x->results[r]);
    cli_tsv tab;
    cli_tsv_read(path, path, &tab);
    crosstab_add(x, t, r, &tab);
    result_notes(x, t, r, &tab);
    cli_tsv_free(&tab);
    free(path);
}

/* DIR/traces.tsv: LABEL<TAB>TRACE a line, in the batch's order. */
static void read_traces(crosstab *x)
{
    char *path = path_of(x, TRACES_FILE, NULL);
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: not a batch folder: no %s (see rft-batch(1))", x->dir, TRACES_FILE);
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
        x->label = xrealloc(x->label, (x->ntraces + 1) * sizeof *x->label);
        x->label[x->ntraces++] = xstrdup(line);
    }
    if (ferror(f))
        die("%s: read error", path);
    fclose(f);
    free(line);
    if (!x->ntraces)
        die("%s: no traces", path);
    free(path);
}

/* DIR/collect.conf: "results FILE..." and "columns A,B,..." lines, the
 * study's defaults (command-line operands and options win). */
static char *read_conf(crosstab *x, int want_results)
{
    char *path = path_of(x, CONF_FILE, NULL), *columns = NULL;
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
        } else if (strcmp(line, "folders") == 0 && *v) {
            free(trace_dir);
            trace_dir = xasprintf("%s/%s", x->dir, v);
        } else if (strcmp(line, "notes") == 0) {
            for (char *w = strtok(v, " \t"); w; w = strtok(NULL, " \t")) {
                note_files = xrealloc(note_files, (nnote_files + 1) * sizeof *note_files);
                note_files[nnote_files++] = xstrdup(w);
            }
        } else if (strcmp(line, "runs") == 0 && *v) {
            free(runs_file);
            runs_file = xstrdup(v);
            char *sp = runs_file + strcspn(runs_file, " \t");
            runs_asked = *sp ? sp + 1 + strspn(sp + 1, " \t") : NULL;
            *sp = 0;
        } else if (strcmp(line, "results") == 0 && want_results) {
            for (char *w = strtok(v, " \t"); w; w = strtok(NULL, " \t")) {
                x->results = xrealloc(x->results, (x->nresults + 1) * sizeof *x->results);
                x->results[x->nresults++] = xstrdup(w);
            }
        }
    }
    fclose(f);
    free(line);
    free(path);
    return columns;
}

/* Is every result of trace t there?  Else its first missing one. */
static const char *missing_result(const crosstab *x, size_t t)
{
    for (size_t r = 0; r < x->nresults; r++) {
        char *p = xasprintf("%s/%s/%s", trace_dir, x->label[t], x->results[r]);
        FILE *f = fopen(p, "r");
        free(p);
        if (!f)
            return x->results[r];
        fclose(f);
    }
    return NULL;
}

/* Which traces have every result: the others are an error, or with partial
 * left out. */
static void mark_done(crosstab *x, int partial)
{
    x->skip = xrealloc(NULL, x->ntraces);
    size_t complete = 0;
    for (size_t t = 0; t < x->ntraces; t++) {
        const char *m = missing_result(x, t);
        x->skip[t] = m != NULL;
        complete += !m;
        if (m && !partial)
            die("%s/%s: no %s: the trace is not done (rft-batch --status %s)", trace_dir,
                x->label[t], m, x->dir);
        if (m)
            warnx("warning: %s/%s: no %s: left out", trace_dir, x->label[t], m);
    }
    if (!complete)
        die("%s: no trace is done", x->dir);
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
    crosstab x = {0};
    argc = cli_take_quiet(argc, argv);   /* --quiet: no progress to silence, but taken */
    cli_init(argc, argv, usage);
    while ((c = cli_getopt(argc, argv, "o:", opts)) != -1) {
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
    x.dir = argv[optind++];
    for (int i = optind; i < argc; i++) {
        if (!*argv[i] || strchr(argv[i], '/'))
            usage_error("'%s' is not the name of a result in a trace's folder", argv[i]);
        x.results = xrealloc(x.results, (x.nresults + 1) * sizeof *x.results);
        x.results[x.nresults++] = xstrdup(argv[i]);
    }
    read_traces(&x);
    trace_dir = xstrdup(x.dir);
    char *conf_columns = read_conf(&x, !x.nresults);
    if (!x.nresults)
        die("%s: no results named (none on the command line, none in %s)", x.dir, CONF_FILE);
    if (!columns)
        columns = conf_columns;

    mark_done(&x, partial);
    crosstab_init(&x);
    for (size_t t = 0; t < x.ntraces; t++)     /* the runs first, then the tables' notes */
        if (!x.skip[t])
            read_notes(&x, t);
    for (size_t t = 0; t < x.ntraces; t++)
        for (size_t r = 0; r < x.nresults && !x.skip[t]; r++)
            read_result(&x, t, r);
    FILE *o = cli_output_open(output);
    crosstab_print(&x, o, fmt, columns, only_key, pivot);
    crosstab_free(&x);
    free(conf_columns);
    free(trace_dir);
    for (size_t i = 0; i < nnote_files; i++)
        free(note_files[i]);
    free(note_files);
    free(runs_file);
    return cli_output_close(o);
}
