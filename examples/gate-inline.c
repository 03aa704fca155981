/* gate-inline.c - RC gating (seed 002 5.1) inside a simulator, without
 * files: the simulator makes records as its wavefronts run, an rft-gate
 * stage annotates each write with the bits its entry keeps powered, and the
 * simulator reads the annotation back (here: prints it) and the counters.
 *
 * Build against an installed rftrace:
 *   cc -o gate-inline gate-inline.c $(pkg-config --cflags --libs rft)
 * or in the source tree: make examples/gate-inline */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"

/* The sink: what the stage hands on.  A simulator would use the power
 * state; this one prints it. */
static int on_record(void *ctx, rft_rec *rec)
{
    unsigned *nwrites = ctx;
    if (rec->kind == RFT_WRITE)
        printf("write %u: v%u in entry %u, %u bits powered%s\n", ++*nwrites, rec->w.vreg,
               rec->w.phys, rec->w.on_bits, rec->w.flags & RFT_WF_WAKEUP ? " (woken up)" : "");
    return 0;
}

int main(void)
{
    rft_header in, out;
    rft_header_init(&in, "my-simulator");
    rft_geom_default(&in.geom);                 /* 64 lanes, 256 entries */

    rft_gate_opts o;
    rft_gate_opts_default(&o);                  /* RC, the hardware's pattern rule */
    rft_stage *gate = rft_gate_new(&o);
    rft_rec *rec = calloc(1, sizeof *rec);      /* large: on the heap */
    if (!gate || !rec || rft_stage_start(gate, &in, &out)) {
        fprintf(stderr, "gate-inline: %s\n", gate ? rft_stage_error(gate) : "out of memory");
        return 1;
    }
    unsigned nwrites = 0;
    rft_sink sink = {on_record, &nwrites};

    /* a wavefront starts on CU 0, SIMD 0 with a window of 4 registers */
    rec->kind = RFT_WFBEGIN;
    rec->u.begin = (rft_wfbegin){.cycle = 1, .wf = 7, .nregs = 4, .wg = RFT_NO_WG,
                                 .kernel = RFT_NO_KERNEL};
    int e = rft_stage_feed(gate, rec, &sink);

    /* three writes to v0 (entry 0): work-item ids (compressible: off),
     * random values (wakes it up), zeros (off again) */
    for (uint32_t k = 0; k < 3 && !e; k++) {
        memset(&rec->w, 0, sizeof rec->w);
        rec->kind = RFT_WRITE;
        rec->w.cycle = 10 + k;
        rec->w.wf = 7;
        rec->w.vreg = 0;
        rec->w.phys = 0;                        /* placed by the simulator's allocator */
        rec->w.on_bits = RFT_NO_GATE;
        memset(rec->w.mask, 0xff, 8);           /* all 64 lanes active */
        for (uint32_t i = 0; i < 64; i++)
            rec->w.val[i] = k == 0 ? i : k == 1 ? i * 2654435761u : 0;
        e = rft_stage_feed(gate, rec, &sink);
    }
    rec->kind = RFT_WFEND;
    rec->u.end = (rft_wfend){.cycle = 20, .wf = 7};
    if (!e)
        e = rft_stage_feed(gate, rec, &sink);
    if (!e)
        e = rft_stage_finish(gate, &(rft_sink){on_record, &nwrites});
    if (e) {
        fprintf(stderr, "gate-inline: %s\n", rft_stage_error(gate));
        return 1;
    }
    uint16_t cu, simd;
    const uint64_t *n = rft_gate_counts(gate, rft_gate_nslices(gate), &cu, &simd);
    printf("switch-offs %llu, wake-ups %llu, compression-table writes %llu\n",
           (unsigned long long)n[RFT_GC_OFF], (unsigned long long)n[RFT_GC_WAKE],
           (unsigned long long)n[RFT_GC_CT_W]);
    rft_stage_free(gate);
    rft_header_free(&out);
    rft_header_free(&in);
    free(rec);
    return 0;
}
