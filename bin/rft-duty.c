/* rft-duty - the duty map of a register file: for every cell (slice, entry,
 * bit) the cycles spent holding '0', holding '1' and switched off. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "duty.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-duty [-o FILE] [--level N] [--span stream|slice|busy] [--window FROM:TO]\n"
    "                [--unused off|on] [--summary[=FILE] | -s FILE]\n"
    "                [--format table|tsv|csv|json] [FILE]\n"
    "Compute the duty map (rft(5) record kind 0x10) of a stream annotated with physical\n"
    "entries (rft-alloc(1)) and, optionally, power states (rft-gate(1)).\n";

typedef struct {            /* summary row of one slice, or of all of them */
    char name[32];
    rft_duty_stats st;
} row;

static void cell_name(char *b, size_t n, const rft_duty_cell *c)
{
    snprintf(b, n, "%u:%u r%u b%u", c->cu, c->simd, c->entry, c->bit);
}

static void summary(FILE *out, enum cli_fmt fmt, const row *rows, size_t nrows)
{
    static const char *const cols[] = {
        "slice", "span", "first", "last", "cycles", "entries", "used", "avg_0%", "avg_1%",
        "avg_off%", "longest_0%", "longest_0_cell", "longest_1%", "longest_1_cell"};
    cli_table *t = table_new(fmt, out, 14, cols);
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
        table_dbl(t, 100 * rft_duty_frac(s->max0.t0, s->max0.cycles), 2);
        cell_name(b, sizeof b, &s->max0);
        table_str(t, b);
        table_dbl(t, 100 * rft_duty_frac(s->max1.t1, s->max1.cycles), 2);
        cell_name(b, sizeof b, &s->max1);
        table_str(t, b);
        table_end_row(t);
    }
    table_free(t);
}

