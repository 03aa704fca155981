/* heal_report.c - the tables of rft-heal(1) (heal_report.h). */
#include "heal_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const pe_label[RFT_NSLOTS] = {"PE_X", "PE_Y", "PE_Z", "PE_W", "PE_T"};

static void title(const heal_report *r, const char *s)
{
    if (r->fmt == FMT_TABLE)
        printf("\n# %s\n", s);
}

static double horizon_s(const heal_report *r) { return r->hours * 3600; }

/* What every table assumed (issue 22): onto t, or with t NULL under the
 * summary for people (its tables' notes said once). */
static void heal_notes(const heal_report *r, cli_table *t)
{
    notes n;
    notes_init(&n, 1, &r->input, "inputs");
    for (size_t k = 0; k < r->nt.n; k++)
        notes_add(&n, 0, r->nt.text[k]);
    notes_addf(&n, 1, "parameters: %s", r->params ? r->params
                                                  : "built in (seed 003's 65 nm constants)");
    notes_addf(&n, 1, "lifetime: %g hours (--hours): the dVth columns are at its end", r->hours);
    notes_addf(&n, 1, "temperature: %g K (the parameters' temperature)", r->p.temperature);
    const rft_heal *h = r->h;
    if (h) {
        uint64_t span = rft_heal_span(h), busy = 0;
        notes_addf(&n, 1, "window: %llu cycles from cycle %llu (the span the busy shares are "
                   "over)", (unsigned long long)span, (unsigned long long)rft_heal_first(h));
        notes_short(&n, 1, span, 0);
        if (rft_heal_source(h) != RFT_HEAL_BUNDLES)
            notes_add(&n, 1, "differs from the seed: not an Evergreen VLIW trace: the units are "
                      "busy from write records, there are no bundles (seed 003's figures are "
                      "of Evergreen's five-slot bundles)");
        size_t units = rft_heal_nslices(h) * rft_heal_nsc(h);
        for (size_t i = 0; i < rft_heal_nslices(h); i++)
            for (uint32_t j = 0; j < rft_heal_nsc(h); j++)
                busy += rft_heal_slice_at(h, i)->sc_busy[j];
        double idle = units && span ? 1 - (double)busy / ((double)span * (double)units) : 0;
        if (idle >= NOTES_IDLE_SHARE)
            notes_addf(&n, 1, "differs from the seed: idle slots: the SCs are idle %.1f %% of "
                       "the window (%.0f %% or more): a kernel with idle slots ages every unit "
                       "less, and resting a unit saves less", 100 * idle, 100 * NOTES_IDLE_SHARE);
    }
    if (t) {
        notes_put(&n, t, NULL);
    } else {
        const char **list = xrealloc(NULL, n.n * sizeof *list);
        for (size_t k = 0; k < n.n; k++)
            list[k] = n.text[k];
        cli_notes_print(stdout, FMT_TABLE, list, n.n);
        free(list);
    }
    notes_free(&n);
}

/* A table of the report: its notes, but under the summary for people (said
 * once, at its end). */
static cli_table *heal_table(const heal_report *r, int ncols, const char *const *names)
{
    cli_table *t = table_new(r->fmt, stdout, ncols, names);
    if (r->report != HEAL_SUMMARY)
        heal_notes(r, t);
    return t;
}

static int sweep_of(const heal_report *r) { return r->h ? rft_heal_sweep(r->h) : r->o.sweep; }

