/* rft-alloc - place every wavefront's register window in its slice (first-fit,
 * RAR or ARGO), annotate each register write and read with its physical
 * entry, and record every window placed or freed (RFT_ALLOC records); report
 * the register-file utilization and the recovery of power-gating banks. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "occupancy.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-alloc [-o FILE] [--level N] [--flush] [--scheme first-fit|rar|argo]\n"
    "                 [--granularity wavefront|work-group] [--wrap ring|restart] [--bank N]\n"
    "                 [--events[=FILE]] [--util[=FILE]] [--recovery[=FILE]] [--banks LIST]\n"
    "                 [--format table|tsv|csv|json] [FILE]\n"
    "Place the register window of every wavefront in its slice and annotate the\n"
    "register writes and reads of an rft stream (rft(5)) with their physical entries.\n";

#define NONE UINT32_MAX

typedef struct {            /* a slice seen in the stream */
    uint16_t cu, simd;
    rft_salloc a;
    uint32_t *groups, ngroups, gcap;  /* live work-groups (work-group granularity) */
} slice;

typedef struct {            /* a window: of a live wavefront, or held by its work-group */
    uint32_t slice, group, next, wf, kernel;
    uint16_t base, n, rot;
} wave;

typedef struct {            /* a work-group instance on a slice */
    uint32_t kernel, wg;
    uint32_t live;          /* wavefronts that have not ended */
    uint32_t first, last;   /* its windows, in placement order */
} group;

static struct {
    const char *input, *output, *events, *util, *recovery;
    int scheme, wrap, by_group;
    uint32_t bank;                  /* entries per power-gating bank (ARGO) */
    enum cli_fmt fmt;
    rft_writer_opts wo;
    rft_writer *w;
    rft_reader *r;
    cli_table *t;
    FILE *tf, *uf, *rf;             /* the events table, the two reports */
    rft_occ *occ;                   /* for the reports */
    uint32_t banks[RFT_OCC_MAX_BANKS];
    int nbanks;
    uint32_t entries;
    rft_map slice_of, wave_of;      /* slice key -> slices[]; wavefront key -> waves[] */
    slice *slices;
    uint32_t nslices;
    wave *waves;
    uint32_t nwaves, wcap, wfree;   /* wfree: free list through wave.next */
    group *groups;
    uint32_t ngr, grcap, grfree;    /* grfree: free list through group.first */
} g = {.input = "-", .scheme = RFT_ALLOC_FIRSTFIT, .by_group = -1, .bank = 1, .fmt = FMT_TSV,
       .wfree = NONE, .grfree = NONE};

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
    if (rft_salloc_init(&s->a, g.entries, g.scheme, g.wrap) ||
        rft_map_put(&g.slice_of, rft_slice_key(cu, simd), g.nslices))
        die("out of memory");
    return &g.slices[g.nslices++];
}

static uint32_t wave_new(void)
{
    if (g.wfree != NONE) {
        uint32_t i = g.wfree;
        g.wfree = g.waves[i].next;
        return i;
    }
    if (g.nwaves == g.wcap) {
        g.wcap = g.wcap ? 2 * g.wcap : 64;
        g.waves = xrealloc(g.waves, g.wcap * sizeof *g.waves);
    }
    return g.nwaves++;
}

static void wave_drop(uint32_t i)
{
    g.waves[i].next = g.wfree;
    g.wfree = i;
}

/* The live work-group (kernel, wg) of slice s, created if absent. */
static uint32_t group_get(slice *s, uint32_t kernel, uint32_t wg)
{
    if (wg != RFT_NO_WG)
        for (uint32_t k = 0; k < s->ngroups; k++) {
            group *gr = &g.groups[s->groups[k]];
            if (gr->kernel == kernel && gr->wg == wg)
                return s->groups[k];
        }
    uint32_t i;
    if (g.grfree != NONE) {
        i = g.grfree;
        g.grfree = g.groups[i].first;
    } else {
        if (g.ngr == g.grcap) {
            g.grcap = g.grcap ? 2 * g.grcap : 16;
            g.groups = xrealloc(g.groups, g.grcap * sizeof *g.groups);
        }
        i = g.ngr++;
    }
    g.groups[i] = (group){kernel, wg, 0, NONE, NONE};
    if (s->ngroups == s->gcap) {
        s->gcap = s->gcap ? 2 * s->gcap : 8;
        s->groups = xrealloc(s->groups, s->gcap * sizeof *s->groups);
    }
    s->groups[s->ngroups++] = i;
    return i;
}

