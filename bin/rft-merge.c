/* rft-merge - add the duty maps and counters of several rft streams: shards
 * of one trace run in parallel, or runs one after another (lib/merge.c).  It
 * reads its inputs one after the other, as the source of a pipeline
 * (bin/pipeline.h). */
#include <getopt.h>
#include <string.h>

#include "merge.h"
#include "pipeline.h"

static const char usage[] =
    "rft-merge [-o FILE] [--level N] [--flush] FILE...\n"
    "Add the duty maps and counters of several rft streams\n"
    "\n"
    "  -o, --output=FILE      Write to FILE (under a temporary name, renamed when complete) "
    "instead of standard output\n"
    "      --level N          zstd level of the output, -99 to -1 (fast) or 1 to 22 (default "
    "1)\n"
    "      --flush            Flush the stream after every batch of records, for live "
    "pipelines\n";

typedef struct {
    char **inputs;
    int n;
    rft_merge *m;
    const rft_sink *out;
} merge_cli;

/* Input i begins: a bad one is named, without a record. */
static void open_input(merge_cli *c, int i)
{
    stage_open(c->inputs[i]);
    if (rft_merge_input(c->m, c->inputs[i], rft_reader_header(stage.r))) {
        rft_reader_close(stage.r);
        stage.r = NULL;
        stage_fail("%s", rft_merge_why(c->m));
    }
}

/* The first input's header is the output's. */
static void source_open(cli_job *j, rft_header *h)
{
    merge_cli *c = j->ctx;
    if (!(c->m = rft_merge_new()))
        die("out of memory");
    open_input(c, 0);
    if (rft_header_copy(h, rft_reader_header(stage.r))) {
        rft_reader_close(stage.r);
        stage.r = NULL;
        stage_fail("header: too much metadata");
    }
    /* the sum is no shard: its header is the whole run's */
    rft_header_unset(h, RFT_META_SHARD);
    rft_header_unset(h, RFT_META_SHARD_BY);
    rft_header_unset(h, RFT_META_SHARD_STAGES);
}

static void add_rec(void *ctx, rft_rec *rec)
{
    merge_cli *c = ctx;
    if (rft_merge_feed(c->m, rec, c->out))
        stage_fail("%s", rft_merge_why(c->m));
}

static void source_run(cli_job *j, const rft_sink *out)
{
    merge_cli *c = j->ctx;
    c->out = out;
    for (int i = 0; i < c->n; i++) {
        if (i > 0)
            open_input(c, i);
        cli_read_each(add_rec, c);
        if (rft_merge_input_end(c->m))
            stage_fail("%s", rft_merge_why(c->m));  /* of the input: the reader is closed */
    }
    if (rft_merge_finish(c->m, out))
        stage_fail("%s", rft_merge_why(c->m));
    rft_merge_free(c->m);
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {CLI_FILTER_OPTIONS, {0, 0, 0, 0}};
    int ch;
    while ((ch = cli_getopt(argc, argv, "o:", opts)) != -1)
        if (!cli_filter_option(ch, &j->output, &j->wo))
            cli_bad_option(argv);
    if (optind == argc)
        usage_error("no input");
    for (int i = optind; i < argc; i++)
        for (int k = optind; k < i; k++)
            if (strcmp(argv[i], "-") == 0 && strcmp(argv[k], "-") == 0)
                usage_error("standard input given twice");
    merge_cli *c = xrealloc(NULL, sizeof *c);   /* one per run */
    *c = (merge_cli){.inputs = argv + optind, .n = argc - optind};
    j->input = argv[optind];
    j->source_open = source_open;
    j->source_run = source_run;
    j->ctx = c;
}

const cli_prog cli_merge = {"rft-merge", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_merge, argc, argv); }
#endif