static void window_line(const heal_report *r)
{
    const rft_heal *h = r->h;
    if (r->fmt != FMT_TABLE || !h)
        return;
    printf("# %s: %zu slices x %u SCs, window %llu cycles from cycle %llu, busy from %s\n",
           r->input, rft_heal_nslices(h), rft_heal_nsc(h), (unsigned long long)rft_heal_span(h),
           (unsigned long long)rft_heal_first(h),
           rft_heal_source(h) == RFT_HEAL_BUNDLES ? "bundle records" : "write records");
    size_t over = rft_heal_nover(h);
    if (!over)
        return;
    printf("# note: %zu SC%s busy more than the window:", over, over == 1 ? "" : "s");
    for (size_t i = 0; i < over && i < 8; i++) {
        const rft_heal_over *o = rft_heal_over_at(h, i);
        printf("%s %u:%u:%u %.2f %%", i ? "," : "", o->cu, o->simd, o->sc,
               100 * (double)o->busy / (double)rft_heal_span(h));
    }
    printf("%s; writes count memory results too (rft-heal(1)): each is taken as busy the whole "
           "window, in every table and in the dVth\n", over > 8 ? ", ..." : "");
}

static void horizon_line(const heal_report *r)
{
    if (r->fmt == FMT_TABLE)
        printf("# horizon %g h, dVth by the RD model (Eqs. 1-4), Vth0 %.1f mV, variation %g mV\n",
               r->hours, 1e3 * r->p.vth0, r->variation);
}

/* The PEs' work: of the profile given, else of the trace. */
static void pe_work(const heal_report *r, rft_heal_work *w)
{
    if (r->have_profile)
        rft_heal_work_of_profile(r->share, r->packing, r->issue, w);
    else
        rft_heal_work_of_trace(r->h, w);
}

/* A PE (p < RFT_NSLOTS) or the SC (p == RFT_NSLOTS) of SC position j of slice s: busy cycles. */
static uint64_t busy_of(const rft_heal_slice *s, uint32_t j, int p)
{
    return p < RFT_NSLOTS ? s->pe_busy[j * RFT_NSLOTS + p] : s->sc_busy[j];
}

/* A row of the profile from the trace: the busy cycles of unit p (busy_of)
 * at SC positions from..to-1 of every slice, their share of the window
 * (the mean over those units, the least and the most), or with --counts
 * the cycles and the units and window that make them shares. */
static void profile_row(const heal_report *r, cli_table *t, int p, uint32_t from, uint32_t to)
{
    const rft_heal *h = r->h;
    size_t nsl = rft_heal_nslices(h);
    uint64_t sum = 0, lo = UINT64_MAX, hi = 0, span = rft_heal_span(h), units = nsl * (to - from);
    for (size_t i = 0; i < nsl; i++)
        for (uint32_t j = from; j < to; j++) {
            uint64_t x = busy_of(rft_heal_slice_at(h, i), j, p);
            sum += x, lo = x < lo ? x : lo, hi = x > hi ? x : hi;
        }
    table_share(t, r->counts, sum, (double)span * (double)units);
    table_share(t, r->counts, lo, (double)span);
    table_share(t, r->counts, hi, (double)span);
    if (r->counts)
        table_u64(t, units), table_u64(t, span);
    table_end_row(t);
}

static void report_profile(const heal_report *r)
{
    static const char *const cols[] = {"unit", "instr_share%", "busy%", "busy_min%",
                                       "busy_max%"};
    /* instr over the PE rows' sum, busy_cycles over units x window_cycles, the
       least and the most over window_cycles: the shares */
    static const char *const count_cols[] = {"unit", "instr", "busy_cycles", "busy_min_cycles",
                                             "busy_max_cycles", "units", "window_cycles"};
    const rft_heal *h = r->h;
    cli_table *t = heal_table(r, r->counts ? 7 : 5, r->counts ? count_cols : cols);
    uint32_t nsc = h ? rft_heal_nsc(h) : 0;
    size_t nsl = h ? rft_heal_nslices(h) : 0;
    uint64_t instr[RFT_NSLOTS] = {0}, all = 0;
    for (size_t i = 0; i < nsl; i++)
        for (int p = 0; p < RFT_NSLOTS; p++)
            instr[p] += rft_heal_slice_at(h, i)->instr[p], all += rft_heal_slice_at(h, i)->instr[p];
    if (r->have_profile) {      /* shares given: no trace, no counts */
        rft_heal_work w;
        double a[RFT_NSLOTS];
        pe_work(r, &w);
        rft_heal_pe_alpha(&w, r->policy, 1, NULL, a);
        for (int p = 0; p < RFT_NSLOTS; p++) {
            table_str(t, pe_label[p]);
            table_dbl(t, 100 * r->share[p], 2);
            table_dbl(t, 100 * a[p], 2);
            table_none(t), table_none(t);
            table_end_row(t);
        }
    }
    for (int p = 0; p < RFT_NSLOTS && !r->have_profile && rft_heal_bundles(h); p++) {
        table_str(t, pe_label[p]);
        table_share(t, r->counts, instr[p], (double)all);
        profile_row(r, t, p, 0, nsc);
    }
    for (uint32_t j = 0; j <= nsc && nsl; j++) {
        char name[32];
        if (j == nsc)
            snprintf(name, sizeof name, "SC_all");
        else
            snprintf(name, sizeof name, "SC_%u", j);
        table_str(t, name);
        table_none(t);
        profile_row(r, t, RFT_NSLOTS, j == nsc ? 0 : j, j == nsc ? nsc : j + 1);
    }
    table_free(t);
}