static void group_drop(slice *s, uint32_t i)
{
    for (uint32_t k = 0; k < s->ngroups; k++)
        if (s->groups[k] == i) {
            s->groups[k] = s->groups[--s->ngroups];
            break;
        }
    g.groups[i].first = g.grfree;
    g.grfree = i;
}

static void event(const slice *s, const wave *wv, uint64_t cycle, int ev)
{
    rft_alloc_rec a = {cycle, s->cu, s->simd, wv->wf, wv->base, wv->n, wv->rot,
                       (uint16_t)s->a.nfree, (uint8_t)ev,
                       g.scheme == RFT_ALLOC_ARGO ? RFT_AF_GATED : 0, (uint16_t)g.bank};
    if (g.w)
        stage_put(rft_write_alloc(g.w, &a));
    if (g.occ && rft_occ_window(g.occ, s->cu, s->simd, wv->kernel, cycle, wv->base, wv->n,
                                ev == RFT_ALLOC_EV_ALLOC, a.flags & RFT_AF_GATED))
        die("out of memory");
    if (g.t) {
        table_u64(g.t, a.cycle);
        table_u64(g.t, a.cu);
        table_u64(g.t, a.simd);
        table_u64(g.t, a.wf);
        table_str(g.t, ev == RFT_ALLOC_EV_ALLOC ? "alloc" : "free");
        table_u64(g.t, a.base);
        table_u64(g.t, a.n);
        table_u64(g.t, a.rot);
        table_u64(g.t, a.nfree);
        table_u64(g.t, a.flags & RFT_AF_GATED);
        table_end_row(g.t);
    }
}

static void begin(const rft_wfbegin *b)
{
    uint64_t key = rft_wf_key(b->cu, b->simd, b->wf);
    if (rft_map_get(&g.wave_of, key))
        stage_fail("wavefront %u begins again on slice (%u,%u) before its end", b->wf, b->cu, b->simd);
    slice *s = slice_get(b->cu, b->simd);
    uint32_t gi = NONE, hint = RFT_SALLOC_NO_HINT;
    if (g.by_group) {
        gi = group_get(s, b->kernel, b->wg);
        if (g.groups[gi].last != NONE)
            hint = (uint32_t)g.waves[g.groups[gi].last].base + g.waves[g.groups[gi].last].n;
    }
    uint16_t rot;
    long base = rft_salloc_place(&s->a, b->nregs, hint, &rot);
    if (base < 0)
        stage_fail("window of %u registers of wavefront %u does not fit in slice (%u,%u) at cycle %llu "
             "(%u free entries, largest free run %u)", b->nregs, b->wf, b->cu, b->simd,
             (unsigned long long)b->cycle, s->a.nfree, rft_salloc_largest(&s->a));
    uint32_t i = wave_new();
    wave *wv = &g.waves[i];
    *wv = (wave){(uint32_t)(s - g.slices), gi, NONE, b->wf, b->kernel, (uint16_t)base, b->nregs, rot};
    if (rft_map_put(&g.wave_of, key, i))
        die("out of memory");
    if (gi != NONE) {
        group *gr = &g.groups[gi];
        if (gr->last == NONE)
            gr->first = i;
        else
            g.waves[gr->last].next = i;
        gr->last = i;
        gr->live++;
    }
    event(s, wv, b->cycle, RFT_ALLOC_EV_ALLOC);
}

static void release(slice *s, uint32_t i, uint64_t cycle)
{
    wave *wv = &g.waves[i];
    rft_salloc_release(&s->a, wv->base, wv->n);
    event(s, wv, cycle, RFT_ALLOC_EV_FREE);
}

/* The E record is already out: free its window, or its work-group's. */
static void end(const rft_wfend *e, uint32_t i)
{
    wave *wv = &g.waves[i];
    slice *s = &g.slices[wv->slice];
    if (wv->group == NONE) {
        release(s, i, e->cycle);
        wave_drop(i);
        return;
    }
    uint32_t gi = wv->group;
    if (--g.groups[gi].live)
        return;
    for (uint32_t k = g.groups[gi].first, next; k != NONE; k = next) {
        next = g.waves[k].next;
        release(s, k, e->cycle);
        wave_drop(k);
    }
    group_drop(s, gi);
}

