/* rft-gate - power state of register-file entries from their contents: RC
 * (compressed registers switched off) or WC (BDI, the cells beyond the
 * stored bytes off); annotates writes and counts the events an energy
 * model needs, per slice and in total. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pattern.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-gate [-o FILE] [--level N] [--flush] [--scheme rc|wc] [--bs N]\n"
    "                [--deltas pow2|any] [--max-delta N] [--summary[=FILE]]\n"
    "                [--format table|tsv|csv|json] [FILE]\n"
    "Power-gate register-file entries by their contents (RC or WC) in an rft stream\n"
    "(rft(5)) placed by rft-alloc(1); annotate writes and count gating events.\n";

enum { RC = 1, WC = 2 };

/* Counters, in the order they are written (documented in rft-gate(1)). */
enum { C_WRITES, C_READS, C_DIV, C_COMPR, C_OFF, C_WAKE, C_MOV, C_BW, C_BW_X, C_BR, C_BR_X,
       C_CT_R, C_CT_W, C_CT_INV, C_COMP, C_COMP_B, C_DECOMP, C_DECOMP_B, NC };
static const char *const cname[NC] = {
    "writes", "reads", "divergent_writes", "compressed_writes", "switch_offs", "wakeups", "movs",
    "slice_block_writes", "slice_block_writes_cancelled", "slice_block_reads",
    "slice_block_reads_cancelled", "ctable_reads", "ctable_writes", "ctable_invalidations",
    "comp_unit_activations", "comp_unit_blocks", "decomp_unit_activations", "decomp_unit_blocks"};

typedef struct {
    uint16_t cu, simd;
    uint64_t n[NC];
    uint32_t *on;           /* per entry: bits powered (RC: 0 = compressed and off) */
} slice;

static struct {
    const char *input, *output, *summary;
    int scheme, opts_set;
    rft_pattern_opts po;
    enum cli_fmt fmt;
    rft_writer_opts wo;
    rft_writer *w;
    rft_reader *r;
    rft_geom geom;
    uint32_t full, blocks, block_bits, mb;  /* bits per entry, blocks per entry, bits per block, mask bytes */
    rft_map slice_of, wave_of;
    slice *slices;
    uint32_t nslices;
    uint8_t *masks;         /* per wave slot: mb bytes of its full exec mask, then a "set" byte */
    uint32_t nwaves, wcap, *wfree, nfree;
    uint64_t annotated;
} g = {.input = "-", .scheme = RC, .fmt = FMT_TABLE};

static slice *slice_get(uint16_t cu, uint16_t simd)
{
    uint64_t *v = rft_map_get(&g.slice_of, rft_slice_key(cu, simd));
    if (v)
        return &g.slices[*v];
    if (g.nslices == 1u << 20)
        stage_fail("more than %u slices", 1u << 20);
    g.slices = xrealloc(g.slices, (g.nslices + 1) * sizeof *g.slices);
    slice *s = memset(&g.slices[g.nslices], 0, sizeof *s);
    s->cu = cu;
    s->simd = simd;
    s->on = xrealloc(NULL, g.geom.entries * sizeof *s->on);
    for (uint32_t i = 0; i < g.geom.entries; i++)
        s->on[i] = g.full;      /* cells are on until something switches them off */
    if (rft_map_put(&g.slice_of, rft_slice_key(cu, simd), g.nslices))
        die("out of memory");
    return &g.slices[g.nslices++];
}

/* The full exec mask slot of a wavefront; reset = at its begin record. */
static uint8_t *wave_mask(uint16_t cu, uint16_t simd, uint32_t wf, int reset)
{
    uint64_t key = rft_wf_key(cu, simd, wf), *v = rft_map_get(&g.wave_of, key);
    uint32_t i;
    if (v)
        i = (uint32_t)*v;
    else {
        if (g.nfree)
            i = g.wfree[--g.nfree];
        else {
            if (g.nwaves == g.wcap) {
                g.wcap = g.wcap ? 2 * g.wcap : 64;
                g.masks = xrealloc(g.masks, (size_t)g.wcap * (g.mb + 1));
                g.wfree = xrealloc(g.wfree, g.wcap * sizeof *g.wfree);
            }
            i = g.nwaves++;
        }
        if (rft_map_put(&g.wave_of, key, i))
            die("out of memory");
        reset = 1;
    }
    uint8_t *m = g.masks + (size_t)i * (g.mb + 1);
    if (reset)
        m[g.mb] = 0;
    return m;
}

