/* rft-heal - PE healing and SC healing (seed 003): stress profile of the
 * processing elements and stream cores of a trace, their duty cycles and
 * threshold-voltage shift with and without healing, the redundant
 * work-items of SC healing and its run-time cost.  The logic is lib/heal.c. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "heal.h"
#include "nbti.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-heal [--scheme pe|sc] [--report summary|profile|slices|units|groups|cost|series]\n"
    "                [--params FILE] [--set KEY=VALUE]... [--hours H | --years Y] [--adapt H]\n"
    "                [--step H] [--policy young|permute] [--variation MV]\n"
    "                [--profile X=P,Y=P,Z=P,W=P,T=P] [--packing R] [--issue F]\n"
    "                [--degraded CU:[SIMD:]SC,... | --threshold MV] [--rest-duty F]\n"
    "                [--work-items N] [--max-wg N] [--max-wf N] [--wavefront-rule seed|ceil]\n"
    "                [--sweep N] [--source auto|bundles|writes] [--format table|tsv|csv|json]\n"
    "                [FILE]\n"
    "Stress of the PEs (VLIW slots) and SCs (stream cores) of a trace, and what PE and SC\n"
    "healing (seed 003) do to their duty cycles, Vth, work-groups and run time.\n";

enum { R_SUMMARY, R_PROFILE, R_SLICES, R_UNITS, R_GROUPS, R_COST, R_SERIES };
static const char pe_names[] = "XYZWT";

/* "PE_X" .. "PE_T" */
static const char *pe_label(int p)
{
    static const char *const l[RFT_NSLOTS] = {"PE_X", "PE_Y", "PE_Z", "PE_W", "PE_T"};
    return l[p];
}

static struct {
    int scheme, report, policy, fmt;
    double hours, adapt, step, variation, packing, issue, threshold, rest;
    int have_profile, have_threshold, have_wi, sweep_set;
    double share[RFT_NSLOTS];
    const char *degraded;
    uint32_t work_items;
    rft_heal_opts o;
    rft_nbti p;
    rft_heal *h;
    const char *input;
    cli_table *series;
} g = {.hours = 360, .adapt = 1, .packing = 0.3, .issue = 1, .fmt = FMT_TABLE,
       .report = R_SUMMARY};

static void title(const char *s)
{
    if (g.fmt == FMT_TABLE)
        printf("\n# %s\n", s);
}

/* ---- options ----------------------------------------------------------------------------- */
static void profile_opt(const char *s)
{
    char *copy = strdup(s), *save = NULL, *tok;
    int seen = 0;
    double sum = 0;
    if (!copy)
        die("out of memory");
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const char *at = tok[0] && tok[1] == '=' ? strchr(pe_names, tok[0]) : NULL;
        if (!at)
            usage_error("--profile: '%s' is not PE=PERCENT (PE one of X Y Z W T)", tok);
        int p = (int)(at - pe_names);
        if (seen >> p & 1)
            usage_error("--profile: PE %c given twice", tok[0]);
        seen |= 1 << p;
        g.share[p] = cli_double("--profile", tok + 2, 0, 100) / 100;
        sum += g.share[p];
    }
    free(copy);
    if (fabs(sum - 1) > 0.0005)
        usage_error("--profile: the shares sum to %.2f %%, not 100 %%", 100 * sum);
    g.have_profile = 1;
}

/* --degraded: a mask of resting SCs per slice, checked against the trace. */
typedef struct {
    uint16_t cu, simd;
    uint64_t mask;
} deg;
static deg *degs;
static size_t ndegs;

static uint64_t *deg_mask(uint16_t cu, uint16_t simd, int create)
{
    for (size_t i = 0; i < ndegs; i++)
        if (degs[i].cu == cu && degs[i].simd == simd)
            return &degs[i].mask;
    if (!create)
        return NULL;
    degs = xrealloc(degs, (ndegs + 1) * sizeof *degs);
    degs[ndegs] = (deg){cu, simd, 0};
    return &degs[ndegs++].mask;
}

