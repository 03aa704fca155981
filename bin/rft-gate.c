/* rft-gate - power state of register-file entries from their contents: RC
 * or WC (lib/gate.c); annotates writes and counts the events an energy
 * model needs, per slice and in total. */
#include <getopt.h>
#include <string.h>

#include "gate.h"
#include "notes.h"
#include "pipeline.h"

static const char usage[] =
    "rft-gate [-o FILE] [--level N] [--flush] [--scheme rc|wc] [--bs N]\n"
    "         [--deltas pow2|any] [--max-delta N] [--summary[=FILE] | -s FILE]\n"
    "         [--format table|tsv|csv|json] [FILE]\n"
    "Power state of register-file entries from their contents (RC, WC) and the events an "
    "energy model needs\n"
    "\n"
    CLI_FILTER_HELP CLI_MEMORY_HELP
    "      --scheme rc|wc     Register Compression and switch off (default) or "
    "Warped-Compression\n"
    "      --bs N             RC: block size BS, 1 to 64 (default 8), for writes not "
    "annotated by rft-classify\n"
    "      --deltas pow2|any  RC: delta rule for writes not annotated (default pow2)\n"
    "      --max-delta N      RC: largest delta under pow2, a power of two (default 64)\n"
    "      --summary[=FILE]   Print the counters as a table (scope, counter, value) to FILE "
    "(default standard output)\n"
    "  -s FILE                The same as --summary=FILE, as in the other programs with a "
    "summary\n"
    "  -f, --format table|tsv|csv|json  Format of the summary (default table)\n";

typedef struct {
    const char *summary;
    enum cli_fmt fmt;
    FILE *out;
    rft_gate_opts o;
    notes nt;               /* what the summary assumed: the input's header */
    const char *label;
} gate_cli;

static void header_notes(cli_job *j, const rft_header *in)
{
    gate_cli *c = j->ctx;
    if (!c->out)
        return;     /* no summary */
    c->label = j->input;
    notes_input(&c->nt, &c->label, in);
}

/* The summary's notes: the input's, the scheme, the records counted. */
static void put_notes(gate_cli *c, cli_table *t, const uint64_t *total)
{
    notes_put(&c->nt, t, NULL);
    notes_free(&c->nt);
    if (c->o.scheme == RFT_GATE_WC)
        table_note(t, "scheme: wc (Warped-Compression's BDI, seed 002 5.3)");
    else if (c->o.po.any)
        table_notef(t, "scheme: rc (seed 002 5.1); the writes rft-classify did not annotate: BS "
                    "%u, any 32-bit delta (--bs, --deltas any)", c->o.po.bs);
    else
        table_notef(t, "scheme: rc (seed 002 5.1); the writes rft-classify did not annotate: BS "
                    "%u, deltas 0 or powers of two up to %u (--bs, --max-delta; 64: the 3-bit "
                    "logarithms of seed 002 5.1.1)", c->o.po.bs, c->o.po.max_delta);
    table_notef(t, "window: every record of the stream, read once: %llu writes and %llu reads "
                "(the counts of a kernel run N times are N times these)",
                (unsigned long long)total[RFT_GC_WRITES], (unsigned long long)total[RFT_GC_READS]);
}

/* The counters, by slice then in total (the same as the counters records). */
static void report(cli_job *j)
{
    gate_cli *c = j->ctx;
    if (!c->out)
        return;
    static const char *const cols[] = {"scope", "counter", "value"};
    cli_table *t = table_new(c->fmt, c->out, 3, cols);
    uint32_t n = rft_gate_nslices(j->st);
    uint16_t tcu, tsimd;
    put_notes(c, t, rft_gate_counts(j->st, n, &tcu, &tsimd));
    for (uint32_t i = 0; i <= n; i++) {
        uint16_t cu, simd;
        const uint64_t *v = rft_gate_counts(j->st, i, &cu, &simd);
        char scope[32];
        if (i < n)
            snprintf(scope, sizeof scope, "slice %u:%u", cu, simd);
        else
            snprintf(scope, sizeof scope, "total");
        for (int k = 0; k < RFT_GC_N; k++) {
            table_str(t, scope);
            table_str(t, rft_gate_counter_names[k]);
            table_u64(t, v[k]);
            table_end_row(t);
        }
    }
    table_free(t);
    side_close(c->out, c->summary);     /* before the end record: a failure leaves none */
}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS, CLI_MEMORY_OPTION,                    {"scheme", required_argument, 0, 'c'},
        {"bs", required_argument, 0, 'b'},     {"deltas", required_argument, 0, 'd'},
        {"max-delta", required_argument, 0, 'm'}, {"summary", optional_argument, 0, 'S'},
        {"format", required_argument, 0, 'f'}, {0, 0, 0, 0}};
    gate_cli *c = xrealloc(NULL, sizeof *c);    /* one per stage of a pipeline */
    rft_gate_opts o;
    int ch, max_set = 0, fmt_set = 0;
    rft_gate_opts_default(&o);
    *c = (gate_cli){.fmt = FMT_TABLE};
    while ((ch = cli_getopt(argc, argv, "o:s:f:", opts)) != -1) {
        switch (ch) {
        case 'c': o.scheme = cli_choice("--scheme", optarg, "rc|wc") ? RFT_GATE_WC : RFT_GATE_RC; break;
        case 'b':
            o.po_set = 1;
            o.po.bs = (unsigned)cli_uint("--bs", optarg, 1, RFT_PATTERN_MAX_BS);
            break;
        case 'd':
            o.po_set = 1;
            o.po.any = cli_choice("--deltas", optarg, "pow2|any");
            break;
        case 'm':
            o.po_set = max_set = 1;
            o.po.max_delta = (uint32_t)cli_uint("--max-delta", optarg, 1, 1u << 31);
            if (o.po.max_delta & (o.po.max_delta - 1))
                usage_error("--max-delta: %s is not a power of two", optarg);
            break;
        case 'S': c->summary = optarg ? optarg : "-"; break;
        case 's': c->summary = optarg; break;    /* -s FILE: as the other programs */
        case 'f': fmt_set = 1; c->fmt = cli_format(optarg); break;
        case CLI_MEMORY_OPT: cli_job_memory(j, optarg); break;
        default:
            if (!cli_filter_option(ch, &j->output, &j->wo))
                cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    if (max_set && o.po.any)
        usage_error("--max-delta applies to --deltas pow2 only");
    if (o.po_set && o.scheme == RFT_GATE_WC)
        usage_error("--bs, --deltas and --max-delta apply to --scheme rc only");
    if (fmt_set && !c->summary)
        usage_error("--format shapes the --summary table");
    /* --summary alone prints the table instead of the stream */
    j->stream = j->output || !(c->summary && strcmp(c->summary, "-") == 0);
    if (j->stream && c->summary && (!j->output || strcmp(j->output, "-") == 0) &&
        strcmp(c->summary, "-") == 0)
        usage_error("the stream and the summary cannot both go to standard output");
    if (c->summary)
        c->out = side_open(c->summary);
    c->o = o;
    j->st = rft_gate_new(&o);
    j->report = report;
    j->check = header_notes;
    j->ctx = c;
}

const cli_prog cli_gate = {"rft-gate", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_gate, argc, argv); }
#endif
