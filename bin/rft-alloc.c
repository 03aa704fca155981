/* rft-alloc - place every wavefront's register window in its slice (first-fit,
 * RAR or ARGO: lib/alloc.c), annotate each register write and read with its
 * physical entry, and record every window placed or freed (RFT_ALLOC
 * records); report the register-file utilization and the recovery of
 * power-gating banks. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "occreport.h"
#include "pipeline.h"

static const char usage[] =
    "rft-alloc [-o FILE] [--level N] [--flush] [--scheme first-fit|rar|argo]\n"
    "          [--granularity wavefront|work-group] [--wrap ring|restart] [--bank N]\n"
    "          [--runs once|steady]\n"
    "          [--events[=FILE]] [--util[=FILE]] [--recovery[=FILE]] [--banks LIST]\n"
    "          [--counts] [--format table|tsv|csv|json] [FILE]\n"
    "Place register windows in their slices (first-fit, RAR, ARGO), give every access its "
    "physical entry, report utilization and bank recovery\n"
    "\n"
    CLI_FILTER_HELP CLI_MEMORY_HELP
    "      --scheme first-fit|rar|argo  The allocator (default first-fit)\n"
    "      --bank N           ARGO gates free entries in banks of N entries (default 1, at "
    "most the slice's entries; rft-alloc(1))\n"
    "      --granularity wavefront|work-group  Allocate per wavefront or per work-group "
    "(default: wavefront, for every scheme)\n"
    "      --wrap ring|restart  How an ARGO window meets the last entry (default ring)\n"
    "      --runs once|steady  The duty map rft-duty makes of the stream: of the trace run once, "
    "or run again and again (the steady state over a period of runs, from one pass; default "
    "once)\n"
    "      --events[=FILE]    Print the events table to FILE (default standard output)\n"
    "      --util[=FILE]      Print the register-file utilization of each slice (seed 004 "
    "Table 1) to FILE (default standard output) once the stream is read\n"
    "      --recovery[=FILE]  Print the recovery of each bank size, the cycles its banks are "
    "gated (seed 004 Table 3), to FILE\n"
    "      --banks LIST       The bank sizes of --recovery, in entries, separated by commas "
    "(at most 16)\n"
    "      --counts           The --util and --recovery tables in entries and cycles instead "
    "of percentages\n"
    "  -f, --format table|tsv|csv|json  Format of the tables (default tsv, which streams; "
    "JSON is one object a line)\n";

typedef struct {
    rft_alloc_opts o;
    const char *events, *util, *recovery;
    enum cli_fmt fmt;
    int counts;             /* --counts */
    FILE *tf, *uf, *rf;     /* the events table, the two reports */
    cli_table *t;           /* the events table */
    notes nt;               /* what the --util and --recovery tables assumed */
    const char *label;
    int repeated;           /* the input is rft-repeat's */
} alloc_cli;

static void event_row(void *ctx, const rft_alloc_rec *a)
{
    cli_table *t = ((alloc_cli *)ctx)->t;
    table_u64(t, a->cycle);
    table_u64(t, a->cu);
    table_u64(t, a->simd);
    table_u64(t, a->wf);
    table_str(t, a->event == RFT_ALLOC_EV_ALLOC ? "alloc" : "free");
    table_u64(t, a->base);
    table_u64(t, a->n);
    table_u64(t, a->rot);
    table_u64(t, a->nfree);
    table_u64(t, a->flags & RFT_AF_GATED);
    table_end_row(t);
}

/* The bank sizes must fit the input's slice; allocating again warns. */
static void check(cli_job *j, const rft_header *in)
{
    alloc_cli *c = j->ctx;
    char why[128];
    cli_usage_text = usage;
    if (rft_alloc_opts_check(&c->o, &in->geom, why, sizeof why))
        usage_error("%s", why);
    const char *old = rft_header_get(in, "alloc");
    if (old && j->stream)
        warnx("warning: %s: re-allocating a stream allocated with %s", j->input, old);
    if (!c->util && !c->recovery)
        return;     /* no table with notes */
    c->label = j->input;
    c->repeated = rft_header_get(in, "repeat") != NULL;
    notes_input(&c->nt, &c->label, in);
}

/* The tables, before the end record: a failure leaves none. */
static void report(cli_job *j)
{
    alloc_cli *c = j->ctx;
    if (c->t) {
        table_free(c->t);
        c->t = NULL;
        side_close(c->tf, c->events);
    }
    const rft_occ *occ = rft_alloc_occupancy(j->st);
    const rft_geom *g = rft_alloc_geom(j->st);
    if (occ)
        occ_notes(&c->nt, j->st, occ, c->repeated);
    if (occ && c->util) {
        occ_util_table(c->fmt, c->uf, occ, g->entries, c->counts, &c->nt);
        side_close(c->uf, c->util);
    }
    if (occ && c->recovery) {
        occ_recovery_table(c->fmt, c->rf, occ, g, c->counts, rft_alloc_options(j->st), &c->nt);
        side_close(c->rf, c->recovery);
    }
    notes_free(&c->nt);
}

