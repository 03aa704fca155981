/* occreport.c - rft-alloc's occupancy tables (occreport.h). */
#include "occreport.h"

#include <stdlib.h>

static void pct(cli_table *t, double share) { table_dbl(t, 100 * share, 2); }

void occ_notes(notes *nt, const rft_stage *alloc, const rft_occ *occ, int repeated)
{
    const rft_alloc_opts *o = rft_alloc_options(alloc);
    uint64_t first = 0, last = 0;
    notes_addf(nt, 0, "allocation: %s (rft-alloc --scheme, --granularity)",
               rft_alloc_describe(alloc));
    if (rft_occ_span(occ, &first, &last)) {
        notes_addf(nt, 0, "window: cycles %llu..%llu of the trace, read once: every figure is "
                   "over its kernel's spans on each slice (slice_cycles), the traced window, not "
                   "a lifetime%s", (unsigned long long)first, (unsigned long long)last,
                   o->steady ? "; --runs steady shapes the duty maps that follow, not these "
                               "tables" : "");
        notes_short(nt, 0, last - first, 0);
    }
    if (o->scheme == RFT_ALLOC_ARGO && !repeated)
        notes_add(nt, 0, "differs from the seed: run once: ARGO's ring passes over the slice "
                  "with the few window reassignments of one run; a kernel run again and again "
                  "over the lifetime is the trace repeated (rft-repeat -n N)");
}

void occ_util_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, uint32_t entries, int counts,
                    const notes *nt)
{
    static const char *const cols[] = {"kernel", "vgprs", "slices", "max_wf", "peak_entries",
                                       "peak%", "unused_windows", "mean%", "slice_cycles"};
    /* peak_entries / entries = peak%, entry_cycles / (entries x slice_cycles) = mean% */
    static const char *const count_cols[] = {"kernel", "vgprs", "slices", "max_wf",
                                             "peak_entries", "entries", "unused_windows",
                                             "entry_cycles", "slice_cycles"};
    cli_table *t = table_new(fmt, out, 9, counts ? count_cols : cols);
    notes_put(nt, t, NULL);
    if (counts)
        table_notef(t, "counts: peak_entries of a slice's %u entries (entries); entry_cycles: the "
                    "entry-cycles in the kernel's windows, of entries x slice_cycles", entries);
    else
        table_notef(t, "shares: peak%%: the most entries the kernel's windows held at once on a "
                    "slice, of its %u entries; mean%%: the entry-cycles in its windows, of %u x "
                    "slice_cycles (seed 004 Table 1's utilization)", entries, entries);
    table_note(t, "unused_windows: the windows of the kernel's size a slice has room for beyond "
               "max_wf (seed 002 Table 5)");
    rft_occ_row r;
    rft_occ_counts c;
    for (size_t i = 0; i < rft_occ_rows(occ); i++) {
        rft_occ_get(occ, i, &r);
        rft_occ_get_counts(occ, i, &c);
        char v[32];
        snprintf(v, sizeof v, r.vgprs_min == r.vgprs_max ? "%u" : "%u-%u", r.vgprs_min, r.vgprs_max);
        table_str(t, r.kernel);
        table_str(t, v);
        table_u64(t, r.slices);
        table_u64(t, r.max_wf);
        table_u64(t, r.peak);
        if (counts)
            table_u64(t, entries);
        else
            pct(t, (double)r.peak / entries);
        if (r.vgprs_max && r.vgprs_min == r.vgprs_max)  /* windows of one size only */
            table_i64(t, (int64_t)(entries / r.vgprs_max) - r.max_wf);
        else
            table_none(t);
        if (counts)
            table_u64(t, c.entry_cycles);
        else
            pct(t, r.mean);
        table_u64(t, r.cycles);
        table_end_row(t);
    }
    table_free(t);
}

/* The notes of the recovery table: the banks, what its columns are of,
 * the reasons it differs from seed 004 Table 3. */
