/* rft-classify - annotate every register write with its value pattern
 * (RC/DC-Patch, WC), speculation and divergence; summarise per kernel. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pattern.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-classify [-o FILE] [--level N] [--flush] [--bs N|auto] [--deltas pow2|any]\n"
    "                    [--max-delta N]"
    " [--summary[=FILE] | -s FILE] [--by kernel|reg] [--counts]\n"
    "                    [--format table|tsv|csv|json] [--sweep] [FILE]\n"
    "Annotate the register writes of an rft stream (rft(5)) with their RC/DC-Patch\n"
    "pattern, speculation, divergence and WC class; summarise them per kernel.\n";

/* Per-row counters; the class and WC blocks follow the enums' order. */
enum { N_WRITES, N_CONST, N_SINGLE, N_DOUBLE, N_OTHER, N_COMPR, N_MISP, N_DIV, N_MOV,
       N_BASE, N_D1, N_D2, N_UNC, N_ONBITS, NSTAT };
static const char *const cols[2][NSTAT] = {
    {"writes", "const%", "single%", "double%", "other%", "compr%", "mispred%", "diverg%",
     "mov%", "wc_base%", "wc_d1%", "wc_d2%", "wc_unc%", "wc_on%"},
    {"writes", "const", "single", "double", "other", "compr", "mispred", "diverg",
     "mov", "wc_base", "wc_d1", "wc_d2", "wc_unc", "wc_on_bits"}};
typedef struct { uint64_t n[NSTAT]; } stats;

typedef struct {            /* a kernel, by name: launches of one kernel share it */
    char *name;
    unsigned bs;
    stats all, *reg;        /* reg: per logical register with --by reg */
    unsigned nreg;
    uint64_t cover[2 * RFT_PATTERN_MAX_BS];  /* coverage pass: writes that fit, per conf */
} group;

typedef struct {            /* a live wavefront */
    unsigned group;
    int have_full;
    uint8_t full[RFT_MAX_LANES / 8];  /* its full exec mask: that of its first write */
    uint64_t *comp;         /* bit per logical register: content compressed now */
    unsigned ncomp;         /* words in comp */
} wave;

static struct {
    const char *input, *output, *summary;
    FILE *summary_out;          /* opened before the work */
    rft_pattern_opts po;
    int bs_auto, by_reg, counts, sweep, spool_fd;
    enum cli_fmt fmt;
    rft_writer_opts wo;
    rft_writer *w;
    rft_geom geom;
    group *groups;
    unsigned ngroups, cur_group;
    unsigned *kgroup, nk;   /* kernel index -> group */
    rft_map wfs;            /* wavefront key -> index in waves */
    wave *waves;
    unsigned nwaves, *free_waves, nfree;
    rft_pattern_opts conf[2 * RFT_PATTERN_MAX_BS];  /* coverage pass configurations */
    unsigned nconf;
} g = {.input = "-", .spool_fd = -1, .cur_group = ~0u};

/* Grow array p of *n elements of size sz to want elements, the new ones
 * filled with byte fill. */
static void *grow(void *p, unsigned *n, unsigned want, size_t sz, int fill)
{
    if (want > *n) {
        p = xrealloc(p, want * sz);
        memset((char *)p + *n * sz, fill, (want - *n) * sz);
        *n = want;
    }
    return p;
}

static unsigned group_of(const char *name, size_t len)
{
    for (unsigned i = 0; i < g.ngroups; i++)
        if (strlen(g.groups[i].name) == len && memcmp(g.groups[i].name, name, len) == 0)
            return i;
    g.groups = xrealloc(g.groups, (g.ngroups + 1) * sizeof *g.groups);
    group *gr = memset(&g.groups[g.ngroups], 0, sizeof *gr);
    if (!(gr->name = strndup(name, len)))
        die("out of memory");
    gr->bs = g.po.bs;
    return g.ngroups++;
}

