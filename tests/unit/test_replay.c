/* test_replay.c - unit tests of lib/replay.c: nothing added replays the
 * traced span; one wavefront alone pays the whole latency; a latency
 * shorter than the other wavefronts' ready work costs nothing; the replay
 * is monotone in the latency added and never above the upper bound; the
 * scheme's events (wake-up, misprediction stall, --hold, held for the
 * next vector ALU instruction only); --deps none; a stream whose
 * cycles are estimated is not replayed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcpatch.h"
#include "replay.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static int drop_put(void *ctx, rft_rec *rec) { (void)ctx; (void)rec; return 0; }
static const rft_sink sink = {drop_put, NULL};
static rft_rec rec;

static rft_stage *start(const rft_replay_opts *o, const char *key, const char *val)
{
    rft_header h, out;
    rft_header_init(&h, "test");
    rft_geom_default(&h.geom);      /* 64 lanes, blocks of 16: issue 4 */
    if (key)
        CHECK(rft_header_set(&h, key, val) == 0);
    rft_stage *s = rft_replay_new(o);
    CHECK(s && rft_stage_start(s, &h, &out) == 0);
    rft_header_free(&out);
    rft_header_free(&h);
    return s;
}

static void begin(rft_stage *s, uint64_t t, uint32_t wf)
{
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_WFBEGIN;
    rec.u.begin = (rft_wfbegin){.cycle = t, .wf = wf, .nregs = 8, .kernel = RFT_NO_KERNEL,
                                .wg = RFT_NO_WG};
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
}

static void end(rft_stage *s, uint64_t t, uint32_t wf)
{
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_WFEND;
    rec.u.end = (rft_wfend){.cycle = t, .wf = wf};
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
}

/* An instruction of wf at t reading src (-1: none) and writing dst, with
 * write flags and power annotation. */
static void instr_x(rft_stage *s, uint64_t t, uint32_t wf, int src, int dst, uint8_t flags,
                    uint32_t on_bits, uint8_t cls)
{
    if (src >= 0) {
        memset(&rec, 0, sizeof rec);
        rec.kind = RFT_READ;
        rec.u.read = (rft_regread){.cycle = t, .wf = wf, .vreg = (uint16_t)src, .phys = RFT_NO_PHYS};
        CHECK(rft_stage_feed(s, &rec, &sink) == 0);
    }
    rec.kind = RFT_WRITE;
    rec.w.cycle = t, rec.w.cu = 0, rec.w.simd = 0, rec.w.wf = wf, rec.w.vreg = (uint16_t)dst;
    rec.w.phys = RFT_NO_PHYS, rec.w.flags = flags, rec.w.on_bits = on_bits, rec.w.cls = cls;
    memset(rec.w.mask, 0xff, sizeof rec.w.mask);
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
}

static void instr(rft_stage *s, uint64_t t, uint32_t wf, int src, int dst)
{
    instr_x(s, t, wf, src, dst, 0, RFT_NO_GATE, 0);
}

static const rft_replay_row *total(rft_stage *s)
{
    CHECK(rft_stage_finish(s, &sink) == 0);
    uint32_t n = rft_replay_nrows(s);
    CHECK(n >= 2);
    const rft_replay_row *w = rft_replay_get(s, n - 1);
    CHECK(w->scope == RFT_RP_TOTAL);
    CHECK(rft_replay_get(s, 0)->scope == RFT_RP_SLICE);
    return w;
}

static rft_replay_opts opts(uint32_t add)
{
    rft_replay_opts o;
    rft_replay_opts_default(&o);
    o.add_latency = add;
    return o;
}

/* One wavefront, a chain of n dependent instructions back to back. */
static void alone(void)
{
    const int n = 50;
    for (uint32_t L = 0; L <= 12; L += 3) {
        rft_replay_opts o = opts(L);
        rft_stage *s = start(&o, NULL, NULL);
        begin(s, 0, 1);
        for (int k = 0; k < n; k++)
            instr(s, 4 + 4 * (uint64_t)k, 1, k % 2, (k + 1) % 2);
        end(s, 4 + 4 * (uint64_t)n, 1);
        const rft_replay_row *w = total(s);
        CHECK(w->naive == 4 + 4 * (uint64_t)n);
        CHECK(w->replayed == w->naive + (uint64_t)n * L);      /* the whole latency */
        CHECK(w->upper == w->replayed);
        CHECK(w->instructions == (uint64_t)n && w->added == (uint64_t)n * L);
        rft_stage_free(s);
    }
}

/* Four wavefronts issuing round robin, each instruction depending on its
 * wavefront's last: 12 cycles of other wavefronts' work between two of a
 * wavefront's instructions hide a latency up to 12 on all 160 of them;
 * only the last result, which nothing follows, delays the end. */
