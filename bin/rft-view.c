/* rft-view - an rft stream as text, TSV, CSV or JSON lines; its header;
 * its statistics; filtered by kind, slice, kernel, wavefront and cycles.
 * The selection, the statistics and the lines are lib/view.c; this program
 * prints them, as the last stage of a pipeline (bin/pipeline.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "view.h"

static const char usage[] =
    "rft-view [-o FILE] [-H] [--stats] [--format text|tsv|csv|json] [--kind LIST]\n"
    "         [--slice CU:SIMD] [--kernel NAME|INDEX] [--wf ID] [--cycles FROM:TO] [FILE]\n"
    "Print an rft stream as text, CSV or JSON, its header or its statistics\n"
    "\n"
    "  -o, --output FILE      Write the text (or the header or statistics table) to FILE "
    "instead of standard output\n"
    "  -H, --header           Print the header as a two-column table (key, value)\n"
    "      --stats            Count the records that pass the filters instead of printing "
    "them (see STATISTICS)\n"
    "  -f, --format text|tsv|csv|json  Output format (see OUTPUT FORMATS)\n"
    "      --kind LIST        Only records of the kinds in LIST, letters of the text grammar "
    "in any order, commas ignored\n"
    "      --slice CU:SIMD    Only the B, W, R, A, U and E records of slice (CU, SIMD); kernel "
    "records and records of other kinds are dropped\n"
    "      --wf ID            Only the B, W, R, A, U and E records of wavefront ID\n"
    "      --kernel NAME|INDEX  Only the kernel records of the kernel, and the B, W, R, A, U "
    "and E records of its wavefronts\n"
    "      --cycles FROM:TO   Only records whose cycle lies between FROM and TO, both "
    "included; either may be left out (1000: or :5000)\n";

typedef struct {
    rft_stage st;               /* the common head: the driver runs this stage */
    rft_view *v;
    rft_geom geom;
    enum cli_fmt fmt;           /* of the tables (--stats, -H) */
    char sep;                   /* of the text lines */
    int json;
    char *line;
} view_stage;

static int start(rft_stage *s, const rft_header *in, rft_header *out)
{
    ((view_stage *)s)->geom = in->geom;
    return 0;
}

/* A record selected is printed, unless it is only counted (--stats). */
static int feed(rft_stage *s, rft_rec *rec, const rft_sink *out)
{
    view_stage *vs = (view_stage *)s;
    int e = rft_view_select(vs->v, rec);
    if (e == RFT_EMEM)
        return rft_stage_fail(s, e, "out of memory");
    if (e < 0)      /* the driver names the input and the record */
        return rft_stage_fail(s, e, "kernel index %u: rft-view keeps kernels 0 to %u", rec->u.kernel.index,
                              RFT_VIEW_MAX_KERNELS - 1);
    if (!e || !vs->line)        /* --stats: counted only */
        return 0;
    size_t n;
    if (rec->kind > RFT_BUNDLE && rec->kind != RFT_UNITREC)    /* records of analysis stages */
        n = rft_view_other(vs->v, rec, vs->json, vs->sep, vs->line);
    else if (vs->json)
        n = rft_view_json(&vs->geom, rec, vs->line);
    else {
        uint32_t nk;
        const char *const *kn = rft_view_knames(vs->v, &nk);
        if (!(n = rft_text_format(&vs->geom, rec, kn, nk, vs->sep, vs->line)) &&
            !(rec->kind == RFT_UNITREC &&   /* a malformed one: as a kind unknown */
              (n = rft_view_other(vs->v, rec, 0, vs->sep, vs->line))))
            return 0;   /* a record without a text form (an implicit kernel) */
    }
    vs->line[n++] = '\n';
    fwrite(vs->line, 1, n, stdout);
    return 0;
}

static void stage_free(rft_stage *s)
{
    view_stage *vs = (view_stage *)s;
    rft_view_free(vs->v);
    free(vs->line);
    free(vs);
}

static const rft_stage_ops view_ops = {"rft-view", start, feed, NULL, stage_free, 1};

/* --stats: the records selected, by kind, and where they are */
static void report(cli_job *j)
{
    static const char *const cols[] = {"statistic", "value"};
    static const char *const names[] = {
        "kernels", "wavefronts", "wavefront_ends", "writes", "reads", "bundles", "other_records",
        "records", "slices", "annotated_writes", "first_cycle", "last_cycle", "cycle_span"};
    view_stage *vs = (view_stage *)j->st;
    const rft_view_stats *s = rft_view_counted(vs->v);
    uint64_t total = 0;
    for (int i = RFT_KERNEL; i < RFT_BUNDLE + 2; i++)
        total += s->kind[i];
    const uint64_t more[] = {total, s->slices, s->annotated, s->first, s->last,
                             s->any ? s->last - s->first : 0};
    cli_table *t = table_new(vs->fmt, stdout, 2, cols);
    for (int i = 0; i < 13; i++) {
        table_str(t, names[i]);
        table_u64(t, i < 7 ? s->kind[RFT_KERNEL + i] : more[i - 7]);
        table_end_row(t);
    }
    table_free(t);
}

static void row(cli_table *t, const char *key, const char *val)
{
    table_str(t, key);
    table_str(t, val);
    table_end_row(t);
}