static void wave_end(const rft_wfend *e)
{
    uint64_t key = rft_wf_key(e->cu, e->simd, e->wf), *v = rft_map_get(&g.wave_of, key);
    if (v) {
        g.wfree[g.nfree++] = (uint32_t)*v;
        rft_map_del(&g.wave_of, key);
    }
}

/* Blocks (subwavefronts) holding the first `bits` bits of an entry. */
static uint32_t blocks_of(uint32_t bits) { return (bits + g.block_bits - 1) / g.block_bits; }

static int divergent(const rft_write *w)
{
    if (w->cls)
        return (w->flags & RFT_WF_DIVERGENT) != 0;
    uint8_t *full = wave_mask(w->cu, w->simd, w->wf, 0);
    if (!full[g.mb]) {          /* the first write sets the wavefront's full mask */
        memcpy(full, w->mask, g.mb);
        full[g.mb] = 1;
    }
    return memcmp(w->mask, full, g.mb) != 0;
}

/* RC: is the write compressible, and how many blocks did the compression
 * unit look at before it gave up (seed 002 5.1.3: it is deactivated for
 * the successive subwavefronts once a block does not fit)? */
static int rc_compressible(const rft_write *w, uint32_t *seen)
{
    rft_pattern p;
    unsigned bs;
    if (w->cls) {
        p.cls = w->cls;
        p.c0 = w->c0;
        p.de = w->de;
        p.db = w->db;
        p.firstblock = (w->flags & RFT_WF_FIRSTBLOCK) != 0;
        bs = w->bs ? w->bs : 8;
    } else {
        rft_pattern_classify(w->val, g.geom.lanes, g.geom.block_lanes, &g.po, &p);
        bs = g.po.bs;
    }
    if (p.cls != RFT_CLS_OTHER) {
        *seen = g.blocks;
        return 1;
    }
    *seen = 1;
    if (p.firstblock) {
        /* the first lane off the pattern; if every value fits, the rule
         * failed on Db, first used at lane bs */
        uint32_t i = 0, L = g.geom.lanes;
        for (; i < L; i++)
            if (w->val[i] != p.c0 + (uint32_t)(i / bs) * p.db + (uint32_t)(i % bs) * p.de)
                break;
        if (i == L)
            i = bs < L ? bs : L - 1;
        *seen = i / g.geom.block_lanes + 1;
        if (*seen > g.blocks)
            *seen = g.blocks;
    }
    return 0;
}

static uint32_t wc_bits(const rft_write *w)
{
    static const uint32_t per_lane[] = {0, 0, 8, 16, 32};
    uint32_t on;
    if (w->wc >= RFT_WC_BASE && w->wc <= RFT_WC_UNCOMP)
        return 32 + per_lane[w->wc] * (g.geom.lanes - 1);
    rft_wc_classify(w->val, g.geom.lanes, &on);
    return on;
}

static void gate_write(slice *s, rft_write *w)
{
    uint64_t *n = s->n;
    uint32_t *cur = &s->on[w->phys], B = g.blocks, now;
    int div = divergent(w);
    w->flags &= (uint8_t)~(RFT_WF_WAKEUP | RFT_WF_MOV);
    g.annotated += w->cls != 0;
    n[C_WRITES]++;
    if (div) {
        n[C_DIV]++;
        if (*cur < g.full) {
            /* the compressor is off for divergent writes: a compressed
             * register is first decompressed into its entry by a MOV */
            n[C_MOV]++;
            n[C_WAKE]++;
            w->flags |= RFT_WF_MOV | RFT_WF_WAKEUP;
            n[C_DECOMP]++;
            n[C_DECOMP_B] += B;
            if (g.scheme == RC) {
                n[C_CT_R]++;
                n[C_CT_INV]++;
            } else {
                uint32_t k = blocks_of(*cur);
                n[C_BR] += k;
                n[C_BR_X] += B - k;
            }
            n[C_BW] += B;
        }
        n[C_BW] += B;
        now = g.full;
    } else if (g.scheme == RC) {
        uint32_t seen;
        int comp = rc_compressible(w, &seen);
        n[C_COMP]++;
        n[C_COMP_B] += seen;
        if (comp) {
            n[C_COMPR]++;
            n[C_CT_W]++;
            if (*cur) {     /* written, then switched off */
                n[C_OFF]++;
                n[C_BW] += B;
            } else {        /* stays off: nothing reaches the slice */
                n[C_BW_X] += B;
            }
            now = 0;
        } else {
            if (*cur == 0) {
                n[C_WAKE]++;
                n[C_CT_INV]++;
                w->flags |= RFT_WF_WAKEUP;
            }
            n[C_BW] += B;
            now = g.full;
        }
    } else {
        now = wc_bits(w);
        uint32_t k = blocks_of(now);
        n[C_COMP]++;
        n[C_COMP_B] += B;
        n[C_BW] += k;
        n[C_BW_X] += B - k;
        n[C_COMPR] += now < g.full;
        n[C_OFF] += now < *cur;
        if (now > *cur) {
            n[C_WAKE]++;
            w->flags |= RFT_WF_WAKEUP;
        }
    }
    *cur = now;
    w->on_bits = now;
}

