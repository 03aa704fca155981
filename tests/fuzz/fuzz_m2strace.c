/* fuzz_m2strace.c - Multi2Sim 4.2's pipeline trace as rft-decode
 * --cycles-from reads it (m2s_trace.c): execute stamping, the instructions
 * taken as they are done, the rest at the end.  Every line is an
 * exact-length copy with nothing after it (fuzz_lines); a line the reader
 * refuses is skipped so the lines after it are explored too.  The input's
 * length picks the window (a small one: its bound's refusal) and the clocks
 * (the trace's clock the GPU's, or 925 MHz against 1000: the cycles turned
 * into the GPU's); a replay runs every way. */
#include <stdlib.h>
#include <string.h>

#include "decoders.h"
#include "fuzz.h"

/* An instruction as rft-decode takes it: its stamps in order, its names
 * and mnemonic within their fields */
static void check(const rft_m2s_inst *in)
{
    FUZZ_ASSERT(in->done == 0 || in->done >= in->cycle);
    FUZZ_ASSERT(memchr(in->mnem, 0, sizeof in->mnem) != NULL);
}

static int line(void *ctx, char *s, size_t n)
{
    rft_m2s_trace *t = ctx;
    rft_m2s_inst in;
    if (rft_m2s_trace_line(t, s, n, &in) < 0) {
        FUZZ_ASSERT(strlen(rft_m2s_trace_why(t)) < 160);
        return 0;
    }
    while (rft_m2s_trace_pop(t, 0, &in))
        check(&in);
    return 0;
}

static void run(const uint8_t *data, size_t size, size_t bound, int clocks)
{
    rft_m2s_trace *t = rft_m2s_trace_new();
    FUZZ_ASSERT(t != NULL);
    rft_m2s_trace_at_exec(t, bound);
    if (clocks)
        rft_m2s_trace_clock(t, 925, 1000);
    rft_m2s_inst in;
    if (!fuzz_lines(data, size, line, t))
        while (rft_m2s_trace_pop(t, 1, &in))
            check(&in);
    FUZZ_ASSERT(rft_m2s_trace_mem_kept(t) + rft_m2s_trace_end_kept(t) +
                rft_m2s_trace_fetch_kept(t) <= rft_m2s_trace_insts(t));
    rft_m2s_trace_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int way = 0; way < 4; way++)
        if (fuzz_every_way || (size_t)way == size % 4)
            run(data, size, way & 1 ? 16 : 0, way >> 1);
    return 0;
}