/* --banks LIST: entries per bank, comma-separated */
static void banks_opt(rft_alloc_opts *o, const char *s)
{
    char *copy = xasprintf("%s", s), *save = NULL;
    o->nbanks = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (o->nbanks == RFT_OCC_MAX_BANKS)
            usage_error("--banks: more than %d sizes", RFT_OCC_MAX_BANKS);
        o->banks[o->nbanks++] = (uint32_t)cli_uint("--banks", tok, 1, RFT_MAX_ENTRIES);
    }
    free(copy);
    if (!o->nbanks)
        usage_error("--banks: '%s' names no bank size", s);
}

/* The stream goes to -o, or to standard output unless a table does. */
static void outputs(cli_job *j, alloc_cli *c)
{
    const char *side[] = {c->events, c->util, c->recovery};
    const char *name[] = {"events table", "--util report", "--recovery report"};
    int on_stdout = -1;
    for (int i = 0; i < 3; i++)
        if (side[i] && strcmp(side[i], "-") == 0) {
            if (on_stdout >= 0)
                usage_error("the %s and the %s cannot both go to standard output", name[on_stdout],
                            name[i]);
            on_stdout = i;
        }
    j->stream = j->output || on_stdout < 0;
    if (j->stream && on_stdout >= 0 && strcmp(j->output, "-") == 0)
        usage_error("the stream and the %s cannot both go to standard output", name[on_stdout]);
    if (c->util)
        c->uf = side_open(c->util);
    if (c->recovery)
        c->rf = side_open(c->recovery);
    if (c->events) {
        static const char *const cols[] = {"cycle", "cu", "simd", "wf", "event", "base",
                                           "n", "rot", "free", "gated"};
        c->tf = side_open(c->events);
        c->t = table_new(c->fmt, c->tf, 10, cols);
        c->o.on_event = event_row;
        c->o.event_ctx = c;
    }
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS, CLI_MEMORY_OPTION,
        {"scheme", required_argument, 0, 's'}, {"granularity", required_argument, 0, 'g'},
        {"wrap", required_argument, 0, 'w'},   {"events", optional_argument, 0, 'e'},
        {"format", required_argument, 0, 'f'}, {"bank", required_argument, 0, 'b'},
        {"util", optional_argument, 0, 'u'},   {"recovery", optional_argument, 0, 'r'},
        {"banks", required_argument, 0, 'B'},  {"counts", no_argument, 0, 'c'},
        {"runs", required_argument, 0, 'R'},
        {0, 0, 0, 0}};
    static const int scheme[] = {RFT_ALLOC_FIRSTFIT, RFT_ALLOC_RAR, RFT_ALLOC_ARGO};
    alloc_cli *c = xrealloc(NULL, sizeof *c);   /* one per stage of a pipeline */
    int ch, wrap_set = 0, fmt_set = 0, bank_set = 0;
    *c = (alloc_cli){.fmt = FMT_TSV};
    rft_alloc_opts_default(&c->o);
    while ((ch = cli_getopt(argc, argv, "o:f:", opts)) != -1) {
        switch (ch) {
        case 's': c->o.scheme = scheme[cli_choice("--scheme", optarg, "first-fit|rar|argo")]; break;
        case 'g': c->o.by_group = cli_choice("--granularity", optarg, "wavefront|work-group"); break;
        case 'w':
            wrap_set = 1;
            c->o.wrap = cli_choice("--wrap", optarg, "ring|restart") ? RFT_WRAP_RESTART : RFT_WRAP_RING;
            break;
        case 'b':
            bank_set = 1;
            c->o.bank = (uint32_t)cli_uint("--bank", optarg, 1, RFT_MAX_ENTRIES);
            break;
        case 'e': c->events = optarg ? optarg : "-"; break;
        case 'u': c->util = optarg ? optarg : "-"; break;
        case 'r': c->recovery = optarg ? optarg : "-"; break;
        case 'B': banks_opt(&c->o, optarg); break;
        case 'c': c->counts = 1; break;
        case 'R': c->o.steady = cli_choice("--runs", optarg, "once|steady"); break;
        case 'f': fmt_set = 1; c->fmt = cli_format(optarg); break;
        case CLI_MEMORY_OPT: cli_job_memory(j, optarg); break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    if (wrap_set && c->o.scheme != RFT_ALLOC_ARGO)
        usage_error("--wrap applies to --scheme argo only");
    if (bank_set && c->o.scheme != RFT_ALLOC_ARGO)
        usage_error("--bank applies to --scheme argo only (the other schemes gate nothing)");
    if (fmt_set && !c->events && !c->util && !c->recovery)
        usage_error("--format shapes the --events, --util and --recovery tables");
    if (c->counts && !c->util && !c->recovery)
        usage_error("--counts shapes the --util and --recovery tables");
    if (c->o.steady && c->o.scheme == RFT_ALLOC_ARGO && c->o.wrap == RFT_WRAP_RESTART)
        usage_error("--runs steady: ARGO with --wrap restart does not repeat as a rotation of the "
                    "slice (use rft-repeat)");
    if (c->o.nbanks && !c->recovery)
        usage_error("--banks applies to --recovery only");
    /* Per wavefront by default, for ARGO too (o.by_group 0): the trace's own
     * dispatcher freed each window at its wavefront's end, and holding
     * windows until a whole work-group ends can make the trace's schedule
     * not fit. */
    outputs(j, c);
    c->o.occupancy = c->util || c->recovery;
    j->st = rft_alloc_new(&c->o);
    j->check = check;
    j->report = report;
    j->ctx = c;
}

const cli_prog cli_alloc = {"rft-alloc", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_alloc, argc, argv); }
#endif