static void gate_read(slice *s, const rft_regread *r)
{
    uint64_t *n = s->n;
    uint32_t cur = s->on[r->phys], B = g.blocks;
    n[C_READS]++;
    if (g.scheme == RC) {
        /* the compression table is read beside the slice; a compressed
         * register cancels the slice reads after the first subwavefront */
        n[C_CT_R]++;
        n[C_DECOMP]++;
        if (cur == 0) {
            n[C_DECOMP_B] += B;
            n[C_BR] += 1;
            n[C_BR_X] += B - 1;
        } else {
            n[C_DECOMP_B] += 1;
            n[C_BR] += B;
        }
    } else {
        uint32_t k = blocks_of(cur);
        n[C_BR] += k;
        n[C_BR_X] += B - k;
        if (cur < g.full) {
            n[C_DECOMP]++;
            n[C_DECOMP_B] += B;
        }
    }
}

static slice *slice_for(uint16_t cu, uint16_t simd, uint16_t phys)
{
    if (phys == RFT_NO_PHYS)
        stage_fail("no physical entries: run rft-alloc first");
    if (phys >= g.geom.entries)
        stage_fail("physical entry %u outside the slice of %u entries", phys, g.geom.entries);
    return slice_get(cu, simd);
}

static int by_slice(const void *a, const void *b)
{
    const slice *x = a, *y = b;
    return x->cu != y->cu ? (x->cu > y->cu) - (x->cu < y->cu) : (x->simd > y->simd) - (x->simd < y->simd);
}

static void report(cli_table *t, const char *scope, const uint64_t *n)
{
    static rft_counters c;
    memset(&c, 0, sizeof c);
    snprintf(c.stage, sizeof c.stage, "rft-gate");
    snprintf(c.scope, sizeof c.scope, "%s", scope);
    for (int i = 0; i < NC; i++) {
        rft_counters_add(&c, cname[i], n[i]);
        if (t) {
            table_str(t, scope);
            table_str(t, cname[i]);
            table_u64(t, n[i]);
            table_end_row(t);
        }
    }
    if (g.w)
        stage_put(rft_write_counters(g.w, &c));
}

