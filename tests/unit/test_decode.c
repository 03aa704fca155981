/* test_decode.c - rft-decode's driving loop as a library object (decode.h),
 * fed bytes in memory: the header held until the first record, lines split
 * across reads, an error after the header coming after the records before
 * it, options that do not fit the format, warnings; and rft-view's
 * selection (view.h) and rft-repeat's shifting (repeat.h) on records made
 * here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "repeat.h"
#include "view.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

/* a sink keeping the kinds and cycles of what it gets */
typedef struct {
    int n;
    int kind[16];
    uint64_t cycle[16];
} got;

static int keep(void *ctx, rft_rec *r)
{
    got *g = ctx;
    CHECK(g->n < 16);
    g->kind[g->n] = r->kind;
    g->cycle[g->n++] = rft_rec_cycle(r);
    return 0;
}

static char warned[512];
static void warn(void *ctx, const char *msg) { snprintf(warned, sizeof warned, "%s", msg); }

/* Give text to d in pieces of at most `piece` bytes, stepping with out until
 * the step says something other than MORE; returns what it said. */
static int feed(rft_decode *d, const char **text, size_t piece, const rft_sink *out)
{
    for (;;) {
        int e = rft_decode_step(d, out);
        if (e != RFT_DECODE_MORE)
            return e;
        size_t room, n = strlen(*text) < piece ? strlen(*text) : piece;
        char *p = rft_decode_space(d, &room);
        CHECK(room >= n);
        memcpy(p, *text, n);
        *text += n;
        rft_decode_fill(d, n);
    }
}

static rft_decode *text_decoder(int fmt)
{
    rft_decode_opts o;
    rft_decode_opts_default(&o);
    o.fmt = fmt;
    o.input = "in";
    o.warn = warn;
    rft_decode *d = rft_decode_new(&o);
    CHECK(d != NULL);
    return d;
}

static void header_then_records(void)
{
    const char *text = "# gpu=x\r\nK\t1\tk\nB 2 0 0 0 4\n# late=1\nE\t3\t0\t0\t0";
    got g = {0};
    rft_sink out = {keep, &g};
    rft_decode *d = text_decoder(RFT_FMT_NONE);
    /* three bytes a read: lines cut anywhere; the header is final at K */
    CHECK(feed(d, &text, 3, NULL) == RFT_DECODE_HEADER);
    const rft_header *h = rft_decode_header(d);
    CHECK(strcmp(rft_header_get(h, "gpu"), "x") == 0);
    CHECK(strcmp(rft_header_get(h, "decoder"), "text") == 0);
    CHECK(strcmp(rft_header_get(h, "source"), "in") == 0);
    CHECK(g.n == 0);
    CHECK(feed(d, &text, 3, &out) == RFT_DECODE_DONE);
    CHECK(g.n == 3 && g.kind[0] == RFT_KERNEL && g.kind[1] == RFT_WFBEGIN && g.kind[2] == RFT_WFEND);
    CHECK(g.cycle[2] == 3);     /* the last line had no newline */
    CHECK(rft_header_get(h, "late") == NULL);
    CHECK(strcmp(warned, "warning: in: 1 '# key=value' lines after the first record were kept "
                         "as comments (metadata must come first)") == 0);
    const rft_decode_info *in = rft_decode_progress(d);
    CHECK(in->fmt == RFT_FMT_TEXT && in->lines == 5 && in->records == 3);
    rft_decode_free(d);
}

static void errors(void)
{
    got g = {0};
    rft_sink out = {keep, &g};
    /* a bad first record: the output would be open, so the error waits */
    const char *text = "# a=1\nX\t1\n";
    rft_decode *d = text_decoder(RFT_FMT_TEXT);
    CHECK(feed(d, &text, 100, NULL) == RFT_DECODE_HEADER);
    CHECK(feed(d, &text, 100, &out) == RFT_EFORMAT);
    CHECK(rft_decode_progress(d)->err_line == 2);
    CHECK(strcmp(rft_decode_why(d), "unknown record type 'X'") == 0);
    rft_decode_free(d);
    /* after good records: they come out first */
    text = "K,5,k\nK,4,j\n";
    d = text_decoder(RFT_FMT_CSV);
    CHECK(feed(d, &text, 100, NULL) == RFT_DECODE_HEADER);
    CHECK(feed(d, &text, 100, &out) == RFT_EFORMAT);
    CHECK(g.n == 1 && g.cycle[0] == 5);
    CHECK(strcmp(rft_decode_why(d), "cycle 4 goes backwards (previous 5)") == 0);
    rft_decode_free(d);
    /* --skip-bad has no meaning for the canonical grammar */
    rft_decode_opts o;
    rft_decode_opts_default(&o);
    o.skip_bad = 1;
    text = "K\t1\tk\n";
    CHECK((d = rft_decode_new(&o)) != NULL);
    CHECK(feed(d, &text, 100, NULL) == RFT_DECODE_EOPTS);
    CHECK(strstr(rft_decode_why(d), "--skip-bad") != NULL);
    rft_decode_free(d);
    /* nothing at all: an empty stream, its header final at the end */
    text = "";
    d = text_decoder(RFT_FMT_NONE);
    CHECK(feed(d, &text, 100, NULL) == RFT_DECODE_DONE);
    CHECK(feed(d, &text, 100, &out) == RFT_DECODE_DONE);
    rft_decode_free(d);
}