static void on_kernel(const rft_kernel *k)
{
    if (k->index >= 1u << 24)
        stage_fail("too many kernels");
    g.kgroup = grow(g.kgroup, &g.nk, k->index + 1, sizeof *g.kgroup, 0xff);  /* ~0u: unseen */
    g.cur_group = g.kgroup[k->index] = group_of(k->name, k->name_len);
}

/* The wavefront's state, created (or reset, at its begin record) on demand. */
static wave *wave_get(uint16_t cu, uint16_t simd, uint32_t wf, const rft_wfbegin *b)
{
    uint64_t key = rft_wf_key(cu, simd, wf), *v = rft_map_get(&g.wfs, key);
    unsigned i;
    if (v && !b)
        return &g.waves[*v];
    if (v)
        i = (unsigned)*v;
    else if (g.nfree)
        i = g.free_waves[--g.nfree];
    else {
        g.waves = xrealloc(g.waves, (g.nwaves + 1) * sizeof *g.waves);
        g.free_waves = xrealloc(g.free_waves, (g.nwaves + 1) * sizeof *g.free_waves);
        i = g.nwaves++;
        g.waves[i].comp = NULL;
        g.waves[i].ncomp = 0;
    }
    if (!v && rft_map_put(&g.wfs, key, i))
        die("out of memory");
    wave *wv = &g.waves[i];
    if (b && b->kernel < g.nk && g.kgroup[b->kernel] != ~0u)
        wv->group = g.kgroup[b->kernel];
    else
        wv->group = g.cur_group != ~0u ? g.cur_group : (g.cur_group = group_of("-", 1));
    wv->have_full = 0;
    if (wv->ncomp)
        memset(wv->comp, 0, wv->ncomp * sizeof *wv->comp);
    return wv;
}

static void wave_end(const rft_wfend *e)
{
    uint64_t key = rft_wf_key(e->cu, e->simd, e->wf), *v = rft_map_get(&g.wfs, key);
    if (v) {
        g.free_waves[g.nfree++] = (unsigned)*v;
        rft_map_del(&g.wfs, key);
    }
}

/* Read and update the compressed bit of register r; returns the old bit. */
static int swap_comp(wave *wv, unsigned r, int now)
{
    unsigned word = r / 64;
    wv->comp = grow(wv->comp, &wv->ncomp, word + 1, sizeof *wv->comp, 0);
    uint64_t bit = 1ull << (r % 64);
    int was = (wv->comp[word] & bit) != 0;
    wv->comp[word] = now ? wv->comp[word] | bit : wv->comp[word] & ~bit;
    return was;
}

static void count(stats *s, const rft_write *w, uint32_t on)
{
    s->n[N_WRITES]++;
    s->n[N_CONST + w->cls - RFT_CLS_CONST]++;
    s->n[N_COMPR] += w->cls != RFT_CLS_OTHER && !(w->flags & RFT_WF_DIVERGENT);
    s->n[N_MISP] += w->cls == RFT_CLS_OTHER && (w->flags & RFT_WF_FIRSTBLOCK) &&
                    !(w->flags & RFT_WF_DIVERGENT);
    s->n[N_DIV] += (w->flags & RFT_WF_DIVERGENT) != 0;
    s->n[N_MOV] += (w->flags & RFT_WF_MOV) != 0;
    s->n[N_BASE + w->wc - RFT_WC_BASE]++;
    s->n[N_ONBITS] += on;
}

