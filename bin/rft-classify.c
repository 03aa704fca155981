/* rft-classify - annotate every register write with its value pattern
 * (RC/DC-Patch, WC), speculation and divergence (lib/classify.c); summarise
 * per kernel.  --sweep is a report over one coverage stage that classifies
 * every write under all block sizes and both delta rules; --bs auto runs
 * such a stage over the input first, then classifies with each kernel's
 * best size. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clsreport.h"
#include "pipeline.h"

static const char usage[] =
    "rft-classify [-o FILE] [--level N] [--flush] [--bs N|auto] [--deltas pow2|any]\n"
    "             [--max-delta N] [--summary[=FILE] | -s FILE] [--by kernel|reg] [--counts]\n"
    "             [--format table|tsv|csv|json] [--sweep] [FILE]\n"
    "Register value patterns, speculation and divergence of register writes\n"
    "\n"
    CLI_FILTER_HELP
    "      --bs N|auto        Block size BS, 1 to 64 (default 8), or auto: per kernel, the "
    "power of two under which most of its writes fit the pattern (reads the input twice)\n"
    "      --deltas pow2|any  The delta rule: the hardware's powers of two (default) or any "
    "32-bit delta\n"
    "      --max-delta N      Largest delta of the pow2 rule, a power of two from 1 to 2^31 "
    "(default 64, what 3-bit logarithms encode)\n"
    "      --summary[=FILE]   Print the summary, the writes of each class per kernel (--by), to "
    "FILE (default standard output)\n"
    "  -s FILE                The same as --summary=FILE\n"
    "      --by kernel|reg    Rows of the summary: per kernel (default), or per logical "
    "register of each kernel followed by the kernel's row (with --summary)\n"
    "      --counts           Print counts instead of percentages (with --summary or --sweep)\n"
    "  -f, --format F         table (aligned, for people; default), tsv, csv or json (one "
    "object a line), for the summary or the sweep\n"
    "      --sweep            Print, instead of a stream or a summary, the share of writes "
    "that fit the pattern for every BS from 1 to 64 under both delta rules, per kernel and in "
    "total\n";

typedef struct {
    cls_table_opts t;
    const char *summary;
    FILE *summary_out;      /* opened before the work */
} classify_cli;

static void summary(cli_job *j)
{
    classify_cli *c = j->ctx;
    if (!c->summary_out)
        return;
    cls_summary_table(&c->t, c->summary_out, j->st);
    notes_free(&c->t.nt);
    side_close(c->summary_out, c->summary);     /* before the end record: a failure leaves none */
}

/* The input's header: the tables' notes (runs, register file). */
static void header_notes(cli_job *j, const rft_header *in)
{
    classify_cli *c = j->ctx;
    if (!c->summary_out && j->report == summary)
        return;     /* no table */
    c->t.label = j->input;
    notes_input(&c->t.nt, &c->t.label, in);
}

static void sweep(cli_job *j)
{
    classify_cli *c = j->ctx;
    cls_sweep_table(&c->t, stdout, j->st);
    notes_free(&c->t.nt);
}

/* cover->ctx: the job whose stage gets the block sizes */
static void take_bs(cli_job *cover)
{
    if (rft_classify_choose_bs(((cli_job *)cover->ctx)->st, cover->st))
        die("out of memory");
}

static void rewind_input(const cli_job *j, int spooled)
{
    if (spooled && lseek(STDIN_FILENO, 0, SEEK_SET) < 0)
        die("%s: %s", j->input, strerror(errno));
}

/* --bs auto: a coverage pass over the input gives j's stage each kernel's
 * block size.  Standard input is read twice from a copy put in its place. */