static rft_rec *rec_of(int kind, uint64_t cycle, uint16_t simd, uint32_t wf, uint32_t kernel)
{
    static rft_rec r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    if (kind == RFT_KERNEL)
        r.u.kernel = (rft_kernel){cycle, kernel, 0, "k", 1};
    else if (kind == RFT_WFBEGIN)
        r.u.begin = (rft_wfbegin){cycle, 0, simd, wf, 4, RFT_BF_KERNEL, RFT_NO_WG, kernel};
    else if (kind == RFT_WFEND)
        r.u.end = (rft_wfend){cycle, 0, simd, wf};
    return &r;
}

static void view_selects(void)
{
    rft_view_opts o;
    rft_view_opts_default(&o);
    o.kinds = rft_view_kind('B') | rft_view_kind('E');
    o.slice_set = 1;
    o.simd = 1;
    o.kernel_set = 1;
    o.kernel_name = "k";
    o.stats = 1;
    rft_view *v = rft_view_new(&o);
    CHECK(v && rft_view_kind('Z') == 0);
    CHECK(rft_view_select(v, rec_of(RFT_KERNEL, 1, 0, 0, 0)) == 0);    /* not a kind shown */
    CHECK(rft_view_select(v, rec_of(RFT_WFBEGIN, 2, 1, 7, 0)) == 1);
    CHECK(rft_view_select(v, rec_of(RFT_WFBEGIN, 3, 0, 8, 0)) == 0);   /* another slice */
    CHECK(rft_view_select(v, rec_of(RFT_WFEND, 9, 1, 7, 0)) == 1);     /* its kernel, by its B */
    const rft_view_stats *s = rft_view_counted(v);
    CHECK(s->kind[RFT_WFBEGIN] == 1 && s->kind[RFT_WFEND] == 1 && s->slices == 1);
    CHECK(s->first == 2 && s->last == 9);
    char line[RFT_VIEW_LINE_MAX];
    rft_geom g;
    rft_geom_default(&g);
    size_t n = rft_view_json(&g, rec_of(RFT_WFEND, 9, 1, 7, 0), line);
    CHECK(n == strlen(line));
    CHECK(strcmp(line, "{\"kind\": \"E\", \"cycle\": 9, \"cu\": 0, \"simd\": 1, \"wf\": 7}") == 0);
    rft_view_free(v);
}

/* The longest JSON line: a counters record whose every string is control
 * characters (6 bytes each escaped), every value 2^64 - 1. */
static void view_longest_counters(void)
{
    rft_counters *c = calloc(1, sizeof *c);
    uint8_t *raw = malloc(RFT_COUNTERS_MAX);
    char *line = malloc(RFT_VIEW_LINE_MAX);
    rft_view_opts o;
    rft_view_opts_default(&o);
    rft_view *v = rft_view_new(&o);
    CHECK(c && raw && line && v);
    memset(c->stage, 1, sizeof c->stage - 1);
    memset(c->scope, 1, sizeof c->scope - 1);
    c->n = RFT_MAX_COUNTERS;
    for (int i = 0; i < c->n; i++) {
        memset(c->name[i], 1, sizeof c->name[i] - 1);
        c->value[i] = UINT64_MAX;
    }
    rft_rec r = {.kind = RFT_COUNTERS, .raw = raw, .len = rft_counters_encode(c, raw)};
    size_t n = rft_view_other(v, &r, 1, '\t', line);
    CHECK(n < RFT_VIEW_LINE_MAX && n == strlen(line));
    CHECK(n > 6 * (sizeof c->scope - 1 + RFT_MAX_COUNTERS * (sizeof c->name[0] - 1)));
    rft_view_free(v);
    free(line);
    free(raw);
    free(c);
}

static void repeat_shifts(void)
{
    got g = {0};
    rft_sink out = {keep, &g};
    rft_repeat *r = rft_repeat_new(2, 10);
    /* the copy runs 100..150: the second starts at 161, its kernel is 1 */
    for (int k = 0; k < 2; k++) {
        CHECK(rft_repeat_feed(r, rec_of(RFT_KERNEL, 100, 0, 0, 0), &out) == 0);
        CHECK(rft_repeat_feed(r, rec_of(RFT_WFEND, 150, 0, 0, 0), &out) == 0);
        CHECK(rft_repeat_next(r) == 0);
    }
    CHECK(g.n == 4 && g.cycle[2] == 161 && g.cycle[3] == 211);
    rft_repeat_free(r);
    /* a second reading that is not the first */
    r = rft_repeat_new(2, 0);
    CHECK(rft_repeat_feed(r, rec_of(RFT_WFEND, 150, 0, 0, 0), &out) == 0);
    CHECK(rft_repeat_next(r) == 0);
    CHECK(rft_repeat_feed(r, rec_of(RFT_WFEND, 151, 0, 0, 0), &out) == RFT_EFORMAT);
    CHECK(strcmp(rft_repeat_why(r), "cycle 151: the input changed between two readings") == 0);
    rft_repeat_free(r);
}

int main(void)
{
    header_then_records();
    errors();
    view_selects();
    view_longest_counters();
    repeat_shifts();
    puts("test_decode: ok");
    return 0;
}