/* A count of busy cycles with --counts, else the percentage the table has
 * always printed, computed by the caller as before so that no digit moves. */
static void busy_cell(const heal_report *r, cli_table *t, uint64_t cycles, double pct)
{
    if (r->counts)
        table_u64(t, cycles);
    else
        table_dbl(t, pct, 2);
}

static void report_slices(const heal_report *r)
{
    static const char *const cols[] = {"slice", "bundles", "writes", "sc_busy_min%",
                                       "sc_busy_mean%", "sc_busy_max%", "PE_X%", "PE_Y%",
                                       "PE_Z%", "PE_W%", "PE_T%"};
    /* sc_busy_cycles and a PE's cycles over units x window_cycles, the least
       and the most busy SC over window_cycles: the shares */
    static const char *const count_cols[] = {"slice", "bundles", "writes", "sc_busy_min_cycles",
                                             "sc_busy_cycles", "sc_busy_max_cycles",
                                             "PE_X_cycles", "PE_Y_cycles", "PE_Z_cycles",
                                             "PE_W_cycles", "PE_T_cycles", "units",
                                             "window_cycles"};
    const rft_heal *h = r->h;
    cli_table *t = heal_table(r, r->counts ? 13 : 11, r->counts ? count_cols : cols);
    uint32_t nsc = rft_heal_nsc(h);
    for (size_t i = 0; i < rft_heal_nslices(h); i++) {
        const rft_heal_slice *s = rft_heal_slice_at(h, i);
        char name[32];
        uint64_t lo = UINT64_MAX, hi = 0, busy = 0;
        double mean = 0;
        for (uint32_t j = 0; j < nsc; j++) {
            uint64_t x = s->sc_busy[j];
            lo = x < lo ? x : lo, hi = x > hi ? x : hi, busy += x;
            mean += rft_heal_sc_alpha(h, s, j);
        }
        snprintf(name, sizeof name, "%u:%u", s->cu, s->simd);
        table_str(t, name);
        table_u64(t, s->bundles);
        table_u64(t, s->writes);
        busy_cell(r, t, lo, 100 * rft_heal_alpha(h, lo));
        busy_cell(r, t, busy, 100 * mean / nsc);
        busy_cell(r, t, hi, 100 * rft_heal_alpha(h, hi));
        for (int p = 0; p < RFT_NSLOTS; p++) {
            uint64_t b = 0;
            for (uint32_t j = 0; j < nsc; j++)
                b += s->pe_busy[j * RFT_NSLOTS + p];
            busy_cell(r, t, b, 100 * rft_heal_alpha(h, b) / nsc);
        }
        if (r->counts)
            table_u64(t, nsc), table_u64(t, rft_heal_span(h));
        table_end_row(t);
    }
    table_free(t);
}