/* The window of the wavefront a write or read names. */
static const wave *window_of(uint16_t cu, uint16_t simd, uint32_t wf, uint16_t vreg, const char *what)
{
    uint64_t *v = rft_map_get(&g.wave_of, rft_wf_key(cu, simd, wf));
    if (!v)
        stage_fail("%s of wavefront %u on slice (%u,%u), which has no window (no begin record)",
             what, wf, cu, simd);
    const wave *wv = &g.waves[*v];
    if (vreg >= wv->n)
        stage_fail("%s of register v%u outside the window of %u registers of wavefront %u", what, vreg,
             wv->n, wf);
    return wv;
}

static uint16_t phys(const wave *wv, uint16_t vreg)
{
    return (uint16_t)rft_window_phys(g.entries, wv->base, wv->n, wv->rot, vreg);
}

/* A record of a live wavefront: its kernel runs on the slice (reports). */
static void ran(uint16_t cu, uint16_t simd, uint32_t kernel, uint64_t cycle)
{
    if (g.occ && rft_occ_record(g.occ, cu, simd, kernel, cycle))
        die("out of memory");
}

static void pct(cli_table *t, double share) { table_dbl(t, 100 * share, 2); }

/* Seed 004 Table 1 and seed 002 Table 5, one row per kernel and one for all. */
static void util_report(void)
{
    static const char *const cols[] = {"kernel", "vgprs", "slices", "max_wf", "peak_entries",
                                       "peak%", "unused_windows", "mean%", "slice_cycles"};
    cli_table *t = table_new(g.fmt, g.uf, 9, cols);
    rft_occ_row r;
    for (size_t i = 0; i < rft_occ_rows(g.occ); i++) {
        rft_occ_get(g.occ, i, &r);
        char v[32];
        snprintf(v, sizeof v, r.vgprs_min == r.vgprs_max ? "%u" : "%u-%u", r.vgprs_min, r.vgprs_max);
        table_str(t, r.kernel);
        table_str(t, v);
        table_u64(t, r.slices);
        table_u64(t, r.max_wf);
        table_u64(t, r.peak);
        pct(t, (double)r.peak / g.entries);
        if (r.vgprs_max && r.vgprs_min == r.vgprs_max)  /* windows of one size only */
            table_i64(t, (int64_t)(g.entries / r.vgprs_max) - r.max_wf);
        else
            table_none(t);
        pct(t, r.mean);
        table_u64(t, r.cycles);
        table_end_row(t);
    }
    table_free(t);
}

/* Seed 004 Table 3 and Fig. 11: one row per kernel and bank size. */
static void recovery_report(uint32_t entry_bytes)
{
    static const char *const cols[] = {"kernel", "bank_entries", "bank_bytes", "slice_cycles",
                                       "used_banks", "worst_recovery%", "worst_bank",
                                       "mean_recovery%", "leak_saving%"};
    cli_table *t = table_new(g.fmt, g.rf, 9, cols);
    rft_occ_row r;
    for (size_t i = 0; i < rft_occ_rows(g.occ); i++) {
        rft_occ_get(g.occ, i, &r);
        for (int j = 0; j < r.nbank; j++) {
            const rft_occ_bank *b = &r.bank[j];
            table_str(t, r.kernel);
            table_u64(t, b->entries);
            table_u64(t, (uint64_t)b->entries * entry_bytes);
            table_u64(t, r.cycles);
            table_u64(t, b->used);
            if (b->used) {
                uint32_t lo = b->worst_bank * b->entries, hi = lo + b->entries - 1;
                char where[48];
                snprintf(where, sizeof where, "%u:%u e%u-%u", b->worst_cu, b->worst_simd, lo,
                         hi < g.entries ? hi : g.entries - 1);
                pct(t, b->worst);
                table_str(t, where);
                pct(t, b->mean);
            } else {
                table_none(t);
                table_none(t);
                table_none(t);
            }
            pct(t, b->leak);
            table_end_row(t);
        }
    }
    table_free(t);
}