static void degraded_parse(uint32_t nsc)
{
    char *copy = strdup(g.degraded), *save = NULL, *tok;
    if (!copy)
        die("out of memory");
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        unsigned long v[3];
        int n = 0;
        char *p = tok, *end;
        while (n < 3) {
            if (*p < '0' || *p > '9')
                break;
            v[n++] = strtoul(p, &end, 10);
            p = end;
            if (*p != ':')
                break;
            p++;
        }
        if (*p || n < 2 || v[0] > 65535 || v[n - 2] > 65535)
            usage_error("--degraded: '%s' is not CU:SC or CU:SIMD:SC", tok);
        uint16_t cu = (uint16_t)v[0], simd = n == 3 ? (uint16_t)v[1] : 0;
        if (v[n - 1] >= nsc)
            die("--degraded: SC %lu of %s is beyond the %u stream cores of a slice", v[n - 1],
                tok, nsc);
        int found = 0;
        for (size_t i = 0; i < rft_heal_nslices(g.h); i++) {
            const rft_heal_slice *s = rft_heal_slice_at(g.h, i);
            found |= s->cu == cu && s->simd == simd;
        }
        if (!found)
            die("--degraded: %s: %s has no slice %u:%u", tok, g.input, cu, simd);
        *deg_mask(cu, simd, 1) |= 1ull << v[n - 1];
    }
    free(copy);
}

/* ---- SC duty cycles ------------------------------------------------------------------------ */
static double sc_alpha(const rft_heal_slice *s, uint32_t j)
{
    return rft_heal_alpha(g.h, s->sc_busy[j]);
}

/* Healed duty of SC j of slice s with the SCs of mask resting: a resting SC
 * runs rest x its duty; the others share the resting SCs' work evenly. */
static double sc_alpha_healed(const rft_heal_slice *s, uint64_t mask, uint32_t j)
{
    uint32_t nsc = rft_heal_nsc(g.h), nd = 0;
    double moved = 0;
    for (uint32_t k = 0; k < nsc; k++)
        if (mask >> k & 1)
            nd++, moved += (1 - g.rest) * sc_alpha(s, k);
    if (mask >> j & 1)
        return g.rest * sc_alpha(s, j);
    return sc_alpha(s, j) + moved / (nsc - nd);
}

static double horizon_s(void) { return g.hours * 3600; }

/* Without --degraded: --threshold picks the SCs whose naive dVth reaches it;
 * else the one most stressed SC of the trace rests (seed 003 Fig. 8). */
static void pick_degraded(void)
{
    uint32_t nsc = rft_heal_nsc(g.h);
    const rft_heal_slice *best = NULL;
    uint32_t bj = 0;
    for (size_t i = 0; i < rft_heal_nslices(g.h); i++) {
        const rft_heal_slice *s = rft_heal_slice_at(g.h, i);
        for (uint32_t j = 0; j < nsc; j++) {
            if (g.have_threshold &&
                1e3 * rft_heal_dvth(&g.p, sc_alpha(s, j), horizon_s(), 0) >= g.threshold)
                *deg_mask(s->cu, s->simd, 1) |= 1ull << j;
            if (!best || sc_alpha(s, j) > sc_alpha(best, bj))
                best = s, bj = j;
        }
    }
    if (!g.have_threshold && best)
        *deg_mask(best->cu, best->simd, 1) |= 1ull << bj;
    for (size_t i = 0; i < ndegs; i++)
        if (__builtin_popcountll(degs[i].mask) >= (int)nsc)
            die("%s: every SC of slice %u:%u is degraded: no healthy SC can take their work",
                g.input, degs[i].cu, degs[i].simd);
}

/* ---- reports -------------------------------------------------------------------------------- */
static void window_line(void)
{
    if (g.fmt != FMT_TABLE || !g.h)
        return;
    printf("# %s: %zu slices x %u SCs, window %llu cycles from cycle %llu, busy from %s\n",
           g.input, rft_heal_nslices(g.h), rft_heal_nsc(g.h),
           (unsigned long long)rft_heal_span(g.h), (unsigned long long)rft_heal_first(g.h),
           rft_heal_source(g.h) == RFT_HEAL_BUNDLES ? "bundle records" : "write records");
    size_t over = 0;
    for (size_t i = 0; i < rft_heal_nslices(g.h); i++)
        for (uint32_t j = 0; j < rft_heal_nsc(g.h); j++)
            over += sc_alpha(rft_heal_slice_at(g.h, i), j) > 1;
    if (over)
        printf("# note: %zu SCs busy more than 100 %% of the window: writes count memory results "
               "too (rft-heal(1)); their duty is taken as 100 %%\n", over);
}