/* ---- units: dVth with and without healing, in one table or as a series over time ----------- */
typedef struct {
    const heal_report *r;
    cli_table *t;               /* the table of units, or of the series */
    double step;                /* of the series, hours */
    double pe_naive[RFT_NSLOTS], pe_dv0[RFT_NSLOTS];
} units;

static void units_open(const heal_report *r, units *u, int series)
{
    static const char *const unit_cols[] = {"unit", "role", "busy_naive%", "busy_healed%",
                                            "dvth0_mV", "dvth_naive_mV", "dvth_healed_mV",
                                            "vth_naive_mV", "vth_healed_mV", "dvth_reduction%"};
    static const char *const series_cols[] = {"hours", "unit", "dvth_naive_mV", "dvth_healed_mV"};
    u->r = r;
    u->step = r->step > 0 ? r->step : r->hours / 36;
    u->t = series ? heal_table(r, 4, series_cols) : heal_table(r, 10, unit_cols);
}

static void series_row(units *u, double t, const char *unit, double naive, double healed)
{
    table_dbl(u->t, t / 3600, 2);
    table_str(u->t, unit);
    table_dbl(u->t, 1e3 * naive, 3);
    table_dbl(u->t, 1e3 * healed, 3);
    table_end_row(u->t);
}

static void pe_series(double t, const double dvth[RFT_NSLOTS], void *user)
{
    units *u = user;
    for (int p = 0; p < RFT_NSLOTS; p++)
        series_row(u, t, pe_label[p], rft_heal_dvth(&u->r->p, u->pe_naive[p], t, u->pe_dv0[p]),
                   dvth[p]);
}

static void unit_row(units *u, const char *unit, const char *role, double an, double ah,
                     double dv0, double dn, double dh, double red)
{
    cli_table *t = u->t;
    table_str(t, unit);
    table_str(t, role);
    table_dbl(t, 100 * an, 2);
    table_dbl(t, 100 * ah, 2);
    table_dbl(t, 1e3 * dv0, 2);
    table_dbl(t, 1e3 * dn, 2);
    table_dbl(t, 1e3 * dh, 2);
    table_dbl(t, 1e3 * (u->r->p.vth0 + dn), 2);
    table_dbl(t, 1e3 * (u->r->p.vth0 + dh), 2);
    if (isnan(red))
        table_none(t);
    else
        table_dbl(t, red, 2);
    table_end_row(t);
}

/* The PE rows are slot averages over every SC: name the single busiest PE,
 * the one that limits the lifetime without healing. */
static void busiest_pe_note(const heal_report *r)
{
    const rft_heal *h = r->h;
    const rft_heal_slice *bs = NULL;
    uint32_t bj = 0;
    int bp = 0;
    for (size_t i = 0; i < rft_heal_nslices(h); i++) {
        const rft_heal_slice *s = rft_heal_slice_at(h, i);
        for (uint32_t j = 0; j < rft_heal_nsc(h); j++)
            for (int p = 0; p < RFT_NSLOTS; p++)
                if (!bs || busy_of(s, j, p) > busy_of(bs, bj, bp))
                    bs = s, bj = j, bp = p;
    }
    if (!bs)
        return;
    double a = rft_heal_alpha(h, busy_of(bs, bj, bp));
    printf("# note: the PE rows average each slot over all %zu x %u SCs; the busiest single PE, "
           "which limits the lifetime, is %s of SC %u:%u:%u: busy %.2f %%, naive dVth %.2f mV\n",
           rft_heal_nslices(h), rft_heal_nsc(h), pe_label[bp], bs->cu, bs->simd, bj, 100 * a,
           1e3 * rft_heal_dvth(&r->p, a, horizon_s(r), 1e-3 * r->variation * bp / (RFT_NSLOTS - 1)));
}

