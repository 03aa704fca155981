/* fuzz_dec.c - one simulator-log decoder (decoders.h), named at build time
 * by FUZZ_FORMAT (its --format name: "m2s", "gem5", ...): the Makefile
 * builds one harness per name in FUZZ_DECODERS.
 *
 * Every line is an exact-length copy with nothing after it (fuzz_lines), as
 * a library caller may pass it, so reading past a line is caught.  A bad line
 * is skipped (as --skip-bad does) so the lines after it are explored too.
 * An input of up to ALL_SETS bytes is decoded with every option set of its
 * format (below), a longer one with one of them, chosen by its length: most
 * mutations (bytes changed, not inserted) keep an input with its set, and
 * every set is explored, at the cost of one decoding (two with a pre-scan)
 * an input instead of one per set.  A replay (replay.c) decodes every input
 * with every set. */
#include <stdlib.h>
#include <string.h>

#include "decoders.h"
#include "fuzz.h"

#ifndef FUZZ_FORMAT
#error "build with -DFUZZ_FORMAT='\"NAME\"'"
#endif

#define ALL_SETS 1024

/* The option sets each input is decoded with: those of the fixtures
 * (tests/decode-formats.bats), defaults, and a fixed window (no pre-scan).
 * Zero fields keep rft_dec_opts_default's value.  A format without a line
 * here is decoded with the defaults or with nvgprs = 8. */
typedef struct option_set {
    const char *format;
    uint32_t lanes, block_lanes, entries, cus, simds, nvgprs, local[3];
    const char *kernel, *columns;
    int all_lanes, ipoint_after;        /* cutracer: --assume-all-lanes-active,
                                           --cutracer-ipoint after */
} option_set;
static const option_set option_sets[] = {
    {"m2s", .nvgprs = 8},
    {"m2s", .lanes = 8, .block_lanes = 4, .local = {4, 2}, .cus = 2, .simds = 2, .kernel = "demo"},
    {"m2s", .local = {8, 8}, .kernel = "mmmKernel"},
    {"gem5", .nvgprs = 8},
    {"gem5", .lanes = 8, .block_lanes = 4, .entries = 64, .kernel = "vadd"},
    {"nvbit", .lanes = 32},
    {"nvbit", .lanes = 32, .nvgprs = 8},
    {"columns", .lanes = 4, .block_lanes = 4},
    {"evg", .lanes = 4, .block_lanes = 4},
    {"evg", .cus = 20},
    {"cutracer", .lanes = 32, .block_lanes = 8, .entries = 512},
    {"cutracer", .lanes = 32, .block_lanes = 8, .entries = 512, .nvgprs = 8},
    {"cutracer", .lanes = 32, .block_lanes = 8, .entries = 512, .all_lanes = 1, .ipoint_after = 1},
    {"columns", .lanes = 4, .block_lanes = 4,
     .columns = "kind=0,cycle=1,cu=2,simd=3,wf=4,vreg=5,mask=6,v0=7,nregs=11,kernel=12"},
};
static const option_set fallback_sets[] = {{.format = NULL}, {.nvgprs = 8}};

static void options(const option_set *set, rft_dec_opts *o)
{
    rft_dec_opts_default(o);
#define OVERRIDE(field, value) if (value) field = value
    OVERRIDE(o->geom.lanes, set->lanes);
    OVERRIDE(o->geom.block_lanes, set->block_lanes);
    OVERRIDE(o->geom.entries, set->entries);
    OVERRIDE(o->cus, set->cus);
    OVERRIDE(o->simds, set->simds);
    OVERRIDE(o->nvgprs, set->nvgprs);
    OVERRIDE(o->kernel, set->kernel);
    OVERRIDE(o->columns, set->columns);
    OVERRIDE(o->all_lanes, set->all_lanes);
    OVERRIDE(o->ipoint_after, set->ipoint_after);
#undef OVERRIDE
    memcpy(o->local, set->local, sizeof o->local);
}

struct run {
    rft_dec *dec;
    const rft_geom *geom;
};