static void window_opt(const char *s, rft_duty_opts *o)
{
    char buf[64];
    char *colon;
    if (strlen(s) >= sizeof buf || !(colon = strchr(strcpy(buf, s), ':')))
        usage_error("--window: '%s' is not FROM:TO", s);
    *colon = 0;
    o->from = cli_uint("--window", buf, 0, UINT64_MAX);
    o->to = cli_uint("--window", colon + 1, 0, UINT64_MAX);
    if (o->to < o->from)
        usage_error("--window: %s ends before it starts", s);
    o->window_set = 1;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"level", required_argument, 0, 'l'},
        {"span", required_argument, 0, 'p'},   {"window", required_argument, 0, 'W'},
        {"unused", required_argument, 0, 'u'}, {"summary", optional_argument, 0, 'S'},
        {"format", required_argument, 0, 'f'}, {0, 0, 0, 0}};
    rft_duty_opts o = {.span = RFT_SPAN_SLICE};
    rft_writer_opts wo = {.level = RFT_DEFAULT_LEVEL};
    const char *input = "-", *output = NULL, *sum = NULL;
    enum cli_fmt fmt = FMT_TABLE;
    int c, fmt_set = 0;
    cli_init(argc, argv, usage);
    while ((c = getopt_long(argc, argv, "o:s:f:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'l': wo.level = cli_level(optarg); break;
        case 'p':
            if (!(o.span = rft_span_parse(optarg)))
                usage_error("--span: '%s' is not one of stream, slice, busy", optarg);
            break;
        case 'W': window_opt(optarg, &o); break;
        case 'u':
            o.unused_on = cli_choice("--unused", optarg, "off|on");
            break;
        case 'S': sum = optarg ? optarg : "-"; break;
        case 's': sum = optarg; break;
        case 'f': fmt_set = 1; fmt = cli_format(optarg); break;
        default: cli_bad_option(argv);
        }
    }
    input = cli_input(argc, argv);
    if (o.window_set && o.span != RFT_SPAN_STREAM)
        usage_error("--window applies to --span stream only");
    if (fmt_set && !sum)
        usage_error("--format shapes the --summary report");
    /* --summary alone prints the report instead of the map */
    int stream = output || !sum || strcmp(sum, "-") != 0;
    if (!output)
        output = "-";
    if (stream && sum && strcmp(output, "-") == 0 && strcmp(sum, "-") == 0)
        usage_error("the map and the summary cannot both go to standard output");
    FILE *sum_out = sum ? side_open(sum) : NULL;

    stage.read_flags = RFT_IN_AHEAD;   /* decompression overlaps the accounting */
    rft_reader *r = stage_open(input);
    rft_header h;
    rft_header_init(&h, "rft-duty");
    char win[64];
    snprintf(win, sizeof win, "%llu:%llu", (unsigned long long)o.from, (unsigned long long)o.to);
    if (rft_header_copy(&h, rft_reader_header(r)) ||
        rft_header_set(&h, "duty.span", rft_span_name(o.span)) ||
        rft_header_set(&h, "duty.unused", o.unused_on ? "on" : "off") ||
        (o.window_set && rft_header_set(&h, "duty.window", win)))
        die("%s: header: too much metadata", input);
    if (h.geom.lane_bits != 32)
        die("%s: %u bits per lane: only 32 is supported", input, h.geom.lane_bits);
    if (stream)
        stage_output(output, &h, &wo);
    rft_duty *d = rft_duty_new(&h.geom, &o);
    if (!d)
        die("out of memory");
    rft_counter_set cs = {0};
    static rft_counters cnt;

    rft_rec rec;
    int e;
    while ((e = rft_read(r, &rec)) == 0) {
        if (rec.kind == RFT_COUNTERS) {     /* added up, written after the map */
            if (rft_counters_parse(rec.raw, rec.len, &cnt))
                stage_fail("malformed counters record");
            if ((e = rft_counter_set_add(&cs, &cnt)))
                stage_fail("%s", e == RFT_EMEM ? "out of memory" : "too many counters");
            continue;
        }
        if (rec.kind == RFT_DUTY)
            stage_fail("the input is a duty map already (rft-merge(1) adds maps)");
        if ((e = rft_duty_feed(d, &rec)) < 0)
            stage_fail("%s", rft_duty_error(d));
        if (e == 1 && stage.w)  /* a kind we do not know: passed on */
            stage_put(rft_write_raw(stage.w, rec.kind, rec.raw, rec.len));
    }
    stage_read_end(e);
    if (rft_duty_finish(d))
        stage_fail("%s", rft_duty_error(d));

    /* the map, by slice and entry; the summary's statistics on the way */
    uint32_t bits = 32u * h.geom.lanes;
    size_t nrec = rft_duty_count(d), nrows = 0;
    rft_duty_rec dr;
    uint8_t *buf = malloc(rft_duty_max_len(bits));
    dr.t1 = malloc(bits * sizeof *dr.t1);
    dr.toff = malloc(bits * sizeof *dr.toff);
    row *rows = calloc(nrec / h.geom.entries + 1, sizeof *rows);
    if (!buf || !dr.t1 || !dr.toff || !rows)
        die("out of memory");
    for (size_t i = 0; i < nrec; i++) {
        uint32_t len = rft_duty_emit(d, i, buf);
        if (stage.w)
            stage_put(rft_write_raw(stage.w, RFT_DUTY, buf, len));
        if (!sum)
            continue;
        const char *why;
        if (rft_duty_parse(buf, len, &dr, &why))
            stage_fail("%s", why);      /* cannot happen: our own encoding */
        if (i % h.geom.entries == 0)
            snprintf(rows[nrows++].name, sizeof rows[0].name, "%u:%u", dr.cu, dr.simd);
        rft_duty_stats_add(&rows[nrows - 1].st, &dr);
        rft_duty_stats_add(&rows[nrec / h.geom.entries].st, &dr);
    }
    snprintf(rows[nrows].name, sizeof rows[0].name, "all");
    rft_counter_set_sort(&cs);
    for (size_t i = 0; stage.w && i < cs.n; i++)
        stage_put(rft_write_counters(stage.w, cs.c[i]));
    if (sum_out) {              /* before the end record: a failure leaves none */
        summary(sum_out, fmt, rows, nrows + 1);
        side_close(sum_out, sum);
    }
    stage_close();
    rft_counter_set_free(&cs);
    rft_duty_free(d);
    rft_header_free(&h);
    free(rows);
    free(buf);
    free(dr.t1);
    free(dr.toff);
    return cli_close_stdout();
}
