/* rft-collect - the cross-trace table of a batch (rft-batch(1)): the
 * per-trace result tables joined by their first column (scheme, scenario),
 * one row per trace and key, then the mean over the traces of each key, as
 * the seeds tabulate a benchmark suite (the join and the table: crosstab.c;
 * the batch folder's files: batch_folder.c). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "batch_folder.h"

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
    batch_folder b = {0};
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
    batch_read_traces(&x);
    batch_read_conf(&b, &x, !x.nresults);
    if (!x.nresults)
        die("%s: no results named (none on the command line, none in %s)", x.dir,
            BATCH_CONF_FILE);
    if (!columns)
        columns = b.columns;

    batch_mark_done(&b, &x, partial);
    crosstab_init(&x);
    for (size_t t = 0; t < x.ntraces; t++)     /* the runs first, then the tables' notes */
        if (!x.skip[t])
            batch_read_notes(&b, &x, t);
    for (size_t t = 0; t < x.ntraces; t++)
        for (size_t r = 0; r < x.nresults && !x.skip[t]; r++)
            batch_read_result(&b, &x, t, r);
    FILE *o = cli_output_open(output);
    crosstab_print(&x, o, fmt, columns, only_key, pivot);
    crosstab_free(&x);
    batch_folder_free(&b);
    return cli_output_close(o);
}