static void recovery_notes(cli_table *t, const rft_occ *occ, const rft_geom *g, int counts,
                           const rft_alloc_opts *o, const notes *nt)
{
    notes_put(nt, t, NULL);
    char *sizes = xstrdup("");
    for (int j = 0; j < o->nbanks; j++) {
        char *s = xasprintf("%s%s%u", sizes, j ? ", " : "", o->banks[j]);
        free(sizes);
        sizes = s;
    }
    table_notef(t, "banks: %s entries (--banks; by default 1, 2, 4 and 8 KB, as seed 004 "
                "Table 3)", sizes);
    free(sizes);
    table_notef(t, "recovery: a bank is gated while its slice gates free entries (ARGO) and none "
                "of its entries is in a window; %s; mean_recovery%%: the mean of the used banks' "
                "shares; %s", counts ? "worst_gated_cycles: the cycles the least gated used "
                "bank was gated, of worst_slice_cycles, its kernel's cycles on that slice"
                : "worst_recovery%: the least gated used bank's gated cycles, of its kernel's "
                "cycles on that slice", counts ? "gated_entry_cycles: the gated bank-entry-"
                "cycles, of entries x slice_cycles" : "leak_saving%: the gated bank-entry-"
                "cycles, of the slice's entries x slice_cycles");
    if (o->scheme != RFT_ALLOC_ARGO)
        table_notef(t, "differs from the seed: %s gates nothing: every recovery is 0 (seed 004 "
                    "Table 3 is of ARGO: --scheme argo)", rft_alloc_scheme_name(o->scheme));
    rft_occ_row all;
    rft_occ_get(occ, rft_occ_rows(occ) - 1, &all);
    if (all.peak >= NOTES_FULL_SHARE * g->entries)
        table_notef(t, "differs from the seed: register demand fills the slice: the windows hold "
                    "%.1f %% of a slice's entries at their peak (%.0f %% or more): few banks are "
                    "ever free to gate", 100.0 * all.peak / g->entries, 100 * NOTES_FULL_SHARE);
}

void occ_recovery_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, const rft_geom *g,
                        int counts, const rft_alloc_opts *o, const notes *nt)
{
    static const char *const cols[] = {"kernel", "bank_entries", "bank_bytes", "slice_cycles",
                                       "used_banks", "worst_recovery%", "worst_bank",
                                       "mean_recovery%", "leak_saving%"};
    /* worst_gated_cycles / worst_slice_cycles = worst_recovery%, gated_entry_cycles /
       (entries x slice_cycles) = leak_saving%; mean_recovery% is a mean of shares */
    static const char *const count_cols[] = {
        "kernel", "bank_entries", "bank_bytes", "slice_cycles", "used_banks",
        "worst_gated_cycles", "worst_slice_cycles", "worst_bank", "mean_recovery%",
        "gated_entry_cycles", "entries"};
    cli_table *t = table_new(fmt, out, counts ? 11 : 9, counts ? count_cols : cols);
    recovery_notes(t, occ, g, counts, o, nt);
    rft_occ_row r;
    rft_occ_counts c;
    for (size_t i = 0; i < rft_occ_rows(occ); i++) {
        rft_occ_get(occ, i, &r);
        rft_occ_get_counts(occ, i, &c);
        for (int j = 0; j < r.nbank; j++) {
            const rft_occ_bank *b = &r.bank[j];
            const rft_occ_bank_counts *bc = &c.bank[j];
            table_str(t, r.kernel);
            table_u64(t, b->entries);
            table_u64(t, (uint64_t)b->entries * g->lanes * 4);
            table_u64(t, r.cycles);
            table_u64(t, b->used);
            if (b->used) {
                uint32_t lo = b->worst_bank * b->entries, hi = lo + b->entries - 1;
                char where[48];
                snprintf(where, sizeof where, "%u:%u e%u-%u", b->worst_cu, b->worst_simd, lo,
                         hi < g->entries ? hi : g->entries - 1);
                if (counts) {
                    table_u64(t, bc->worst_gated);
                    table_u64(t, bc->worst_cycles);
                } else {
                    pct(t, b->worst);
                }
                table_str(t, where);
                pct(t, b->mean);
            } else {
                for (int k = counts ? 4 : 3; k > 0; k--)
                    table_none(t);
            }
            if (counts) {
                table_u64(t, bc->gated);
                table_u64(t, g->entries);
            } else {
                pct(t, b->leak);
            }
            table_end_row(t);
        }
    }
    table_free(t);
}