static void classify(rft_write *w)
{
    wave *wv = wave_get(w->cu, w->simd, w->wf, NULL);
    group *gr = &g.groups[wv->group];
    rft_pattern_opts o = g.po;
    rft_pattern p;
    uint32_t on, mb = rft_mask_bytes(&g.geom);

    o.bs = gr->bs;
    rft_pattern_classify(w->val, g.geom.lanes, g.geom.block_lanes, &o, &p);
    if (!wv->have_full) {
        memcpy(wv->full, w->mask, mb);
        wv->have_full = 1;
    }
    int div = memcmp(w->mask, wv->full, mb) != 0;
    /* the compressor is off for divergent writes: they leave the register
     * uncompressed, and a compressed one needs a decompressing MOV first */
    int mov = swap_comp(wv, w->vreg, !div && p.cls != RFT_CLS_OTHER) && div;
    w->cls = (uint8_t)p.cls;
    w->bs = (uint8_t)o.bs;
    w->c0 = p.c0;
    w->de = p.de;
    w->db = p.db;
    w->wc = (uint8_t)rft_wc_classify(w->val, g.geom.lanes, &on);
    w->flags = (uint8_t)((w->flags & ~(RFT_WF_FIRSTBLOCK | RFT_WF_DIVERGENT | RFT_WF_MOV)) |
                         (p.firstblock ? RFT_WF_FIRSTBLOCK : 0) | (div ? RFT_WF_DIVERGENT : 0) |
                         (mov ? RFT_WF_MOV : 0));
    count(&gr->all, w, on);
    if (g.by_reg) {
        gr->reg = grow(gr->reg, &gr->nreg, w->vreg + 1u, sizeof *gr->reg, 0);
        count(&gr->reg[w->vreg], w, on);
    }
}

static void cover(const rft_write *w)
{
    group *gr = &g.groups[wave_get(w->cu, w->simd, w->wf, NULL)->group];
    gr->all.n[N_WRITES]++;
    for (unsigned c = 0; c < g.nconf; c++) {
        rft_pattern p;
        rft_pattern_classify(w->val, g.geom.lanes, g.geom.lanes, &g.conf[c], &p);
        gr->cover[c] += p.cls != RFT_CLS_OTHER;
    }
}

static void summary(FILE *out);

/* One pass over the input: the coverage counts (classifying = 0) or the
 * classification, with the annotated stream written out if wanted. */
static void run(const char *path, int classifying, int stream)
{
    if (g.spool_fd >= 0 && lseek(g.spool_fd, 0, SEEK_SET) < 0)
        die("%s: %s", g.input, strerror(errno));
    rft_reader *r = stage_open(path);
    stage.input = g.input;  /* messages name what the user gave, not the spool */
    const rft_header *in = rft_reader_header(r);
    g.geom = in->geom;
    g.nk = 0;
    g.cur_group = ~0u;
    g.nfree = 0;
    rft_map_free(&g.wfs);
    if (rft_map_init(&g.wfs, 64))
        die("out of memory");
    for (unsigned i = 0; i < g.nwaves; i++)
        g.free_waves[g.nfree++] = i;

    char meta[96], bs[8] = "auto";
    if (!g.bs_auto)
        snprintf(bs, sizeof bs, "%u", g.po.bs);
    if (g.po.any)
        snprintf(meta, sizeof meta, "bs=%s deltas=any", bs);
    else
        snprintf(meta, sizeof meta, "bs=%s deltas=pow2 max-delta=%u", bs, g.po.max_delta);
    const char *old = rft_header_get(in, "classify");
    if (classifying && old && strcmp(old, meta) != 0)
        warnx("warning: %s: re-classifying writes classified with %s", g.input, old);
    if (stream) {
        rft_header h;
        rft_header_init(&h, "rft-classify");
        if (rft_header_copy(&h, in) || rft_header_set(&h, "classify", meta))
            die("%s: cannot copy the header", g.input);
        g.w = stage_output(g.output, &h, &g.wo);
        rft_header_free(&h);
    }
    rft_rec *rec = xrealloc(NULL, sizeof *rec);
    int e;
    while ((e = rft_read(r, rec)) == 0) {
        switch (rec->kind) {
        case RFT_KERNEL: on_kernel(&rec->u.kernel); break;
        case RFT_WFBEGIN: {
            const rft_wfbegin *b = &rec->u.begin;
            wave_get(b->cu, b->simd, b->wf, b);
            break;
        }
        case RFT_WFEND: wave_end(&rec->u.end); break;
        case RFT_WRITE: classifying ? classify(&rec->w) : cover(&rec->w); break;
        }
        if (g.w)
            stage_put(rft_write_rec(g.w, rec));
    }
    stage_read_end(e);
    free(rec);
    if (classifying && g.summary_out) {    /* before the end record: a failure leaves none */
        summary(g.summary_out);
        side_close(g.summary_out, g.summary);
    }
    stage_close();
    g.w = NULL;
}