static int emit(void *ctx, const rft_rec *r)
{
    struct run *run = ctx;
    int e = fuzz_write(run->geom, r);      /* as rft-decode does */
    fuzz_use_record(run->geom, r);
    return e;
}

static int line(void *ctx, char *s, size_t n)
{
    struct run *run = ctx;
    int e = rft_dec_line(run->dec, s, n);
    return e == RFT_EFORMAT ? 0 : e;
}

/* header metadata, as rft-decode keeps it */
static void describe(void *ctx, const char *k, const char *v)
{
    (void)rft_header_set(ctx, k, v);
}

/* Decode the whole input with decoder dec (made with options o); a
 * pre-scan (o->prescan) gives the window sizes it found in nregs[0..*nk). */
static void decode(rft_dec *dec, const uint8_t *data, size_t size, const rft_dec_opts *o,
                   struct run *run, uint16_t *nregs, uint32_t *nk)
{
    rft_header h;
    rft_header_init(&h, "fuzz");
    h.geom = o->geom;
    run->dec = dec;
    int e = fuzz_lines(data, size, line, run);
    if (!e)
        e = rft_dec_finish(dec);
    if (o->prescan)
        *nk = rft_dec_kernel_regs(dec, nregs, 4096);
    rft_counters c;
    rft_dec_counters(dec, &c);
    rft_dec_describe(dec, describe, &h);
    FUZZ_ASSERT(strlen(rft_dec_why(dec)) < 256);
    rft_dec_free(dec);
    rft_header_free(&h);
}

static rft_dec *dec_new(const rft_dec_opts *o, struct run *run)
{
    char err[RFT_DEC_ERRLEN];
    rft_dec *d = rft_dec_new(rft_fmt_parse(FUZZ_FORMAT), o, o->prescan ? NULL : emit, run, err,
                             sizeof err);
    FUZZ_ASSERT(d != NULL);
    return d;
}

/* Decode as rft-decode does (decode.c, start_log): the decoder sees the
 * start of the input (the window sizes a format may declare there), and
 * a pre-scan comes first only when the window sizes must come from the
 * log itself. */
static void decode_as_rft_decode(const uint8_t *data, const char *copy, size_t size,
                                 const rft_dec_opts *o)
{
    static uint16_t nregs[4096];    /* rft-decode's limit */
    uint32_t nk = 0;
    struct run run = {.geom = &o->geom};
    rft_dec *d = dec_new(o, &run);
    rft_dec_peek(d, copy, size);
    if (!rft_dec_needs_prescan(d)) {
        decode(d, data, size, o, &run, NULL, NULL);
        return;
    }
    rft_dec_free(d);
    rft_dec_opts scan = *o, after = *o;
    scan.prescan = 1;
    decode(dec_new(&scan, &run), data, size, &scan, &run, nregs, &nk);
    if (!nk)
        nregs[0] = 1;
    after.nregs = nregs;
    after.n_nregs = nk ? nk : 1;
    decode(dec_new(&after, &run), data, size, &after, &run, NULL, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { SETS = sizeof option_sets / sizeof *option_sets };
    static const option_set *sets[SETS];
    static int nsets;
    if (!nsets) {   /* this format's option sets, or the fallback ones */
        for (size_t i = 0; i < SETS; i++)
            if (strcmp(option_sets[i].format, FUZZ_FORMAT) == 0)
                sets[nsets++] = &option_sets[i];
        if (!nsets)
            for (size_t i = 0; i < sizeof fallback_sets / sizeof *fallback_sets; i++)
                sets[nsets++] = &fallback_sets[i];
    }
    /* detection and the decoder's peek see the start of the input, of
     * exact length too */
    char *copy = fuzz_copy(data, size);
    (void)rft_fmt_detect(copy, size, NULL);
    rft_dec_opts o;
    for (int i = 0; i < nsets; i++)
        if (fuzz_every_way || size <= ALL_SETS || (size_t)i == size % (size_t)nsets) {
            options(sets[i], &o);
            decode_as_rft_decode(data, copy, size, &o);
        }
    free(copy);
    return 0;
}