/* -H: the header alone, read without the records (a source of nothing) */
static void header_open(cli_job *j, rft_header *unused)
{
    static const char *const cols[] = {"key", "value"};
    static const char *const gk[] = {"lanes", "entries", "block_lanes", "lane_bits"};
    char err[320], b[64];
    rft_reader *r = rft_reader_open(j->input, err, sizeof err);
    if (!r)
        die("%s: %s", j->input, err);
    const rft_header *h = rft_reader_header(r);
    cli_table *t = table_new(*(enum cli_fmt *)j->ctx, stdout, 2, cols);
    snprintf(b, sizeof b, "%u.%u", h->major, h->minor);
    row(t, "format", b);
    row(t, "producer", h->producer);
    row(t, "version", h->version);
    /* values are strings here: numbers and names share the column */
    const uint32_t gv[] = {h->geom.lanes, h->geom.entries, h->geom.block_lanes, h->geom.lane_bits};
    for (int i = 0; i < 4; i++) {
        snprintf(b, sizeof b, "%u", gv[i]);
        row(t, gk[i], b);
    }
    for (int i = 0; i < h->nmeta; i++)
        row(t, h->meta[i].key, h->meta[i].val);
    table_free(t);
    rft_reader_close(r);
}

static void header_run(cli_job *j, const rft_sink *out) {}

static void parse(int argc, char **argv, cli_job *j)
{
    static const struct option opts[] = {
        {"header", no_argument, 0, 'H'},      {"stats", no_argument, 0, 's'},
        {"format", required_argument, 0, 'f'}, {"kind", required_argument, 0, 'k'},
        {"slice", required_argument, 0, 'S'}, {"kernel", required_argument, 0, 'K'},
        {"wf", required_argument, 0, 'w'},    {"cycles", required_argument, 0, 'c'},
        {"output", required_argument, 0, 'o'}, {0, 0, 0, 0}};
    int header_only = 0, ch;
    const char *fmt_name = NULL, *output = NULL;
    rft_view_opts o;
    rft_view_opts_default(&o);
    /* -s is --summary FILE in every program (rft(1), OPTIONS) */
    static const cli_old old[] = {{"-s", 's', "--stats"}, {0, 0, 0}};
    while ((ch = cli_getopt_old(argc, argv, "Hso:f:", opts, old)) != -1) {
        char *colon, *end;
        switch (ch) {
        case 'H': header_only = 1; break;
        case 's': o.stats = 1; break;
        case 'f': fmt_name = optarg; break;
        case 'o': output = optarg; break;
        case 'k':
            o.kinds = 0;
            for (const char *p = optarg; *p; p++)
                if (*p != ',' && !(o.kinds |= rft_view_kind(*p)))
                    usage_error("--kind: '%c' is not one of K, B, W, R, E, A, U", *p);
            break;
        case 'S':
            cli_slice("--slice", optarg, 65535, "CU:SIMD", &o.cu, &o.simd);
            o.slice_set = 1;
            break;
        case 'K': {
            unsigned long v = strtoul(optarg, &end, 10);
            o.kernel_set = 1;
            if (*optarg && !*end && v < RFT_NO_KERNEL)
                o.kernel_idx = (uint32_t)v;
            else
                o.kernel_name = optarg;
            break;
        }
        case 'w': o.wf = (uint32_t)cli_uint("--wf", optarg, 0, 0xfffffffeu); o.wf_set = 1; break;
        case 'c':
            if (!(colon = strchr(optarg, ':')))
                usage_error("--cycles: '%s' is not FROM:TO", optarg);
            *colon = 0;
            if (*optarg)
                o.c_from = cli_uint("--cycles", optarg, 0, UINT64_MAX);
            if (colon[1])
                o.c_to = cli_uint("--cycles", colon + 1, 0, UINT64_MAX);
            if (o.c_from > o.c_to)
                usage_error("--cycles: %llu:%llu ends before it starts", (unsigned long long)o.c_from,
                            (unsigned long long)o.c_to);
            break;
        default: cli_bad_option(argv);
        }
    }
    j->input = cli_input(argc, argv);
    j->stream = 0;
    cli_stdout_to(output);
    enum cli_fmt fmt = FMT_TSV;
    if (fmt_name && strcmp(fmt_name, "text") != 0)
        fmt = cli_format(fmt_name);     /* table too: the records in TSV */
    char sep = fmt == FMT_CSV ? ',' : '\t';
    int json = fmt == FMT_JSON;
    if ((o.stats || header_only) && (!fmt_name || strcmp(fmt_name, "text") == 0))
        fmt = FMT_TABLE;
    if (header_only) {
        enum cli_fmt *f = j->ctx = xrealloc(NULL, sizeof fmt);
        *f = fmt;
        j->source_open = header_open;
        j->source_run = header_run;
        return;
    }
    view_stage *vs = xrealloc(NULL, sizeof *vs);    /* one per stage of a pipeline */
    *vs = (view_stage){.st.ops = &view_ops, .fmt = fmt, .sep = sep, .json = json};
    if (!(vs->v = rft_view_new(&o)) || (!o.stats && !(vs->line = malloc(RFT_VIEW_LINE_MAX))))
        die("out of memory");
    j->st = &vs->st;
    j->report = o.stats ? report : NULL;
    j->prints = !o.stats;
}

const cli_prog cli_view = {"rft-view", usage, parse, 0};

#ifndef CLI_NO_MAIN
int main(int argc, char **argv) { return cli_prog_main(&cli_view, argc, argv); }
#endif