/* A count, or a percentage of whole. */
static void cell(cli_table *t, uint64_t n, double whole)
{
    if (g.counts)
        table_u64(t, n);
    else
        table_dbl(t, whole > 0 ? 100.0 * (double)n / whole : 0.0, 2);
}

static void row(cli_table *t, const char *kernel, const char *reg, unsigned bs, const stats *s)
{
    double writes = (double)s->n[N_WRITES];
    table_str(t, kernel);
    if (g.by_reg)
        table_str(t, reg);
    table_u64(t, bs);
    table_u64(t, s->n[N_WRITES]);
    for (int c = N_WRITES + 1; c < NSTAT; c++)
        cell(t, s->n[c], c == N_ONBITS ? writes * 32 * g.geom.lanes : writes);
    table_end_row(t);
}

static void summary(FILE *out)
{
    const char *names[3 + NSTAT] = {"kernel", "reg"};
    int off = 1 + g.by_reg;
    names[off] = "bs";
    memcpy(names + off + 1, cols[g.counts], sizeof cols[0]);
    cli_table *t = table_new(g.fmt, out, off + 1 + NSTAT, names);
    stats total = {{0}};
    unsigned bs = g.ngroups ? g.groups[0].bs : g.po.bs;
    char num[16];
    for (unsigned i = 0; i < g.ngroups; i++) {
        const group *gr = &g.groups[i];
        for (unsigned r = 0; r < gr->nreg; r++)
            if (gr->reg[r].n[N_WRITES]) {
                snprintf(num, sizeof num, "%u", r);
                row(t, gr->name, num, gr->bs, &gr->reg[r]);
            }
        row(t, gr->name, "all", gr->bs, &gr->all);
        for (int c = 0; c < NSTAT; c++)
            total.n[c] += gr->all.n[c];
        if (gr->bs != bs)
            bs = 0;         /* --bs auto chose differently per kernel */
    }
    row(t, "total", "all", bs, &total);
    table_free(t);
}

/* Share of writes that fit, per kernel and block size, under both rules. */
static void sweep(FILE *out)
{
    static const char *const names[2][5] = {{"kernel", "bs", "writes", "pow2%", "any%"},
                                            {"kernel", "bs", "writes", "pow2", "any"}};
    cli_table *t = table_new(g.fmt, out, 5, names[g.counts]);
    uint64_t total[2 * RFT_PATTERN_MAX_BS] = {0}, writes = 0;
    for (unsigned i = 0; i <= g.ngroups; i++) {
        int last = i == g.ngroups;
        const uint64_t *cv = last ? total : g.groups[i].cover;
        uint64_t n = last ? writes : g.groups[i].all.n[N_WRITES];
        for (unsigned c = 0; c < g.nconf; c += 2) {
            table_str(t, last ? "total" : g.groups[i].name);
            table_u64(t, g.conf[c].bs);
            table_u64(t, n);
            cell(t, cv[c], (double)n);
            cell(t, cv[c + 1], (double)n);
            table_end_row(t);
            total[c] += last ? 0 : cv[c];
            total[c + 1] += last ? 0 : cv[c + 1];
        }
        writes += last ? 0 : n;
    }
    table_free(t);
}

/* For each kernel, the power of two covering most writes; ties go to 8,
 * the hardware's value, then to the smaller. */