static void choose_bs(cli_job *j, const rft_classify_opts *o)
{
    int spooled = strcmp(j->input, "-") == 0, fd;
    if (spooled) {
        cli_spool_stdin(&fd);
        if (dup2(fd, STDIN_FILENO) < 0)
            die("%s: %s", j->input, strerror(errno));
        close(fd);
    }
    rft_classify_opts co = *o;
    co.cover = RFT_COVER_POW2;
    cli_job pass = {.st = rft_classify_new(&co), .input = j->input, .prog = j->prog,
                    .report = take_bs, .ctx = j, .free_ctx = cli_ctx_borrowed};
    if (!pass.st)
        die("out of memory");
    rewind_input(j, spooled);
    cli_jobs_run(&pass, 1);
    rewind_input(j, spooled);
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS,
        {"bs", required_argument, 0, 'b'},     {"deltas", required_argument, 0, 'd'},
        {"max-delta", required_argument, 0, 'm'}, {"summary", optional_argument, 0, 'S'},
        {"by", required_argument, 0, 'y'},     {"counts", no_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'}, {"sweep", no_argument, 0, 'w'},
        {0, 0, 0, 0}};
    classify_cli *c = xrealloc(NULL, sizeof *c);    /* one per stage of a pipeline */
    rft_classify_opts o;
    int ch, sweep_set = 0, bs_set = 0, deltas_set = 0, max_set = 0, by_set = 0, fmt_set = 0;
    *c = (classify_cli){.t.fmt = FMT_TABLE};
    rft_classify_opts_default(&o);
    while ((ch = cli_getopt(argc, argv, "o:s:f:", opts)) != -1) {
        switch (ch) {
        case 'b':
            bs_set = 1;
            if (!(o.bs_auto = strcmp(optarg, "auto") == 0))
                o.po.bs = (unsigned)cli_uint("--bs", optarg, 1, RFT_PATTERN_MAX_BS);
            break;
        case 'd':
            deltas_set = 1;
            o.po.any = cli_choice("--deltas", optarg, "pow2|any");
            break;
        case 'm':
            max_set = 1;
            o.po.max_delta = (uint32_t)cli_uint("--max-delta", optarg, 1, 1u << 31);
            if (o.po.max_delta & (o.po.max_delta - 1))
                usage_error("--max-delta: %s is not a power of two", optarg);
            break;
        case 'S': c->summary = optarg ? optarg : "-"; break;
        case 's': c->summary = optarg; break;
        case 'y':
            by_set = 1;
            o.by_reg = c->t.by_reg = cli_choice("--by", optarg, "kernel|reg");
            break;
        case 'c': c->t.counts = 1; break;
        case 'f': fmt_set = 1; c->t.fmt = cli_format(optarg); break;
        case 'w': sweep_set = 1; break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    if (max_set && o.po.any)
        usage_error("--max-delta applies to --deltas pow2 only");
    if (sweep_set && (bs_set || deltas_set || c->summary || j->output || by_set))
        usage_error("--sweep covers every block size and both rules: no --bs, --deltas, "
                    "--summary, -o or --by");
    if (!sweep_set && !c->summary && (by_set || c->t.counts || fmt_set))
        usage_error("--by, --counts and --format shape the --summary or --sweep report");
    j->stream = !sweep_set && (j->output || strcmp(c->summary ? c->summary : "", "-") != 0);
    if (j->stream && c->summary && (!j->output || strcmp(j->output, "-") == 0) &&
        strcmp(c->summary, "-") == 0)
        usage_error("the stream and the summary cannot both go to standard output");
    if (c->summary)
        c->summary_out = side_open(c->summary);
    c->t.bs = o.po.bs;
    c->t.po = o.po;
    c->t.bs_auto = o.bs_auto;
    o.cover = sweep_set ? RFT_COVER_SWEEP : RFT_COVER_NONE;
    j->read_flags = RFT_IN_AHEAD;       /* decompressing beside classifying and compressing */
    j->st = rft_classify_new(&o);
    j->report = sweep_set ? sweep : summary;
    j->check = header_notes;
    j->ctx = c;
    if (o.bs_auto && j->st)
        choose_bs(j, &o);
}

const cli_prog cli_classify = {"rft-classify", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_classify, argc, argv); }
#endif