static void report_pe(const heal_report *r, int series)
{
    units u;
    rft_heal_work w;
    double dh[RFT_NSLOTS], ah[RFT_NSLOTS];
    if (!series && r->fmt == FMT_TABLE && !r->have_profile)
        busiest_pe_note(r);
    pe_work(r, &w);
    rft_heal_pe_alpha(&w, r->policy, r->have_profile, NULL, u.pe_naive);
    for (int p = 0; p < RFT_NSLOTS; p++)   /* --variation: X starts lowest, T highest */
        u.pe_dv0[p] = 1e-3 * r->variation * p / (RFT_NSLOTS - 1);
    units_open(r, &u, series);
    rft_heal_pe_run(&r->p, &w, r->have_profile ? RFT_HEAL_PERMUTE : r->policy, r->have_profile,
                    u.pe_dv0, horizon_s(r), r->adapt * 3600, series ? u.step * 3600 : 0,
                    series ? pe_series : NULL, &u, dh, ah);
    if (!series) {
        double mn = 0, mh = 0, an = 0, a2 = 0, d0n = 0, d0h = 0;
        for (int p = 0; p < RFT_NSLOTS; p++) {
            double dn = rft_heal_dvth(&r->p, u.pe_naive[p], horizon_s(r), u.pe_dv0[p]);
            unit_row(&u, pe_label[p], "pe", u.pe_naive[p], ah[p], u.pe_dv0[p], dn, dh[p], NAN);
            if (dn > mn)
                mn = dn, an = u.pe_naive[p], d0n = u.pe_dv0[p];
            if (dh[p] > mh)
                mh = dh[p], a2 = ah[p], d0h = u.pe_dv0[p];
        }
        /* the most aged PE limits the lifetime: its dVth with and without healing */
        unit_row(&u, "PE_max", "worst", an, a2, fmax(d0n, d0h), mn, mh,
                 mn > 0 ? 100 * (1 - mh / mn) : NAN);
    }
    table_free(u.t);
}

/* The mask of SCs resting in slice s (0: none). */
static uint64_t resting_mask(const rft_heal *h, const rft_heal_slice *s)
{
    for (size_t i = 0; i < rft_heal_nresting(h); i++) {
        uint64_t mask;
        if (rft_heal_resting(h, i, &mask) == s)
            return mask;
    }
    return 0;
}

/* SC_max: the chip's most aged SC without healing and with it (maybe
 * another SC: a healthy one that took the work), so that healing which
 * makes the chip's worst dVth worse shows as a negative reduction. */
static void chip_row(const heal_report *r, units *u)
{
    const rft_heal *h = r->h;
    double mn = -1, mh = -1, an = 0, ah = 0, d0n = 0, d0h = 0;
    for (size_t i = 0; i < rft_heal_nslices(h); i++) {
        const rft_heal_slice *s = rft_heal_slice_at(h, i);
        uint64_t mask = resting_mask(h, s);
        for (uint32_t j = 0; j < rft_heal_nsc(h); j++) {
            double dv0 = mask >> j & 1 ? 1e-3 * r->variation : 0;
            double a = rft_heal_sc_alpha(h, s, j);
            double b = rft_heal_sc_healed(h, s, mask, r->rest, j, NULL);
            double dn = rft_heal_dvth(&r->p, a, horizon_s(r), dv0);
            double dh = rft_heal_dvth(&r->p, b, horizon_s(r), dv0);
            if (dn > mn)
                mn = dn, an = a, d0n = dv0;
            if (dh > mh)
                mh = dh, ah = b, d0h = dv0;
        }
    }
    unit_row(u, "SC_max", "worst", an, ah, fmax(d0n, d0h), mn, mh,
             mn > 0 ? 100 * (1 - mh / mn) : NAN);
}

/* The work SC j of slice s would run under healing, in windows: beyond 1
 * where its healthy neighbours cannot take all of the resting SCs' work. */
static double healed_work(const heal_report *r, const rft_heal_slice *s, uint64_t mask, uint32_t j)
{
    double over, a = rft_heal_sc_healed(r->h, s, mask, r->rest, j, &over);
    return a + over;
}

