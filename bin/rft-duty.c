/* rft-duty - the duty map of a register file: for every cell (slice, entry,
 * bit) the cycles spent holding '0', holding '1' and switched off
 * (lib/duty.c). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "duty.h"
#include "notes.h"
#include "pipeline.h"

static const char usage[] =
    "rft-duty [-o FILE] [--level N] [--flush] [--span stream|slice|busy] [--window FROM:TO]\n"
    "         [--unused off|on] [--summary[=FILE] | -s FILE] [--counts]\n"
    "         [--format table|tsv|csv|json] [FILE]\n"
    "Duty map of a register file: time at '0', at '1' and switched off for "
    "every cell\n"
    "\n"
    "  -o, --output=FILE      Write the map to FILE (under a temporary name, renamed when "
    "complete) instead of standard output\n"
    "      --level N          zstd level of the output, -99 to -1 (fast) or 1 to 22 (default "
    "1)\n"
    "      --flush            Flush the stream after every batch of records, for live "
    "pipelines\n"
    CLI_MEMORY_HELP
    "      --span stream|slice|busy  The window of a slice's cells: the whole stream, the slice "
    "from its first to its last record (default), or the cycles it holds a wavefront (rft-duty(1))\n"
    "      --window FROM:TO   With --span stream: the window is cycles FROM to TO instead of "
    "the stream's first to last cycle\n"
    "      --unused off|on    Entries never allocated nor written in the window are off "
    "(default) or on holding zeros (rule 4)\n"
    "      --summary[=FILE]   Print the map condensed, one row per slice and one for all of "
    "them, to standard output\n"
    "  -s FILE                The same as --summary=FILE\n"
    "      --counts           The longest duties as cycles, not percentages (the averages "
    "stay percentages: no count is behind them)\n"
    "  -f, --format table|tsv|csv|json  Format of the summary (default table)\n";

typedef struct {
    const char *summary;
    enum cli_fmt fmt;
    int counts;                 /* --counts: the longest duties in cycles */
    FILE *out;
    notes nt;                   /* what the summary assumed: the input's header */
    const char *label;
    char *scheme;               /* the input's allocator (notes_scheme) */
    int steady;                 /* the input is the steady state */
    int unused_on;              /* --unused on */
} duty_cli;

static void header_notes(cli_job *j, const rft_header *in)
{
    duty_cli *c = j->ctx;
    if (!c->out)
        return;     /* no summary */
    c->label = j->input;
    c->steady = notes_input(&c->nt, &c->label, in);
    c->scheme = notes_scheme(in);
}

/* The summary's notes: the input's, the window and entries of every
 * slice's (all: the last row), what the shares are of. */
static void put_notes(duty_cli *c, cli_table *t, const rft_duty_stats *all)
{
    notes_duty(&c->nt, 0, all, c->scheme, c->steady, c->unused_on);
    notes_put(&c->nt, t, NULL);
    table_notef(t, "shares: avg_0%%, avg_1%%, avg_off%%: a cell's cycles at '0', at '1' and off, "
                "of its slice's window, averaged over the cells of the entries averaged (used, "
                "or all with --unused on); %s", c->counts
                ? "longest_0, longest_1: the most cycles a cell spent at '0', at '1'"
                : "longest_0%, longest_1%: the largest of those shares among the cells "
                  "(seed 002 Figs. 13, 16)");
}

static void cell_name(char *b, size_t n, const rft_duty_cell *c)
{
    snprintf(b, n, "%u:%u r%u b%u", c->cu, c->simd, c->entry, c->bit);
}

