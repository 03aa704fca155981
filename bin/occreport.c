/* occreport.c - rft-alloc's occupancy tables (occreport.h). */
#include "occreport.h"

static void pct(cli_table *t, double share) { table_dbl(t, 100 * share, 2); }

void occ_util_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, uint32_t entries, int counts)
{
    static const char *const cols[] = {"kernel", "vgprs", "slices", "max_wf", "peak_entries",
                                       "peak%", "unused_windows", "mean%", "slice_cycles"};
    /* peak_entries / entries = peak%, entry_cycles / (entries x slice_cycles) = mean% */
    static const char *const count_cols[] = {"kernel", "vgprs", "slices", "max_wf",
                                             "peak_entries", "entries", "unused_windows",
                                             "entry_cycles", "slice_cycles"};
    cli_table *t = table_new(fmt, out, 9, counts ? count_cols : cols);
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

void occ_recovery_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, const rft_geom *g,
                        int counts)
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
