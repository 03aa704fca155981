/* rft-merge - add the duty maps and counters of several rft streams: shards
 * of one trace run in parallel, or runs one after another. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "duty.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-merge [-o FILE] [--level N] FILE...\n"
    "Add the duty maps (rft-duty(1)) and the counters records of rft streams (rft(5)):\n"
    "cells of equal slice and entry are summed, counters of equal stage, scope and name.\n";

typedef struct {            /* the sum so far for one (slice, entry) */
    uint64_t key;
    uint8_t *p;             /* canonical payload */
    uint32_t len;
} cellrec;

static struct {
    cellrec *c;
    size_t n, cap;
    rft_map idx;            /* key -> index in c */
    int span, semantics;    /* of the first map */
    const char *first;      /* its file */
} g;

/* Bad input not tied to a record: "INPUT: what" */
static noreturn void input_fail(const char *what)
{
    rft_reader *r = stage.r;
    stage.r = NULL;
    rft_reader_close(r);
    stage_fail("%s", what);
}

/* Bad input found after reading it all: "INPUT: record N: what" */
static noreturn void input_fail_at(uint64_t n, const char *what)
{
    char m[256];
    snprintf(m, sizeof m, "record %llu: %s", (unsigned long long)n, what);
    input_fail(m);
}

static int cmp_cell(const void *a, const void *b)
{
    const cellrec *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"level", required_argument, 0, 'l'},
                                         {0, 0, 0, 0}};
    int c;
    const char *output = "-";
    rft_writer_opts wo = {.level = RFT_DEFAULT_LEVEL};
    cli_init(argc, argv, usage);
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'l': wo.level = cli_level(optarg); break;
        default: cli_bad_option(argv);
        }
    }
    if (optind == argc)
        usage_error("no input");
    for (int i = optind; i < argc; i++)
        for (int j = optind; j < i; j++)
            if (strcmp(argv[i], "-") == 0 && strcmp(argv[j], "-") == 0)
                usage_error("standard input given twice");

    static rft_duty_rec a, b;
    a.t1 = malloc(RFT_MAX_LANES * 32 * sizeof *a.t1);
    a.toff = malloc(RFT_MAX_LANES * 32 * sizeof *a.toff);
    b.t1 = malloc(RFT_MAX_LANES * 32 * sizeof *b.t1);
    b.toff = malloc(RFT_MAX_LANES * 32 * sizeof *b.toff);
    uint8_t *buf = malloc(rft_duty_max_len(RFT_MAX_LANES * 32));
    if (!a.t1 || !a.toff || !b.t1 || !b.toff || !buf || rft_map_init(&g.idx, 1024))
        die("out of memory");
    rft_counter_set cs = {0};
    static rft_counters cnt;
    rft_header h;
    rft_header_init(&h, "rft-merge");
    for (int i = optind; i < argc; i++) {
        const char *in = argv[i];
        rft_reader *r = stage_open(in);
        const rft_header *ih = rft_reader_header(r);
        if (i == optind) {
            if (rft_header_copy(&h, ih))
                input_fail("header: too much metadata");
            stage_output(output, &h, &wo);
        } else if (ih->geom.lanes != h.geom.lanes || ih->geom.entries != h.geom.entries) {
            uint32_t lanes = ih->geom.lanes, entries = ih->geom.entries;
            rft_reader_close(stage.r);  /* input_fail, with a message naming a file */
            stage.r = NULL;
            stage_fail("different geometry (%u lanes x %u entries) from %s (%u x %u)", lanes,
                       entries, argv[optind], h.geom.lanes, h.geom.entries);
        }
        rft_rec rec;
        int e;
        uint64_t trace = 0;         /* first trace record: refused once the stream is read */
        while ((e = rft_read(r, &rec)) == 0) {
            if (rec.kind >= RFT_KERNEL && rec.kind <= RFT_BUNDLE) {
                if (!trace)
                    trace = rft_reader_count(r);
                continue;
            }
            if (rec.kind == RFT_COUNTERS) {
                if (rft_counters_parse(rec.raw, rec.len, &cnt))
                    stage_fail("malformed counters record");
                if ((e = rft_counter_set_add(&cs, &cnt)))
                    stage_fail("%s", e == RFT_EMEM ? "out of memory" : "too many counters");
                continue;
            }
            if (rec.kind != RFT_DUTY) {     /* kinds we do not know: passed on */
                stage_put(rft_write_raw(stage.w, rec.kind, rec.raw, rec.len));
                continue;
            }
            const char *why;
            if (rft_duty_parse(rec.raw, rec.len, &b, &why))
                stage_fail("%s", why);
            if (b.lanes != h.geom.lanes || b.entries != h.geom.entries)
                stage_fail("duty map of another geometry than its header");
            int sem = b.flags & RFT_DUTY_SEMANTICS;
            if (!g.first) {
                g.first = in;
                g.span = b.span;
                g.semantics = sem;
            } else if (b.span != g.span || sem != g.semantics) {
                stage_fail("different window semantics (span %s, unused entries %s) from %s "
                           "(span %s, unused entries %s)",
                           rft_span_name(b.span), sem & RFT_DUTY_UNUSED_ON ? "on" : "off",
                           g.first, rft_span_name(g.span),
                           g.semantics & RFT_DUTY_UNUSED_ON ? "on" : "off");
            }
            uint64_t key = (uint64_t)rft_slice_key(b.cu, b.simd) << 16 | b.entry;
            uint64_t *v = rft_map_get(&g.idx, key);
            uint32_t len;
            if (v) {
                cellrec *x = &g.c[*v];
                if (rft_duty_parse(x->p, x->len, &a, &why) || rft_duty_add(&a, &b, &why))
                    stage_fail("%s", why);
                len = rft_duty_encode(&a, buf);
                free(x->p);
                if (!(x->p = malloc(len)))
                    die("out of memory");
                memcpy(x->p, buf, len);
                x->len = len;
                continue;
            }
            len = rft_duty_encode(&b, buf);     /* canonical form */
            if (g.n == g.cap) {
                g.cap = g.cap ? 2 * g.cap : 1024;
                if (!(g.c = realloc(g.c, g.cap * sizeof *g.c)))
                    die("out of memory");
            }
            cellrec *x = &g.c[g.n];
            *x = (cellrec){key, malloc(len), len};
            if (!x->p || rft_map_put(&g.idx, key, g.n))
                die("out of memory");
            memcpy(x->p, buf, len);
            g.n++;
        }
        stage_read_end(e);
        if (trace)
            input_fail_at(trace, "a trace, not a duty map: run rft-duty(1) first");
        if (i + 1 < argc) {     /* the output stays open for the next input */
            rft_reader_close(r);
            stage.r = NULL;
        }
    }
    if (g.n > 1)
        qsort(g.c, g.n, sizeof *g.c, cmp_cell);
    for (size_t i = 0; i < g.n; i++) {
        stage_put(rft_write_raw(stage.w, RFT_DUTY, g.c[i].p, g.c[i].len));
        free(g.c[i].p);
    }
    rft_counter_set_sort(&cs);
    for (size_t i = 0; i < cs.n; i++)
        stage_put(rft_write_counters(stage.w, cs.c[i]));
    stage_close();
    rft_counter_set_free(&cs);
    rft_map_free(&g.idx);
    rft_header_free(&h);
    free(g.c);
    free(buf);
    free(a.t1);
    free(a.toff);
    free(b.t1);
    free(b.toff);
    return cli_close_stdout();
}
