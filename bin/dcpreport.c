/* dcpreport.c - the --summary table of rft-dcpatch. */
#include "dcpreport.h"

#include <stdlib.h>
#include <string.h>

#include "dcpatch.h"
#include "replaycols.h"

static double pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void perf_row(const dcp_report *r, cli_table *t, const char *name, const uint64_t *n)
{
    uint64_t w = n[RFT_DCPC_WRITES];
    table_str(t, name);
    table_u64(t, w);
    for (int c = RFT_DCPC_NORMAL; c <= RFT_DCPC_WLDS; c++)
        r->counts ? table_u64(t, n[c]) : table_dbl(t, pct(n[c], w), 2);
    r->counts ? table_u64(t, n[RFT_DCPC_MISP]) : table_dbl(t, pct(n[RFT_DCPC_MISP], w), 2);
    table_u64(t, n[RFT_DCPC_MOV]);
    table_u64(t, n[RFT_DCPC_READS]);
    r->counts ? table_u64(t, n[RFT_DCPC_LDS_LOAD])
              : table_dbl(t, pct(n[RFT_DCPC_LDS_LOAD], n[RFT_DCPC_READS]), 3);
    table_u64(t, n[RFT_DCPC_LDS_PEAK]);
    table_dbl(t, ratio(n[RFT_DCPC_LDS_BC], n[RFT_DCPC_CU_CYC]), 1);
    table_u64(t, n[RFT_DCPC_STALL]);
}

/* a share of the entry cycles, or (--counts) entries on average */
static void occ_cell(const dcp_report *r, cli_table *t, uint64_t v, const uint64_t *n)
{
    r->counts ? table_dbl(t, ratio(v, n[RFT_DCPC_SLICE_CYC]), 2)
              : table_dbl(t, pct(v, n[RFT_DCPC_ENTRY_CYC]), 2);
}

static void occ_row(const dcp_report *r, cli_table *t, const char *name, const uint64_t *n)
{
    uint64_t all = n[RFT_DCPC_ENTRY_CYC], used = 0, conv = 0;
    table_str(t, name);
    for (int c = RFT_DCPC_CONV_RC; c <= RFT_DCPC_USED_FC; c++) {
        if (c <= RFT_DCPC_CONV_NEW)
            conv += n[c];
        else
            used += n[c];
        occ_cell(r, t, n[c], n);
        if (c == RFT_DCPC_CONV_NEW)
            occ_cell(r, t, all - conv, n);      /* unallocated */
    }
    occ_cell(r, t, all - used, n);              /* unused */
}

/* --report events: every counter of every scope */
static void events(const dcp_report *r, const rft_stage *st, FILE *out)
{
    static const char *const cols[] = {"scope", "name", "value"};
    cli_table *t = table_new(r->fmt, out, 3, cols);
    notes_put(&r->nt, t, NULL);
    uint32_t nk = rft_dcpatch_nkernels(st), ns = rft_dcpatch_nslices(st);
    char *scope = NULL;
    for (uint32_t i = 0; i <= nk + ns; i++) {
        const uint64_t *n;
        const char *name;
        uint16_t cu, simd;
        free(scope);
        if (i < nk) {
            n = rft_dcpatch_kernel(st, i, &name);
            scope = xasprintf("kernel %s", name);
        } else if (i < nk + ns) {
            n = rft_dcpatch_slice(st, i - nk, &cu, &simd);
            scope = xasprintf("slice %u:%u", cu, simd);
        } else {
            n = rft_dcpatch_total(st);
            scope = xasprintf("total");
        }
        for (int c = 0; c < RFT_DCPC_N; c++) {
            table_str(t, scope);
            table_str(t, rft_dcpatch_counter_names[c]);
            table_u64(t, n[c]);
            table_end_row(t);
        }
    }
    free(scope);
    table_free(t);
}

void dcp_report_print(const dcp_report *r, const rft_stage *st, FILE *out)
{
    static const char *const perf[2][13 + REPLAY_NCOLS] = {
        {"kernel", "writes", "normal%", "patch_faulty%", "patch_reliable%", "lds%", "mispred%", "mov",
         "reads", "ldsload%", "lds_peak_B", "lds_mean_B", "stall_cycles", REPLAY_COLS},
        {"kernel", "writes", "normal", "patch_faulty", "patch_reliable", "lds", "mispred", "mov", "reads",
         "ldsload", "lds_peak_B", "lds_mean_B", "stall_cycles", REPLAY_COLS}};
    static const char *const occ[2][11] = {
        {"kernel", "conv_rel_comp%", "conv_rel_unc%", "conv_flt_comp%", "conv_flt_unc%",
         "conv_unwritten%", "conv_unalloc%", "dcp_rel_unc%", "dcp_rel_comp%", "dcp_flt_comp%",
         "dcp_unused%"},
        {"kernel", "conv_rel_comp", "conv_rel_unc", "conv_flt_comp", "conv_flt_unc",
         "conv_unwritten", "conv_unalloc", "dcp_rel_unc", "dcp_rel_comp", "dcp_flt_comp",
         "dcp_unused"}};
    if (r->report == DCP_REPORT_EVENTS) {
        events(r, st, out);
        return;
    }
    const char *names[13 + REPLAY_NCOLS];
    int is_perf = r->report == DCP_REPORT_PERF, ncol = is_perf ? 13 + REPLAY_NCOLS : 11;
    const rft_stage *rp = rft_dcpatch_replay(st);
    replay_info in = replay_info_of(rp);
    memcpy(names, r->report == DCP_REPORT_PERF ? perf[r->counts] : occ[r->counts],
           (size_t)ncol * sizeof *names);
    if (r->by_slice)
        names[0] = "slice";
    cli_table *t = table_new(r->fmt, out, ncol, names);
    if (is_perf)
        replay_notes(t, &in, "cycles_naive", NULL);
    notes_put(&r->nt, t, NULL);
    void (*row)(const dcp_report *, cli_table *, const char *, const uint64_t *) =
        is_perf ? perf_row : occ_row;
    uint32_t nrows = r->by_slice ? rft_dcpatch_nslices(st) : rft_dcpatch_nkernels(st);
    for (uint32_t i = 0; i <= nrows; i++) {
        const uint64_t *n;
        const rft_replay_row *w;
        char scope[16];
        const char *name = scope;
        uint16_t cu = 0, simd = 0;
        if (i == nrows) {
            n = rft_dcpatch_total(st);
            name = "total";
            w = replay_row(rp, RFT_RP_TOTAL, 0, 0, NULL);
        } else if (r->by_slice) {
            n = rft_dcpatch_slice(st, i, &cu, &simd);
            snprintf(scope, sizeof scope, "%u:%u", cu, simd);
            w = replay_row(rp, RFT_RP_SLICE, cu, simd, NULL);
        } else {
            n = rft_dcpatch_kernel(st, i, &name);
            w = replay_row(rp, RFT_RP_KERNEL, 0, 0, name);
        }
        row(r, t, name, n);
        if (is_perf)
            replay_cells(t, in.timed, w);
        table_end_row(t);
    }
    table_free(t);
}