static void run(void)
{
    g.r = stage_open(g.input);
    const rft_header *in = rft_reader_header(g.r);
    g.entries = in->geom.entries;
    if (g.bank > g.entries)
        usage_error("--bank: %u entries is more than the %u of a slice", g.bank, g.entries);
    char meta[96], bank[24] = "";
    if (g.bank > 1)
        snprintf(bank, sizeof bank, " bank=%u", g.bank);
    snprintf(meta, sizeof meta, "scheme=%s granularity=%s%s%s", rft_alloc_scheme_name(g.scheme),
             g.by_group ? "work-group" : "wavefront",
             g.scheme != RFT_ALLOC_ARGO ? "" : g.wrap == RFT_WRAP_RING ? " wrap=ring" : " wrap=restart",
             bank);
    if (g.output) {
        const char *old;
        g.w = stage_output_as(g.output, "alloc", meta, &g.wo, &old);
        if (old)
            warnx("warning: %s: re-allocating a stream allocated with %s", g.input, old);
    }
    if (rft_map_init(&g.slice_of, 64) || rft_map_init(&g.wave_of, 256))
        die("out of memory");
    uint32_t entry_bytes = in->geom.lanes * 4;
    for (int j = 0; j < g.nbanks; j++)
        if (g.banks[j] > g.entries)
            usage_error("--banks: %u entries is more than the %u of a slice", g.banks[j], g.entries);
    /* by default banks of 1, 2, 4 and 8 KB (seed 004 Table 3): at least an
     * entry, at most the slice */
    for (uint32_t kb = 1, given = g.nbanks > 0; !given && kb <= 8; kb *= 2) {
        uint32_t n = kb * 1024 / entry_bytes;
        n = n < 1 ? 1 : n > g.entries ? g.entries : n;
        if (!g.nbanks || n != g.banks[g.nbanks - 1])
            g.banks[g.nbanks++] = n;
    }
    if ((g.util || g.recovery) && !(g.occ = rft_occ_new(g.entries, g.banks, g.nbanks)))
        die("out of memory");

    rft_rec *rec = xrealloc(NULL, sizeof *rec);
    int e;
    while ((e = rft_read(g.r, rec)) == 0) {
        uint64_t *v;
        const wave *wv;
        switch (rec->kind) {
        case RFT_KERNEL:
            if (g.occ && rft_occ_kernel(g.occ, rec->u.kernel.index, rec->u.kernel.name,
                                        rec->u.kernel.name_len))
                stage_fail("kernel index %u", rec->u.kernel.index);
            break;
        case RFT_WFBEGIN:
            if (g.w)
                stage_put(rft_write_rec(g.w, rec));
            begin(&rec->u.begin);
            continue;
        case RFT_WFEND: {
            const rft_wfend *x = &rec->u.end;
            uint64_t key = rft_wf_key(x->cu, x->simd, x->wf);
            if (!(v = rft_map_get(&g.wave_of, key)))
                stage_fail("end of wavefront %u on slice (%u,%u), which has no window (no begin record)",
                     x->wf, x->cu, x->simd);
            uint32_t i = (uint32_t)*v;
            rft_map_del(&g.wave_of, key);
            ran(x->cu, x->simd, g.waves[i].kernel, x->cycle);
            if (g.w)
                stage_put(rft_write_rec(g.w, rec));
            end(x, i);
            continue;
        }
        case RFT_WRITE:
            wv = window_of(rec->w.cu, rec->w.simd, rec->w.wf, rec->w.vreg, "write");
            rec->w.phys = phys(wv, rec->w.vreg);
            ran(rec->w.cu, rec->w.simd, wv->kernel, rec->w.cycle);
            break;
        case RFT_READ:
            wv = window_of(rec->u.read.cu, rec->u.read.simd, rec->u.read.wf, rec->u.read.vreg, "read");
            rec->u.read.phys = phys(wv, rec->u.read.vreg);
            ran(rec->u.read.cu, rec->u.read.simd, wv->kernel, rec->u.read.cycle);
            break;
        case RFT_BUNDLE: {
            const rft_bundle *x = &rec->u.bundle;
            if ((v = rft_map_get(&g.wave_of, rft_wf_key(x->cu, x->simd, x->wf))))
                ran(x->cu, x->simd, g.waves[*v].kernel, x->cycle);
            break;
        }
        case RFT_ALLOC:
            continue;       /* an earlier placement: replaced by ours */
        }
        if (g.w)
            stage_put(rft_write_rec(g.w, rec));
    }
    stage_read_end(e);
    free(rec);
    if (g.t) {                  /* before the end record: a failure leaves none */
        table_free(g.t);
        g.t = NULL;
        side_close(g.tf, g.events);
    }
    if (g.occ) {
        rft_occ_finish(g.occ);
        if (g.util) {
            util_report();
            side_close(g.uf, g.util);
        }
        if (g.recovery) {
            recovery_report(entry_bytes);
            side_close(g.rf, g.recovery);
        }
        rft_occ_free(g.occ);
    }
    stage_close();
    g.w = NULL;
    for (uint32_t i = 0; i < g.nslices; i++) {
        rft_salloc_destroy(&g.slices[i].a);
        free(g.slices[i].groups);
    }
    free(g.slices);
    free(g.waves);
    free(g.groups);
    rft_map_free(&g.slice_of);
    rft_map_free(&g.wave_of);
}