static void report_sc(const heal_report *r, int series)
{
    const rft_heal *h = r->h;
    uint32_t nsc = rft_heal_nsc(h);
    units u;
    if (!series && r->fmt == FMT_TABLE && r->rest == 0 && r->variation == 0)
        printf("# note: with --rest-duty 0 and --variation 0 a resting SC does not age at all: "
               "its reduction is 100 %% by construction; SC_max compares the chip's most aged SC "
               "without and with healing\n");
    const rft_heal_slice *most = NULL;   /* the slice whose healthy SC overflows most */
    uint32_t most_sc = 0;
    double most_work = 0;
    units_open(r, &u, series);
    for (size_t i = 0; i < rft_heal_nresting(h); i++) {
        uint64_t mask;
        const rft_heal_slice *s = rft_heal_resting(h, i, &mask);
        int hot = -1;   /* the healthy SC that ages most once it takes the work */
        for (uint32_t j = 0; j < nsc; j++)
            if (!(mask >> j & 1) &&
                (hot < 0 || healed_work(r, s, mask, j) > healed_work(r, s, mask, (uint32_t)hot)))
                hot = (int)j;
        if (hot >= 0 && healed_work(r, s, mask, (uint32_t)hot) > 1 &&
            (!most || healed_work(r, s, mask, (uint32_t)hot) > most_work)) {
            most = s, most_sc = (uint32_t)hot;
            most_work = healed_work(r, s, mask, most_sc);
        }
        for (uint32_t j = 0; j < nsc; j++) {
            int rest = mask >> j & 1;
            if (!rest && (int)j != hot)
                continue;
            char name[48];
            snprintf(name, sizeof name, "%u:%u:%u", s->cu, s->simd, j);
            double dv0 = rest ? 1e-3 * r->variation : 0;
            double an = rft_heal_sc_alpha(h, s, j);
            double ah = rft_heal_sc_healed(h, s, mask, r->rest, j, NULL);
            if (series) {
                for (double t = 0; t < r->hours + u.step / 2; t += u.step) {
                    double x = fmin(t, r->hours) * 3600;
                    series_row(&u, x, name, rft_heal_dvth(&r->p, an, x, dv0),
                               rft_heal_dvth(&r->p, ah, x, dv0));
                }
                continue;
            }
            double dn = rft_heal_dvth(&r->p, an, horizon_s(r), dv0);
            double dh = rft_heal_dvth(&r->p, ah, horizon_s(r), dv0);
            /* a healthy SC ages faster: its change is in the dVth columns, not a
               negative reduction */
            unit_row(&u, name, rest ? "degraded" : "healthy-max", an, ah, dv0, dn, dh,
                     rest && dn > 0 ? 100 * (1 - dh / dn) : NAN);
        }
    }
    if (!series)
        chip_row(r, &u);
    table_free(u.t);
    if (most && !series && r->fmt == FMT_TABLE)
        printf("# note: busy_healed%% at most 100 %%: the healthy SCs cannot take all of the resting "
               "SCs' work within the window; SC %u:%u:%u the most: %.2f %% of the window more\n",
               most->cu, most->simd, most_sc, 100 * (most_work - 1));
}