static uint64_t round_robin_x(uint32_t L, int hold, unsigned unit, uint8_t flags, uint64_t *naive)
{
    rft_replay_opts o = opts(L);
    o.hold = hold;
    o.latency_unit = unit;
    rft_stage *s = start(&o, NULL, NULL);
    for (uint32_t w = 0; w < 4; w++)
        begin(s, 0, w);
    const int n = 40;
    for (int k = 0; k < n; k++)
        for (uint32_t w = 0; w < 4; w++)
            instr_x(s, 16 * (uint64_t)k + 4 * w, w, k ? 1 : -1, 1, flags, RFT_NO_GATE, 0);
    for (uint32_t w = 0; w < 4; w++)
        end(s, 16 * (uint64_t)n + 4 * w, w);
    const rft_replay_row *t = total(s);
    *naive = t->naive;
    CHECK(t->replayed <= t->upper);
    uint64_t r = t->replayed;
    rft_stage_free(s);
    return r;
}

static uint64_t round_robin(uint32_t L, int hold, uint64_t *naive)
{
    return round_robin_x(L, hold, RFT_REPLAY_U_ALU, 0, naive);
}

/* the same, every instruction a vector memory load, held: the SIMD is never
 * held by a load */
static uint64_t round_robin_vmem(uint32_t L, unsigned unit, uint64_t *naive)
{
    return round_robin_x(L, 1, unit, RFT_WF_VMEM, naive);
}

static void hidden(void)
{
    uint64_t naive, prev = 0;
    for (uint32_t L = 0; L <= 12; L++) {
        uint64_t r = round_robin(L, 0, &naive);
        CHECK(r == naive + L);      /* the last result alone */
    }
    for (uint32_t L = 13; L <= 40; L++) {
        uint64_t r = round_robin(L, 0, &naive);
        CHECK(r > naive + 40 && r >= prev);     /* every round pays */
        prev = r;
    }
    /* held, the SIMD issues one instruction per 4 + L cycles: 4 wavefronts
     * of 40 instructions take about 160 (4 + L) */
    uint64_t r = round_robin(4, 1, &naive);
    CHECK(r >= 160 * 8 - 16 && r <= 160 * 8 + 16);
}

/* One wavefront alone, a dependent chain of n instructions gap cycles
 * apart, marked (k % 3 == 0 vector ALU, 1 vector memory, 2 LDS) or all
 * vector ALU; the replayed span. */
static uint64_t chain(rft_replay_opts o, uint64_t gap, int n, int marked, uint64_t *naive)
{
    static const uint8_t mark[3] = {0, RFT_WF_VMEM, RFT_WF_LDS};
    rft_stage *s = start(&o, NULL, NULL);
    begin(s, 0, 1);
    for (int k = 0; k < n; k++)
        instr_x(s, gap + gap * (uint64_t)k, 1, k % 2, (k + 1) % 2, marked ? mark[k % 3] : 0,
                RFT_NO_GATE, 0);
    end(s, gap + gap * (uint64_t)n, 1);
    const rft_replay_row *w = total(s);
    *naive = w->naive;
    uint64_t r = w->replayed;
    rft_stage_free(s);
    return r;
}

/* The unit marks (RFT_WF_VMEM, RFT_WF_LDS): --add-latency delays only the
 * results of latency_unit, and --hold holds the SIMD only for a vector ALU
 * instruction.  A marked chain of 30 instructions back to back. */
static uint64_t chain_units(uint32_t L, unsigned unit, int hold)
{
    rft_replay_opts o = opts(L);
    o.latency_unit = unit;
    o.hold = hold;
    uint64_t naive, r = chain(o, 4, 30, 1, &naive);
    CHECK(naive == 4 + 4 * 30);
    return r - naive;
}

static void units(void)
{
    rft_replay_opts d;
    rft_replay_opts_default(&d);
    CHECK(d.latency_unit == RFT_REPLAY_U_ALU);
    for (uint32_t L = 0; L <= 12; L += 4) {
        CHECK(chain_units(L, RFT_REPLAY_U_ALU, 0) == 10 * (uint64_t)L);
        CHECK(chain_units(L, RFT_REPLAY_U_VMEM, 0) == 10 * (uint64_t)L);
        CHECK(chain_units(L, RFT_REPLAY_U_LDS, 0) == 10 * (uint64_t)L);
        CHECK(chain_units(L, RFT_REPLAY_U_ALL, 0) == 30 * (uint64_t)L);
        CHECK(chain_units(L, RFT_REPLAY_U_VMEM | RFT_REPLAY_U_LDS, 0) == 20 * (uint64_t)L);
        /* held: alone, the held SIMD costs nothing more than the latency */
        CHECK(chain_units(L, RFT_REPLAY_U_ALU, 1) == 10 * (uint64_t)L);
    }
    uint64_t naive;
    /* an ALU latency does not touch memory loads, held or not */
    CHECK(round_robin_vmem(8, RFT_REPLAY_U_ALU, &naive) == naive);
    /* a memory latency is hidden by the other wavefronts; --hold does not
     * hold the SIMD for a load: only the last result shows */
    for (uint32_t L = 0; L <= 12; L += 4)
        CHECK(round_robin_vmem(L, RFT_REPLAY_U_VMEM, &naive) == naive + L);
}