static void horizon_line(void)
{
    if (g.fmt == FMT_TABLE)
        printf("# horizon %g h, dVth by the RD model (Eqs. 1-4), Vth0 %.1f mV, variation %g mV\n",
               g.hours, 1e3 * g.p.vth0, g.variation);
}

static void report_profile(void)
{
    static const char *const cols[] = {"unit", "instr_share%", "busy%", "busy_min%",
                                       "busy_max%"};
    cli_table *t = table_new(g.fmt, stdout, 5, cols);
    uint32_t nsc = g.h ? rft_heal_nsc(g.h) : 0;
    size_t nsl = g.h ? rft_heal_nslices(g.h) : 0;
    uint64_t instr[RFT_NSLOTS] = {0}, all = 0;
    for (size_t i = 0; i < nsl; i++)
        for (int p = 0; p < RFT_NSLOTS; p++)
            instr[p] += rft_heal_slice_at(g.h, i)->instr[p], all += rft_heal_slice_at(g.h, i)->instr[p];
    rft_heal_work w;
    double a[RFT_NSLOTS];
    if (g.have_profile)
        rft_heal_work_of_profile(g.share, g.packing, g.issue, &w);
    else
        rft_heal_work_of_trace(g.h, &w);
    rft_heal_pe_alpha(&w, g.policy, g.have_profile, NULL, a);
    for (int p = 0; p < RFT_NSLOTS && (g.have_profile || rft_heal_bundles(g.h)); p++) {
        double lo = INFINITY, hi = 0;
        for (size_t i = 0; i < nsl; i++)
            for (uint32_t j = 0; j < nsc; j++) {
                double x = rft_heal_alpha(g.h, rft_heal_slice_at(g.h, i)->pe_busy[j * RFT_NSLOTS + p]);
                lo = fmin(lo, x), hi = fmax(hi, x);
            }
        table_str(t, pe_label(p));
        table_dbl(t, 100 * (g.have_profile ? g.share[p] : all ? (double)instr[p] / all : 0), 2);
        table_dbl(t, 100 * a[p], 2);
        if (g.have_profile)
            table_none(t), table_none(t);
        else
            table_dbl(t, 100 * lo, 2), table_dbl(t, 100 * hi, 2);
        table_end_row(t);
    }
    for (uint32_t j = 0; j <= nsc && nsl; j++) {
        double sum = 0, lo = INFINITY, hi = 0;
        char name[32];
        for (size_t i = 0; i < nsl; i++)
            for (uint32_t k = j == nsc ? 0 : j; k < (j == nsc ? nsc : j + 1); k++) {
                double x = sc_alpha(rft_heal_slice_at(g.h, i), k);
                sum += x, lo = fmin(lo, x), hi = fmax(hi, x);
            }
        if (j == nsc)
            snprintf(name, sizeof name, "SC_all");
        else
            snprintf(name, sizeof name, "SC_%u", j);
        table_str(t, name);
        table_none(t);
        table_dbl(t, 100 * sum / nsl / (j == nsc ? nsc : 1), 2);
        table_dbl(t, 100 * lo, 2);
        table_dbl(t, 100 * hi, 2);
        table_end_row(t);
    }
    table_free(t);
}

static void report_slices(void)
{
    static const char *const cols[] = {"slice", "bundles", "writes", "sc_busy_min%",
                                       "sc_busy_mean%", "sc_busy_max%", "PE_X%", "PE_Y%",
                                       "PE_Z%", "PE_W%", "PE_T%"};
    cli_table *t = table_new(g.fmt, stdout, 11, cols);
    uint32_t nsc = rft_heal_nsc(g.h);
    for (size_t i = 0; i < rft_heal_nslices(g.h); i++) {
        const rft_heal_slice *s = rft_heal_slice_at(g.h, i);
        char name[32];
        double lo = INFINITY, hi = 0, sum = 0;
        for (uint32_t j = 0; j < nsc; j++) {
            double x = sc_alpha(s, j);
            lo = fmin(lo, x), hi = fmax(hi, x), sum += x;
        }
        snprintf(name, sizeof name, "%u:%u", s->cu, s->simd);
        table_str(t, name);
        table_u64(t, s->bundles);
        table_u64(t, s->writes);
        table_dbl(t, 100 * lo, 2);
        table_dbl(t, 100 * sum / nsc, 2);
        table_dbl(t, 100 * hi, 2);
        for (int p = 0; p < RFT_NSLOTS; p++) {
            uint64_t b = 0;
            for (uint32_t j = 0; j < nsc; j++)
                b += s->pe_busy[j * RFT_NSLOTS + p];
            table_dbl(t, 100 * rft_heal_alpha(g.h, b) / nsc, 2);
        }
        table_end_row(t);
    }
    table_free(t);
}