/* --banks LIST: entries per bank, comma-separated */
static void banks_opt(const char *s)
{
    char *copy = xasprintf("%s", s), *save = NULL;
    g.nbanks = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (g.nbanks == RFT_OCC_MAX_BANKS)
            usage_error("--banks: more than %d sizes", RFT_OCC_MAX_BANKS);
        g.banks[g.nbanks++] = (uint32_t)cli_uint("--banks", tok, 1, RFT_MAX_ENTRIES);
    }
    free(copy);
    if (!g.nbanks)
        usage_error("--banks: '%s' names no bank size", s);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_FILTER_OPTIONS,
        {"scheme", required_argument, 0, 's'}, {"granularity", required_argument, 0, 'g'},
        {"wrap", required_argument, 0, 'w'},   {"events", optional_argument, 0, 'e'},
        {"format", required_argument, 0, 'f'}, {"bank", required_argument, 0, 'b'},
        {"util", optional_argument, 0, 'u'},   {"recovery", optional_argument, 0, 'r'},
        {"banks", required_argument, 0, 'B'},  {0, 0, 0, 0}};
    int c, wrap_set = 0, fmt_set = 0, bank_set = 0;
    cli_init(argc, argv, usage);
    g.wo.level = RFT_DEFAULT_LEVEL;
    while ((c = getopt_long(argc, argv, "o:f:", opts, NULL)) != -1) {
        switch (c) {
        case 's': {
            static const int scheme[] = {RFT_ALLOC_FIRSTFIT, RFT_ALLOC_RAR, RFT_ALLOC_ARGO};
            g.scheme = scheme[cli_choice("--scheme", optarg, "first-fit|rar|argo")];
            break;
        }
        case 'g': g.by_group = cli_choice("--granularity", optarg, "wavefront|work-group"); break;
        case 'w':
            wrap_set = 1;
            g.wrap = cli_choice("--wrap", optarg, "ring|restart") ? RFT_WRAP_RESTART : RFT_WRAP_RING;
            break;
        case 'b':
            bank_set = 1;
            g.bank = (uint32_t)cli_uint("--bank", optarg, 1, RFT_MAX_ENTRIES);
            break;
        case 'e': g.events = optarg ? optarg : "-"; break;
        case 'u': g.util = optarg ? optarg : "-"; break;
        case 'r': g.recovery = optarg ? optarg : "-"; break;
        case 'B': banks_opt(optarg); break;
        case 'f': fmt_set = 1; g.fmt = cli_format(optarg); break;
        default:
            if (!cli_filter_option(c, &g.output, &g.wo))
                cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    if (wrap_set && g.scheme != RFT_ALLOC_ARGO)
        usage_error("--wrap applies to --scheme argo only");
    if (bank_set && g.scheme != RFT_ALLOC_ARGO)
        usage_error("--bank applies to --scheme argo only (the other schemes gate nothing)");
    if (fmt_set && !g.events && !g.util && !g.recovery)
        usage_error("--format shapes the --events, --util and --recovery tables");
    if (g.nbanks && !g.recovery)
        usage_error("--banks applies to --recovery only");
    /* Per wavefront by default, for ARGO too: the trace's own dispatcher
     * freed each window at its wavefront's end, and holding windows until a
     * whole work-group ends can make the trace's schedule not fit. */
    if (g.by_group < 0)
        g.by_group = 0;
    /* the stream goes to -o, or to stdout unless a table does */
    const char *side[] = {g.events, g.util, g.recovery}, *name[] = {"events table", "--util report",
                                                                    "--recovery report"};
    int on_stdout = -1;
    for (int i = 0; i < 3; i++)
        if (side[i] && strcmp(side[i], "-") == 0) {
            if (on_stdout >= 0)
                usage_error("the %s and the %s cannot both go to standard output", name[on_stdout],
                            name[i]);
            on_stdout = i;
        }
    if (!g.output && on_stdout < 0)
        g.output = "-";
    if (g.output && on_stdout >= 0 && strcmp(g.output, "-") == 0)
        usage_error("the stream and the %s cannot both go to standard output", name[on_stdout]);
    if (g.util)
        g.uf = side_open(g.util);
    if (g.recovery)
        g.rf = side_open(g.recovery);
    if (g.events) {
        static const char *const cols[] = {"cycle", "cu", "simd", "wf", "event", "base",
                                           "n", "rot", "free", "gated"};
        g.tf = side_open(g.events);
        g.t = table_new(g.fmt, g.tf, 10, cols);
    }
    run();
    return cli_close_stdout();
}