static void choose_bs(void)
{
    for (unsigned i = 0; i < g.ngroups; i++) {
        group *gr = &g.groups[i];
        unsigned best = 3;  /* conf[3] is bs 8 */
        for (unsigned c = 0; c < g.nconf; c++)
            if (gr->cover[c] > gr->cover[best])
                best = c;
        gr->bs = g.conf[best].bs;
        memset(&gr->all, 0, sizeof gr->all);
    }
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS,
        {"bs", required_argument, 0, 'b'},     {"deltas", required_argument, 0, 'd'},
        {"max-delta", required_argument, 0, 'm'}, {"summary", optional_argument, 0, 'S'},
        {"by", required_argument, 0, 'y'},     {"counts", no_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'}, {"sweep", no_argument, 0, 'w'},
        {0, 0, 0, 0}};
    int c, bs_set = 0, deltas_set = 0, max_set = 0, by_set = 0, fmt_set = 0;
    cli_init(argc, argv, usage);
    rft_pattern_opts_default(&g.po);
    g.wo.level = RFT_DEFAULT_LEVEL;
    g.fmt = FMT_TABLE;
    while ((c = getopt_long(argc, argv, "o:s:f:", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            bs_set = 1;
            if (!(g.bs_auto = strcmp(optarg, "auto") == 0))
                g.po.bs = (unsigned)cli_uint("--bs", optarg, 1, RFT_PATTERN_MAX_BS);
            break;
        case 'd':
            deltas_set = 1;
            g.po.any = cli_choice("--deltas", optarg, "pow2|any");
            break;
        case 'm':
            max_set = 1;
            g.po.max_delta = (uint32_t)cli_uint("--max-delta", optarg, 1, 1u << 31);
            if (g.po.max_delta & (g.po.max_delta - 1))
                usage_error("--max-delta: %s is not a power of two", optarg);
            break;
        case 'S': g.summary = optarg ? optarg : "-"; break;
        case 's': g.summary = optarg; break;
        case 'y':
            by_set = 1;
            g.by_reg = cli_choice("--by", optarg, "kernel|reg");
            break;
        case 'c': g.counts = 1; break;
        case 'f': fmt_set = 1; g.fmt = cli_format(optarg); break;
        case 'w': g.sweep = 1; break;
        default:
            if (!cli_filter_option(c, &g.output, &g.wo))
                cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    if (max_set && g.po.any)
        usage_error("--max-delta applies to --deltas pow2 only");
    if (g.sweep && (bs_set || deltas_set || g.summary || g.output || by_set))
        usage_error("--sweep covers every block size and both rules: no --bs, --deltas, "
                    "--summary, -o or --by");
    if (!g.sweep && !g.summary && (by_set || g.counts || fmt_set))
        usage_error("--by, --counts and --format shape the --summary or --sweep report");
    int stream = !g.sweep && (g.output || strcmp(g.summary ? g.summary : "", "-") != 0);
    if (!g.output)
        g.output = "-";
    if (stream && g.summary && strcmp(g.output, "-") == 0 && strcmp(g.summary, "-") == 0)
        usage_error("the stream and the summary cannot both go to standard output");
    if (g.summary)
        g.summary_out = side_open(g.summary);
    if (g.sweep) {
        for (unsigned bs = 1; bs <= RFT_PATTERN_MAX_BS; bs++) {
            g.conf[g.nconf++] = (rft_pattern_opts){bs, 0, g.po.max_delta};
            g.conf[g.nconf++] = (rft_pattern_opts){bs, 1, g.po.max_delta};
        }
        run(g.input, 0, 0);
        sweep(stdout);
        return cli_close_stdout();
    }
    const char *path = g.input;
    if (g.bs_auto) {
        if (strcmp(path, "-") == 0)
            path = cli_spool_stdin(&g.spool_fd);
        for (unsigned bs = 1; bs <= RFT_PATTERN_MAX_BS; bs *= 2)
            g.conf[g.nconf++] = (rft_pattern_opts){bs, g.po.any, g.po.max_delta};
        run(path, 0, 0);
        choose_bs();
    }
    run(path, 1, stream);
    return cli_close_stdout();
}
