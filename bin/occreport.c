/* occreport.c - rft-alloc's occupancy tables (occreport.h). */
#include "occreport.h"

static void pct(cli_table *t, double share) { table_dbl(t, 100 * share, 2); }

void occ_util_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, uint32_t entries)
{
    static const char *const cols[] = {"kernel", "vgprs", "slices", "max_wf", "peak_entries",
                                       "peak%", "unused_windows", "mean%", "slice_cycles"};
    cli_table *t = table_new(fmt, out, 9, cols);
    rft_occ_row r;
    for (size_t i = 0; i < rft_occ_rows(occ); i++) {
        rft_occ_get(occ, i, &r);
        char v[32];
        snprintf(v, sizeof v, r.vgprs_min == r.vgprs_max ? "%u" : "%u-%u", r.vgprs_min, r.vgprs_max);
        table_str(t, r.kernel);
        table_str(t, v);
        table_u64(t, r.slices);
        table_u64(t, r.max_wf);
        table_u64(t, r.peak);
        pct(t, (double)r.peak / entries);
        if (r.vgprs_max && r.vgprs_min == r.vgprs_max)  /* windows of one size only */
            table_i64(t, (int64_t)(entries / r.vgprs_max) - r.max_wf);
        else
            table_none(t);
        pct(t, r.mean);
        table_u64(t, r.cycles);
        table_end_row(t);
    }
    table_free(t);
}

void occ_recovery_table(enum cli_fmt fmt, FILE *out, const rft_occ *occ, const rft_geom *g)
{
    static const char *const cols[] = {"kernel", "bank_entries", "bank_bytes", "slice_cycles",
                                       "used_banks", "worst_recovery%", "worst_bank",
                                       "mean_recovery%", "leak_saving%"};
    cli_table *t = table_new(fmt, out, 9, cols);
    rft_occ_row r;
    for (size_t i = 0; i < rft_occ_rows(occ); i++) {
        rft_occ_get(occ, i, &r);
        for (int j = 0; j < r.nbank; j++) {
            const rft_occ_bank *b = &r.bank[j];
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