/* The long table of the series report, and its step in hours. */
static void series_open(void)
{
    static const char *const cols[] = {"hours", "unit", "dvth_naive_mV", "dvth_healed_mV"};
    g.series = table_new(g.fmt, stdout, 4, cols);
}
static double series_step(void) { return g.step > 0 ? g.step : g.hours / 36; }

static void series_row(double t, const char *unit, double naive, double healed)
{
    table_dbl(g.series, t / 3600, 2);
    table_str(g.series, unit);
    table_dbl(g.series, 1e3 * naive, 3);
    table_dbl(g.series, 1e3 * healed, 3);
    table_end_row(g.series);
}

static double pe_naive[RFT_NSLOTS], pe_dv0[RFT_NSLOTS];
static void pe_series(double t, const double dvth[RFT_NSLOTS], void *user)
{
    for (int p = 0; p < RFT_NSLOTS; p++) {
        series_row(t, pe_label(p), rft_heal_dvth(&g.p, pe_naive[p], t, pe_dv0[p]), dvth[p]);
    }
}

static void unit_row(cli_table *t, const char *unit, const char *role, double an, double ah,
                     double dv0, double dn, double dh, double red)
{
    table_str(t, unit);
    table_str(t, role);
    table_dbl(t, 100 * an, 2);
    table_dbl(t, 100 * ah, 2);
    table_dbl(t, 1e3 * dv0, 2);
    table_dbl(t, 1e3 * dn, 2);
    table_dbl(t, 1e3 * dh, 2);
    table_dbl(t, 1e3 * (g.p.vth0 + dn), 2);
    table_dbl(t, 1e3 * (g.p.vth0 + dh), 2);
    if (isnan(red))
        table_none(t);
    else
        table_dbl(t, red, 2);
    table_end_row(t);
}

static const char *const unit_cols[] = {"unit", "role", "busy_naive%", "busy_healed%",
                                        "dvth0_mV", "dvth_naive_mV", "dvth_healed_mV",
                                        "vth_naive_mV", "vth_healed_mV", "dvth_reduction%"};

static void report_pe(int series)
{
    rft_heal_work w;
    double dh[RFT_NSLOTS], ah[RFT_NSLOTS];
    if (g.have_profile)
        rft_heal_work_of_profile(g.share, g.packing, g.issue, &w);
    else
        rft_heal_work_of_trace(g.h, &w);
    rft_heal_pe_alpha(&w, g.policy, g.have_profile, NULL, pe_naive);
    for (int p = 0; p < RFT_NSLOTS; p++)   /* --variation: X starts lowest, T highest */
        pe_dv0[p] = 1e-3 * g.variation * p / (RFT_NSLOTS - 1);
    if (series)
        series_open();
    double step = series_step();
    rft_heal_pe_run(&g.p, &w, g.have_profile ? RFT_HEAL_PERMUTE : g.policy, g.have_profile,
                    pe_dv0, horizon_s(), g.adapt * 3600, series ? step * 3600 : 0,
                    series ? pe_series : NULL, NULL, dh, ah);
    if (series) {
        table_free(g.series);
        return;
    }
    cli_table *t = table_new(g.fmt, stdout, 10, unit_cols);
    double mn = 0, mh = 0, an = 0, a2 = 0, d0n = 0, d0h = 0;
    for (int p = 0; p < RFT_NSLOTS; p++) {
        double dn = rft_heal_dvth(&g.p, pe_naive[p], horizon_s(), pe_dv0[p]);
        unit_row(t, pe_label(p), "pe", pe_naive[p], ah[p], pe_dv0[p], dn, dh[p], NAN);
        if (dn > mn)
            mn = dn, an = pe_naive[p], d0n = pe_dv0[p];
        if (dh[p] > mh)
            mh = dh[p], a2 = ah[p], d0h = pe_dv0[p];
    }
    /* the most aged PE limits the lifetime: its dVth with and without healing */
    unit_row(t, "PE_max", "worst", an, a2, fmax(d0n, d0h), mn, mh, mn > 0 ? 100 * (1 - mh / mn) : NAN);
    table_free(t);
}