static void run(FILE *out)
{
    g.r = stage_open(g.input);
    const rft_header *in = rft_reader_header(g.r);
    g.geom = in->geom;
    g.full = 32 * g.geom.lanes;
    g.block_bits = 32 * g.geom.block_lanes;
    g.blocks = blocks_of(g.full);
    g.mb = rft_mask_bytes(&g.geom);
    char meta[96];
    if (g.scheme == WC)
        snprintf(meta, sizeof meta, "scheme=wc");
    else if (g.po.any)
        snprintf(meta, sizeof meta, "scheme=rc bs=%u deltas=any", g.po.bs);
    else
        snprintf(meta, sizeof meta, "scheme=rc bs=%u deltas=pow2 max-delta=%u", g.po.bs, g.po.max_delta);
    if (g.output) {
        const char *old;
        g.w = stage_output_as(g.output, "gate", meta, &g.wo, &old);
        if (old)
            warnx("warning: %s: gating again a stream gated with %s", g.input, old);
    }
    if (rft_map_init(&g.slice_of, 64) || rft_map_init(&g.wave_of, 256))
        die("out of memory");

    rft_rec *rec = xrealloc(NULL, sizeof *rec);
    int e;
    while ((e = rft_read(g.r, rec)) == 0) {
        switch (rec->kind) {
        case RFT_WFBEGIN:
            slice_get(rec->u.begin.cu, rec->u.begin.simd);
            wave_mask(rec->u.begin.cu, rec->u.begin.simd, rec->u.begin.wf, 1);
            break;
        case RFT_WFEND: wave_end(&rec->u.end); break;
        case RFT_WRITE:
            gate_write(slice_for(rec->w.cu, rec->w.simd, rec->w.phys), &rec->w);
            break;
        case RFT_READ: {
            const rft_regread *x = &rec->u.read;
            gate_read(slice_for(x->cu, x->simd, x->phys), x);
            break;
        }
        case RFT_COUNTERS: {
            static rft_counters c;  /* our own from an earlier run are replaced */
            if (rft_counters_parse(rec->raw, rec->len, &c) == 0 && strcmp(c.stage, "rft-gate") == 0)
                continue;
            break;
        }
        }
        if (g.w)
            stage_put(rft_write_rec(g.w, rec));
    }
    stage_read_end(e);
    free(rec);

    static const char *const cols[] = {"scope", "counter", "value"};
    cli_table *t = out ? table_new(g.fmt, out, 3, cols) : NULL;
    uint64_t total[NC] = {0};
    if (g.nslices > 1)
        qsort(g.slices, g.nslices, sizeof *g.slices, by_slice);
    for (uint32_t i = 0; i < g.nslices; i++) {
        char scope[32];
        snprintf(scope, sizeof scope, "slice %u:%u", g.slices[i].cu, g.slices[i].simd);
        report(t, scope, g.slices[i].n);
        for (int k = 0; k < NC; k++)
            total[k] += g.slices[i].n[k];
        free(g.slices[i].on);
    }
    report(t, "total", total);
    if (t)
        table_free(t);
    if (g.opts_set && g.annotated)
        warnx("warning: %s: %llu writes were gated by their rft-classify annotation; "
              "--bs, --deltas and --max-delta applied to the others only",
              g.input, (unsigned long long)g.annotated);
    if (out)                    /* before the end record: a failure leaves none */
        side_close(out, g.summary);
    stage_close();
    g.w = NULL;
    free(g.slices);
    free(g.masks);
    free(g.wfree);
    rft_map_free(&g.slice_of);
    rft_map_free(&g.wave_of);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS,                    {"scheme", required_argument, 0, 's'},
        {"bs", required_argument, 0, 'b'},     {"deltas", required_argument, 0, 'd'},
        {"max-delta", required_argument, 0, 'm'}, {"summary", optional_argument, 0, 'S'},
        {"format", required_argument, 0, 'f'}, {0, 0, 0, 0}};
    int c, max_set = 0, fmt_set = 0;
    cli_init(argc, argv, usage);
    rft_pattern_opts_default(&g.po);
    g.wo.level = RFT_DEFAULT_LEVEL;
    while ((c = getopt_long(argc, argv, "o:f:", opts, NULL)) != -1) {
        switch (c) {
        case 's': g.scheme = cli_choice("--scheme", optarg, "rc|wc") ? WC : RC; break;
        case 'b':
            g.opts_set = 1;
            g.po.bs = (unsigned)cli_uint("--bs", optarg, 1, RFT_PATTERN_MAX_BS);
            break;
        case 'd':
            g.opts_set = 1;
            g.po.any = cli_choice("--deltas", optarg, "pow2|any");
            break;
        case 'm':
            g.opts_set = max_set = 1;
            g.po.max_delta = (uint32_t)cli_uint("--max-delta", optarg, 1, 1u << 31);
            if (g.po.max_delta & (g.po.max_delta - 1))
                usage_error("--max-delta: %s is not a power of two", optarg);
            break;
        case 'S': g.summary = optarg ? optarg : "-"; break;
        case 'f': fmt_set = 1; g.fmt = cli_format(optarg); break;
        default:
            if (!cli_filter_option(c, &g.output, &g.wo))
                cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    if (max_set && g.po.any)
        usage_error("--max-delta applies to --deltas pow2 only");
    if (g.opts_set && g.scheme == WC)
        usage_error("--bs, --deltas and --max-delta apply to --scheme rc only");
    if (fmt_set && !g.summary)
        usage_error("--format shapes the --summary table");
    if (!g.output && !(g.summary && strcmp(g.summary, "-") == 0))
        g.output = "-";
    if (g.output && g.summary && strcmp(g.output, "-") == 0 && strcmp(g.summary, "-") == 0)
        usage_error("the stream and the summary cannot both go to standard output");
    run(g.summary ? side_open(g.summary) : NULL);
    return cli_close_stdout();
}