/* ---- SC healing: redundant work-items and run time ------------------------------------------ */
static void report_groups(const heal_report *r)
{
    static const char *const cols[] = {"degraded_scs", "wi_naive", "rwi", "healthy_groups",
                                       "wi_healthy", "wf_naive", "wf_healthy",
                                       "extra_wf_per_healthy_group", "extra_wf_per_naive_group"};
    uint32_t nsc = r->h ? rft_heal_nsc(r->h) : 16, lanes = r->h ? rft_heal_lanes(r->h) : 64;
    uint32_t wi = r->have_wi ? r->work_items : rft_heal_group_max(r->h);
    if (r->fmt == FMT_TABLE)
        printf("# a work-group of %u work-items, %u SCs per slice, wavefronts of %u, at most %u "
               "work-items a group, rule %s\n", wi, nsc, lanes, r->o.max_wg,
               r->o.wfrule == RFT_HEAL_WF_SEED ? "seed" : "ceil");
    cli_table *t = heal_table(r, 9, cols);
    for (int d = 1; d <= sweep_of(r); d++) {
        rft_heal_group hg;
        if (rft_heal_group_rule(wi, (1ull << d) - 1, nsc, lanes, r->o.max_wg, r->o.wfrule, &hg))
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

static void cost_row(const heal_report *r, cli_table *t, int d, uint32_t cus, uint64_t base)
{
    uint64_t c = rft_heal_cost(r->h, d, cus);
    char b[16];
    table_u64(t, (uint64_t)d);
    if (cus)
        snprintf(b, sizeof b, "%u", cus), table_str(t, b);
    else
        table_str(t, "all");
    table_u64(t, base);
    table_u64(t, c);
    if (base)
        table_dbl(t, 100.0 * ((double)c - (double)base) / (double)base, 2);
    else
        table_none(t);          /* no time to compare with */
    /* the replay heals every CU */
    replay_cells(t, r->rp.timed, r->rp.ok && !cus ? &r->rp_total[d] : NULL);
    table_end_row(t);
}

static void report_cost(const heal_report *r)
{
    static const char *const cols[] = {"degraded_scs", "healed_cus", "cycles_naive",
                                       "cycles_healthy", "overhead%", "cycles_traced",
                                       "cycles_replayed", "slowdown_replay%", "cycles_upper",
                                       "slowdown_bound%"};
    uint64_t base = rft_heal_cost(r->h, 0, 0);
    if (r->fmt == FMT_TABLE)
        printf("# run time replayed per slice (at most %u wavefronts, register windows), "
               "naive kernel by the same model\n", r->o.max_wf);
    cli_table *t = heal_table(r, 5 + REPLAY_NCOLS, cols);
    table_notef(t, "note: cycles_naive, cycles_healthy, overhead%%: the first-order estimate "
                "above (its own schedule: neither the slowdown to cite nor a bound, it may lie "
                "below slowdown_replay%%); the replay's columns heal every CU (empty where "
                "healed_cus is a number), work-groups of at most %u work-items, the %s "
                "wavefront rule", r->o.max_wg, r->o.wfrule == RFT_HEAL_WF_SEED ? "seed's" : "ceil");
    replay_notes(t, &r->rp, "cycles_traced", NULL);
    for (int d = 1; d <= sweep_of(r); d++)
        cost_row(r, t, d, 0, base);
    for (uint32_t k = 1; k <= rft_heal_ncus(r->h) && k <= 10; k++)  /* seed 003 Fig. 10: 1 to 10 */
        cost_row(r, t, 1, k, base);
    table_free(t);
}

void heal_report_print(const heal_report *r)
{
    switch (r->report) {
    case HEAL_PROFILE: report_profile(r); break;
    case HEAL_SLICES: report_slices(r); break;
    case HEAL_GROUPS: report_groups(r); break;
    case HEAL_COST: report_cost(r); break;
    case HEAL_UNITS: r->scheme ? report_sc(r, 0) : report_pe(r, 0); break;
    case HEAL_SERIES: r->scheme ? report_sc(r, 1) : report_pe(r, 1); break;
    default:
        window_line(r);
        title(r, "stress profile: share of ALU instructions and busy cycles of each unit");
        report_profile(r);
        title(r, r->scheme
                     ? "SC healing: the degraded SCs rest, redundant work-items redo their work"
                     : "PE healing: each bundle's instructions on the least-aged slots");
        horizon_line(r);
        r->scheme ? report_sc(r, 0) : report_pe(r, 0);
        if (r->scheme) {
            title(r, "redundant work-items and wavefronts of the healthy kernel "
                     "(sections 5.3, 6.2)");
            report_groups(r);
            title(r, "run time of the healthy kernel, first-order estimate (rft-heal(1))");
            report_cost(r);
        }
        heal_notes(r, NULL);
    }
}