static void report_sc(int series)
{
    uint32_t nsc = rft_heal_nsc(g.h);
    cli_table *t;
    if (series)
        series_open(), t = NULL;
    else
        t = table_new(g.fmt, stdout, 10, unit_cols);
    double step = series_step();
    for (size_t i = 0; i < ndegs; i++) {
        const rft_heal_slice *s = NULL;
        for (size_t k = 0; k < rft_heal_nslices(g.h); k++)
            if (rft_heal_slice_at(g.h, k)->cu == degs[i].cu &&
                rft_heal_slice_at(g.h, k)->simd == degs[i].simd)
                s = rft_heal_slice_at(g.h, k);
        if (!s || !degs[i].mask)
            continue;
        int hot = -1;   /* the healthy SC that ages most once it takes the work */
        for (uint32_t j = 0; j < nsc; j++)
            if (!(degs[i].mask >> j & 1) &&
                (hot < 0 || sc_alpha_healed(s, degs[i].mask, j) >
                                sc_alpha_healed(s, degs[i].mask, (uint32_t)hot)))
                hot = (int)j;
        for (uint32_t j = 0; j < nsc; j++) {
            int rest = degs[i].mask >> j & 1;
            if (!rest && (int)j != hot)
                continue;
            char name[48];
            snprintf(name, sizeof name, "%u:%u:%u", s->cu, s->simd, j);
            double dv0 = rest ? 1e-3 * g.variation : 0;
            double an = sc_alpha(s, j), ah = sc_alpha_healed(s, degs[i].mask, j);
            if (series) {
                for (double h = 0; h < g.hours + step / 2; h += step) {
                    double x = fmin(h, g.hours) * 3600;
                    series_row(x, name, rft_heal_dvth(&g.p, an, x, dv0),
                               rft_heal_dvth(&g.p, ah, x, dv0));
                }
                continue;
            }
            double dn = rft_heal_dvth(&g.p, an, horizon_s(), dv0);
            double dh = rft_heal_dvth(&g.p, ah, horizon_s(), dv0);
            /* a healthy SC ages faster: its change is in the dVth columns, not a
               negative reduction */
            unit_row(t, name, rest ? "degraded" : "healthy-max", an, ah, dv0, dn, dh,
                     rest && dn > 0 ? 100 * (1 - dh / dn) : NAN);
        }
    }
    table_free(series ? g.series : t);
}

static void report_groups(void)
{
    static const char *const cols[] = {"degraded_scs", "wi_naive", "rwi", "healthy_groups",
                                       "wi_healthy", "wf_naive", "wf_healthy",
                                       "extra_wf_per_healthy_group", "extra_wf_per_naive_group"};
    uint32_t nsc = g.h ? rft_heal_nsc(g.h) : 16, lanes = g.h ? 64 : 64;
    uint32_t wi = g.have_wi ? g.work_items : rft_heal_group_max(g.h);
    if (g.fmt == FMT_TABLE)
        printf("# a work-group of %u work-items, %u SCs per slice, wavefronts of %u, at most %u "
               "work-items a group, rule %s\n", wi, nsc, lanes, g.o.max_wg,
               g.o.wfrule == RFT_HEAL_WF_SEED ? "seed" : "ceil");
    cli_table *t = table_new(g.fmt, stdout, 9, cols);
    for (int d = 1; d <= g.o.sweep; d++) {
        rft_heal_group hg;
        if (rft_heal_group_rule(wi, (1ull << d) - 1, nsc, lanes, g.o.max_wg, g.o.wfrule, &hg))
            continue;
        table_u64(t, (uint64_t)d);
        table_u64(t, wi);
        table_u64(t, hg.rwi);
        table_u64(t, hg.groups);
        table_u64(t, hg.wi_max);
        table_u64(t, hg.wf_naive);
        table_u64(t, hg.wf_healthy);
        table_u64(t, hg.wf_one - hg.wf_one_naive);
        table_u64(t, hg.wf_healthy - hg.wf_naive);
        table_end_row(t);
    }
    table_free(t);
}