/* --hold holds the SIMD for the slice's next vector ALU instruction only:
 * wavefront 0 issues vector ALU instructions at 8k, wavefront 1 independent
 * instructions at 8k + 4, LDS loads (mark RFT_WF_LDS) or vector ALU ones
 * (unmarked).  Held L <= 4 cycles: the ALU instructions 8 apart still fit
 * (4 + L), and an LDS load right after one does not wait for its held
 * cycles; an ALU one does. */
static uint64_t held_next(uint32_t L, uint8_t mark, uint64_t *naive)
{
    rft_replay_opts o = opts(L);
    o.hold = 1;
    rft_stage *s = start(&o, NULL, NULL);
    begin(s, 0, 0);
    begin(s, 0, 1);
    const int n = 40;
    for (int k = 0; k < n; k++) {
        instr_x(s, 8 * (uint64_t)k + 8, 0, -1, 1, 0, RFT_NO_GATE, 0);
        instr_x(s, 8 * (uint64_t)k + 12, 1, -1, 2, mark, RFT_NO_GATE, 0);
    }
    end(s, 8 * (uint64_t)n + 8, 0);
    end(s, 8 * (uint64_t)n + 12, 1);
    const rft_replay_row *t = total(s);
    *naive = t->naive;
    CHECK(t->replayed <= t->upper);
    uint64_t r = t->replayed;
    rft_stage_free(s);
    return r;
}

static void held_alu_only(void)
{
    uint64_t naive;
    for (uint32_t L = 0; L <= 4; L++)
        CHECK(held_next(L, RFT_WF_LDS, &naive) == naive);
    CHECK(held_next(0, 0, &naive) == naive);
    for (uint32_t L = 1; L <= 4; L++)       /* each of the 80 waits L more than the last */
        CHECK(held_next(L, 0, &naive) >= naive + 70 * (uint64_t)L);
}

/* --deps none: no instruction waits for a result (Multi2Sim 4.2's model):
 * one wavefront alone, a dependent chain 8 cycles apart, latency L not held
 * costs nothing; with --deps reg every instruction pays it. */
static uint64_t chain_deps(uint32_t L, int deps, uint64_t *naive)
{
    rft_replay_opts o = opts(L);
    o.deps = deps;
    return chain(o, 8, 20, 0, naive);
}

static void deps_none(void)
{
    rft_replay_opts d;
    rft_replay_opts_default(&d);
    CHECK(d.deps == RFT_REPLAY_DEPS_REG);
    uint64_t naive;
    for (uint32_t L = 0; L <= 12; L += 4) {
        CHECK(chain_deps(L, RFT_REPLAY_DEPS_NONE, &naive) == naive);
        CHECK(chain_deps(L, RFT_REPLAY_DEPS_REG, &naive) == naive + 20 * (uint64_t)L);
    }
}

/* A pseudo-random trace of 6 wavefronts on 2 slices; replayed with L added. */
static uint64_t seed;
static uint32_t rnd(uint32_t n)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(seed >> 33) % n;
}

static void random_trace(uint32_t L, uint64_t *naive, uint64_t *replayed, int check_upper)
{
    rft_replay_opts o = opts(L);
    rft_stage *s = start(&o, NULL, NULL);
    seed = 42;
    uint64_t t = 0, alive = 0;
    uint32_t next = 0;
    for (int step = 0; step < 3000; step++) {
        if (alive < 6 && rnd(8) == 0) {
            begin(s, t, next);
            alive |= 1u << (next % 6);
            next++;
        } else if (alive) {
            uint32_t w;
            do
                w = rnd(6);
            while (!(alive & (1u << w)));
            uint32_t wf = next - 1 - ((next - 1) % 6 + 6 - w) % 6;
            if (rnd(60) == 0) {
                end(s, t, wf);
                alive &= ~(1u << w);
            } else {
                instr(s, t, wf, rnd(3) ? (int)rnd(8) : -1, (int)rnd(8));
            }
        }
        t += rnd(4) ? rnd(5) : 20 + rnd(40);
    }
    CHECK(rft_stage_finish(s, &sink) == 0);
    for (uint32_t i = 0; i < rft_replay_nrows(s); i++) {
        const rft_replay_row *w = rft_replay_get(s, i);
        if (w->scope != RFT_RP_KERNEL && check_upper)
            CHECK(w->replayed <= w->upper);
        if (L == 0)
            CHECK(w->replayed == w->naive);
        if (w->scope == RFT_RP_TOTAL)
            *naive = w->naive, *replayed = w->replayed;
    }
    rft_stage_free(s);
}