/* A row per slice, then all of them. */
static void report(cli_job *j)
{
    duty_cli *c = j->ctx;
    if (!c->out)
        return;
    static const char *const cols[] = {
        "slice", "span", "first", "last", "cycles", "entries", "used", "avg_0%", "avg_1%",
        "avg_off%", "longest_0%", "longest_0_cell", "longest_1%", "longest_1_cell"};
    static const char *const counted[] = {
        "slice", "span", "first", "last", "cycles", "entries", "used", "avg_0%", "avg_1%",
        "avg_off%", "longest_0", "longest_0_cell", "longest_1", "longest_1_cell"};
    size_t nrows;
    const rft_duty_row *rows = rft_duty_stage_rows(j->st, &nrows);
    cli_table *t = table_new(c->fmt, c->out, 14, c->counts ? counted : cols);
    if (nrows)
        put_notes(c, t, &rows[nrows - 1].st);
    notes_free(&c->nt);
    free(c->scheme);
    for (size_t i = 0; i < nrows; i++) {
        const rft_duty_stats *s = &rows[i].st;
        double n = s->avg_cells;
        char b[64];
        table_str(t, rows[i].name);
        table_str(t, rft_span_name(s->span));
        table_u64(t, s->first);
        table_u64(t, s->last);
        table_u64(t, s->cyc_max);
        table_u64(t, s->records);
        table_u64(t, s->used);
        table_dbl(t, n ? 100 * s->s0 / n : 0, 2);
        table_dbl(t, n ? 100 * s->s1 / n : 0, 2);
        table_dbl(t, n ? 100 * s->soff / n : 0, 2);
        table_share(t, c->counts, s->max0.t0, (double)s->max0.cycles);
        cell_name(b, sizeof b, &s->max0);
        table_str(t, b);
        table_share(t, c->counts, s->max1.t1, (double)s->max1.cycles);
        cell_name(b, sizeof b, &s->max1);
        table_str(t, b);
        table_end_row(t);
    }
    table_free(t);
    side_close(c->out, c->summary);     /* before the end record: a failure leaves none */
}

static void window_opt(const char *s, rft_duty_opts *o)
{
    const char *colon = strchr(s, ':');
    if (!colon || strlen(s) >= 64)
        usage_error("--window: '%s' is not FROM:TO", s);
    char *from = xasprintf("%.*s", (int)(colon - s), s);
    o->from = cli_uint("--window", from, 0, UINT64_MAX);
    o->to = cli_uint("--window", colon + 1, 0, UINT64_MAX);
    free(from);
    if (o->to < o->from)
        usage_error("--window: %s ends before it starts", s);
    o->window_set = 1;
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS, CLI_MEMORY_OPTION,                    {"span", required_argument, 0, 'p'},   {"window", required_argument, 0, 'W'},
        {"unused", required_argument, 0, 'u'}, {"summary", optional_argument, 0, 'S'},
        {"format", required_argument, 0, 'f'}, {"counts", no_argument, 0, 'c'},
        {0, 0, 0, 0}};
    rft_duty_opts o = {.span = RFT_SPAN_SLICE};
    duty_cli *c = xrealloc(NULL, sizeof *c);    /* one per stage of a pipeline */
    *c = (duty_cli){.fmt = FMT_TABLE};
    int ch, fmt_set = 0;
    while ((ch = cli_getopt(argc, argv, "o:s:f:", opts)) != -1) {
        switch (ch) {
        case 'p':
            if (!(o.span = rft_span_parse(optarg)))
                usage_error("--span: '%s' is not one of stream, slice, busy", optarg);
            break;
        case 'W': window_opt(optarg, &o); break;
        case 'u': o.unused_on = cli_choice("--unused", optarg, "off|on"); break;
        case 'S': c->summary = optarg ? optarg : "-"; break;
        case 's': c->summary = optarg; break;
        case 'f': fmt_set = 1; c->fmt = cli_format(optarg); break;
        case 'c': c->counts = 1; break;
        case CLI_MEMORY_OPT: cli_job_memory(j, optarg); break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    if (o.window_set && o.span != RFT_SPAN_STREAM)
        usage_error("--window applies to --span stream only");
    if ((fmt_set || c->counts) && !c->summary)
        usage_error("--format and --counts shape the --summary report");
    /* --summary alone prints the report instead of the map */
    j->stream = j->output || !c->summary || strcmp(c->summary, "-") != 0;
    if (j->stream && c->summary && (!j->output || strcmp(j->output, "-") == 0) &&
        strcmp(c->summary, "-") == 0)
        usage_error("the map and the summary cannot both go to standard output");
    if (c->summary)
        c->out = side_open(c->summary);
    j->read_flags = RFT_IN_AHEAD;       /* decompression overlaps the accounting */
    c->unused_on = o.unused_on;
    j->st = rft_duty_stage_new(&o, c->summary != NULL);
    j->report = report;
    j->check = header_notes;
    j->ctx = c;
}

const cli_prog cli_duty = {"rft-duty", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_duty, argc, argv); }
#endif