static void cost_row(cli_table *t, int d, uint32_t cus, uint64_t base)
{
    uint64_t c = rft_heal_cost(g.h, d, cus);
    char b[16];
    table_u64(t, (uint64_t)d);
    if (cus)
        snprintf(b, sizeof b, "%u", cus), table_str(t, b);
    else
        table_str(t, "all");
    table_u64(t, base);
    table_u64(t, c);
    table_dbl(t, base ? 100.0 * ((double)c - (double)base) / (double)base : NAN, 2);
    table_end_row(t);
}

static void report_cost(void)
{
    static const char *const cols[] = {"degraded_scs", "healed_cus", "cycles_naive",
                                       "cycles_healthy", "overhead%"};
    uint64_t base = rft_heal_cost(g.h, 0, 0);
    if (g.fmt == FMT_TABLE)
        printf("# run time replayed per slice (at most %u wavefronts, register windows), "
               "naive kernel by the same model\n", g.o.max_wf);
    cli_table *t = table_new(g.fmt, stdout, 5, cols);
    for (int d = 1; d <= g.o.sweep; d++)
        cost_row(t, d, 0, base);
    for (uint32_t k = 1; k < rft_heal_ncus(g.h) && k <= 10; k++)   /* seed 003 Fig. 10: 1 to 10 */
        cost_row(t, 1, k, base);
    table_free(t);
}

/* ---- main ------------------------------------------------------------------------------------ */
static void read_trace(void)
{
    static rft_rec rec;
    const char *why = "";
    stage.read_flags = RFT_IN_AHEAD;    /* decompress in a second thread beside the counting */
    rft_reader *r = stage_open(g.input);
    const rft_geom *geom = &rft_reader_header(r)->geom;
    if (!g.sweep_set && (uint32_t)g.o.sweep >= geom->block_lanes)
        g.o.sweep = (int)geom->block_lanes - 1;     /* a narrow slice: sweep what it has */
    g.h = rft_heal_new(geom, &g.o, &why);
    if (!g.h)
        die("%s: %s", g.input, why);
    int e;
    while ((e = rft_read(r, &rec)) == 0)
        if (rft_heal_feed(g.h, &rec))
            stage_fail("%s", rft_heal_error(g.h));
    stage_read_end(e);
    rft_reader_close(r);
    stage.r = NULL;
    if (rft_heal_finish(g.h))
        die("%s: %s", g.input, rft_heal_error(g.h));
    if (!rft_heal_span(g.h))
        die("%s: no records with a cycle: nothing to profile", g.input);
    if (g.scheme == 0 && !rft_heal_bundles(g.h))
        die("%s: no bundle records: PE healing needs VLIW bundles (rft-decode --format evg, "
            "or a VLIW model of rft-synth), or --profile", g.input);
}