static void monotone(void)
{
    uint64_t naive = 0, r = 0, prev = 0;
    for (uint32_t L = 0; L <= 24; L++) {
        random_trace(L, &naive, &r, 1);
        CHECK(L ? r >= prev : r == naive);
        prev = r;
    }
}

/* Scheme events: a wake-up delays the result 10 cycles, a misprediction
 * holds the SIMD 4 cycles. */
static void events(void)
{
    rft_replay_opts o = opts(0);
    rft_stage *s = start(&o, NULL, NULL);
    begin(s, 0, 1);
    instr_x(s, 4, 1, -1, 0, RFT_WF_WAKEUP, 0x800, 0);
    instr(s, 8, 1, 0, 1);
    end(s, 12, 1);
    const rft_replay_row *w = total(s);
    CHECK(w->wakeups == 1 && w->replayed == w->naive + 10 && w->upper == w->replayed);
    rft_stage_free(s);
    /* not gated (on_bits unset): the flag is no event */
    s = start(&o, NULL, NULL);
    begin(s, 0, 1);
    instr_x(s, 4, 1, -1, 0, RFT_WF_WAKEUP, RFT_NO_GATE, 0);
    end(s, 8, 1);
    w = total(s);
    CHECK(w->wakeups == 0 && w->replayed == w->naive);
    rft_stage_free(s);
    /* patched: a mispredicted write stalls, two extra stages by default */
    s = start(&o, "dcpatch", "test");
    CHECK(rft_replay_stages(s) == 2);
    begin(s, 0, 1);
    static uint8_t pb[RFT_PATCH_LEN];
    rft_patch_rec p = {.cycle = 4, .wf = 1, .vreg = 0, .entry = 3, .block = RFT_PATCH_NONE,
                       .place = RFT_PATCH_ENTRY};
    rft_patch_encode(pb, &p);
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_PATCH;
    rec.raw = pb;
    rec.len = RFT_PATCH_LEN;
    CHECK(rft_stage_feed(s, &rec, &sink) == 0);
    instr_x(s, 4, 1, -1, 0, RFT_WF_FIRSTBLOCK, RFT_NO_GATE, RFT_CLS_OTHER);
    instr(s, 8, 1, -1, 1);      /* independent, back to back: waits for the stall */
    end(s, 12, 1);
    w = total(s);
    CHECK(w->mispredictions == 1);
    CHECK(w->replayed == w->naive + 4 + 2);     /* stall, then the last result's stages */
    CHECK(w->upper == w->naive + 4 + 2 * 2);
    rft_stage_free(s);
}

/* Cycles estimated by the decoder: no replay, the upper bound alone. */
static void estimated(void)
{
    rft_replay_opts o = opts(8);
    rft_stage *s = start(&o, "issue_model", "one instruction every 4 cycles, in log order");
    const char *why;
    CHECK(rft_replay_timed(s, &why) == 0 && strstr(why, "log order"));
    begin(s, 0, 1);
    instr(s, 4, 1, -1, 0);
    end(s, 8, 1);
    const rft_replay_row *w = total(s);
    CHECK(w->replayed == 0 && w->naive == 8 && w->upper == 16);
    rft_stage_free(s);
    o.trust = 1;
    s = start(&o, "issue_model", "x");
    CHECK(rft_replay_timed(s, NULL) == 1);
    rft_stage_free(s);
}

/* Bad input: a wavefront that has not begun. */
static void bad(void)
{
    rft_replay_opts o = opts(0);
    rft_stage *s = start(&o, NULL, NULL);
    memset(&rec, 0, sizeof rec);
    rec.kind = RFT_WFEND;
    rec.u.end = (rft_wfend){.cycle = 3, .wf = 9};
    CHECK(rft_stage_feed(s, &rec, &sink) == RFT_EFORMAT);
    CHECK(strstr(rft_stage_error(s), "wavefront 9") != NULL);
    rft_stage_free(s);
}

int main(void)
{
    alone();
    hidden();
    units();
    held_alu_only();
    deps_none();
    monotone();
    events();
    estimated();
    bad();
    puts("test_replay: ok");
    return 0;
}