int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"scheme", required_argument, 0, 'S'},   {"report", required_argument, 0, 'r'},
        {"params", required_argument, 0, 'p'},   {"set", required_argument, 0, 's'},
        {"hours", required_argument, 0, 'H'},    {"years", required_argument, 0, 'Y'},
        {"adapt", required_argument, 0, 'a'},    {"step", required_argument, 0, 't'},
        {"policy", required_argument, 0, 'P'},   {"variation", required_argument, 0, 'v'},
        {"profile", required_argument, 0, 'R'},  {"packing", required_argument, 0, 'k'},
        {"issue", required_argument, 0, 'i'},    {"degraded", required_argument, 0, 'd'},
        {"threshold", required_argument, 0, 'T'}, {"rest-duty", required_argument, 0, 'e'},
        {"work-items", required_argument, 0, 'w'}, {"max-wg", required_argument, 0, 'g'},
        {"max-wf", required_argument, 0, 'm'},   {"wavefront-rule", required_argument, 0, 'u'},
        {"sweep", required_argument, 0, 'W'},    {"source", required_argument, 0, 'c'},
        {"format", required_argument, 0, 'f'},   {0, 0, 0, 0}};
    const char *params = NULL;
    rft_params set;
    char why[512];
    int c;
    cli_init(argc, argv, usage);
    rft_nbti_seed003(&g.p);
    rft_heal_opts_default(&g.o);
    rft_params_init(&set);
    while ((c = getopt_long(argc, argv, "f:", opts, NULL)) != -1) {
        switch (c) {
        case 'S': g.scheme = cli_choice("--scheme", optarg, "pe|sc"); break;
        case 'r':
            g.report = cli_choice("--report", optarg,
                                  "summary|profile|slices|units|groups|cost|series");
            break;
        case 'p': params = optarg; break;
        case 's':
            if (rft_params_set_arg(&set, optarg, "--set", why, sizeof why))
                usage_error("%s", why);
            break;
        case 'H': g.hours = cli_double("--hours", optarg, 1e-3, 1e9); break;
        case 'Y': g.hours = 8766 * cli_double("--years", optarg, 1e-6, 1e5); break;
        case 'a': g.adapt = cli_double("--adapt", optarg, 1e-3, 1e9); break;
        case 't': g.step = cli_double("--step", optarg, 1e-3, 1e9); break;
        case 'P': g.policy = cli_choice("--policy", optarg, "young|permute"); break;
        case 'v': g.variation = cli_double("--variation", optarg, 0, 1000); break;
        case 'R': profile_opt(optarg); break;
        case 'k': g.packing = cli_double("--packing", optarg, 0, 1); break;
        case 'i': g.issue = cli_double("--issue", optarg, 0, 1); break;
        case 'd': g.degraded = optarg; break;
        case 'T': g.threshold = cli_double("--threshold", optarg, 0, 1e4); g.have_threshold = 1; break;
        case 'e': g.rest = cli_double("--rest-duty", optarg, 0, 1); break;
        case 'w': g.work_items = (uint32_t)cli_uint("--work-items", optarg, 1, 1u << 20); g.have_wi = 1; break;
        case 'g': g.o.max_wg = (uint32_t)cli_uint("--max-wg", optarg, 1, 1u << 20); break;
        case 'm': g.o.max_wf = (uint32_t)cli_uint("--max-wf", optarg, 1, 4096); break;
        case 'u': g.o.wfrule = cli_choice("--wavefront-rule", optarg, "seed|ceil"); break;
        case 'W':
            g.o.sweep = (int)cli_uint("--sweep", optarg, 1, RFT_HEAL_MAX_D - 1);
            g.sweep_set = 1;
            break;
        case 'c': g.o.source = cli_choice("--source", optarg, "auto|bundles|writes"); break;
        case 'f': g.fmt = cli_format(optarg); break;
        default: cli_bad_option(argv);
        }
    }
    g.input = cli_input(argc, argv);
    if (params || set.n)
        cli_nbti_params(&g.p, params, &set);
    rft_params_free(&set);
    if (g.degraded && g.have_threshold)
        usage_error("--degraded and --threshold: give one of them");
    if (g.have_profile && g.scheme == 1)
        usage_error("--profile: a profile of PEs has no stream cores: use it with --scheme pe");
    if (g.report == R_SUMMARY && g.fmt != FMT_TABLE)
        usage_error("--format: the summary holds several tables: choose one with --report");
    int need_trace = !(g.have_profile || (g.report == R_GROUPS && g.have_wi));
    if ((g.report == R_SLICES || g.report == R_COST) && g.have_profile)
        usage_error("--report: a profile given by hand has no slices or schedule");
    if (need_trace) {
        read_trace();
        if (g.scheme == 1) {
            if (g.degraded)
                degraded_parse(rft_heal_nsc(g.h));
            pick_degraded();
        }
    }
    switch (g.report) {
    case R_PROFILE: report_profile(); break;
    case R_SLICES: report_slices(); break;
    case R_GROUPS: report_groups(); break;
    case R_COST: report_cost(); break;
    case R_UNITS: g.scheme ? report_sc(0) : report_pe(0); break;
    case R_SERIES: g.scheme ? report_sc(1) : report_pe(1); break;
    default:
        window_line();
        title("stress profile: share of ALU instructions and busy cycles of each unit");
        report_profile();
        title(g.scheme ? "SC healing: the degraded SCs rest, redundant work-items redo their work"
                       : "PE healing: each bundle's instructions on the least-aged slots");
        horizon_line();
        g.scheme ? report_sc(0) : report_pe(0);
        if (g.scheme) {
            title("redundant work-items and wavefronts of the healthy kernel (sections 5.3, 6.2)");
            report_groups();
            title("run time of the healthy kernel, first-order estimate (rft-heal(1))");
            report_cost();
        }
    }
    rft_heal_free(g.h);
    free(degs);
    return cli_close_stdout();
}
