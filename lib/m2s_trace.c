/* m2s_trace.c - the pipeline trace of Multi2Sim's Southern Islands detailed
 * model (`m2s --si-sim detailed --trace FILE`, decompressed): the cycle,
 * compute unit, wavefront pool (SIMD) and wavefront of every instruction.
 *
 * The lines this reads, as Multi2Sim 4.2 and 5.0 print them (lib/esim/trace.c,
 * arch/southern-islands/timing/compute-unit.c):
 *
 *    c clk=N
 *    si.map_wg cu=C wg=G wi_first=I wi_count=N wf_first=W wf_count=M
 *    si.new_inst id=U cu=C ib=P wg=G wf=W uop_id=K stg="f" asm="v_add_i32 v1, ..."
 *
 * "c clk=N" starts the lines of cycle N of esim's fastest clock (1000 MHz with
 * 4.2's defaults; rft_m2s_trace_clock turns it into the GPU's); si.new_inst is printed when the
 * fetch stage runs the instruction in the functional emulator, right after
 * that emulator printed it to the ISA log (--si-debug-isa), so the k-th
 * si.new_inst of the trace is the k-th instruction of the log.  Every other
 * line (si.inst stages, si.end_inst, mem.*, the header) is skipped, except,
 * with execute stamping, the si.inst lines of the execute stages, of a
 * vector memory access's write stage and the si.end_inst lines.
 */
#include <stdlib.h>
#include <string.h>

#include "decoders.h"

/* an instruction fetched and waiting for its execute stage (execute stamping) */
typedef struct pend {
    rft_m2s_inst in;
    uint64_t id;
    int done, executed, endpgm;    /* endpgm: stamped at its si.end_inst */
    int mem;                    /* a vector memory access: done at its mem-w line */
    int scal;                   /* a scalar unit's instruction: done at its su-w line
                                   (a non-memory one's wait there, rft_m2s_inst.hold;
                                   a load's write, rft_m2s_inst.rel) */
    /* the pending fetches of one key (by_id) are chained in fetch order by
     * their sequence numbers (NONE: the last); the first holds the last's */
    uint64_t next, tail;
} pend;
#define NONE UINT64_MAX

struct rft_m2s_trace {
    uint64_t clk, raw;          /* the cycle (the GPU's clock), the trace's clock */
    int have_clk;
    uint64_t gpu_ps, trace_ps;  /* cycle times (0: the trace's clock is the GPU's) */
    int at_exec;
    uint64_t insts, fetch_kept, end_kept, mem_kept, max_wait;
    pend *q;                    /* ring, fetch order */
    size_t head, n, cap, bound;
    uint64_t head_seq;          /* the sequence number of q[head] (fetches count from 0) */
    rft_map by_id;              /* key of (id, cu) -> sequence number of its first pending */
    int map_ok;
    char why[160];
};

rft_m2s_trace *rft_m2s_trace_new(void) { return calloc(1, sizeof(rft_m2s_trace)); }
void rft_m2s_trace_free(rft_m2s_trace *t)
{
    if (t) {
        free(t->q);
        if (t->map_ok)
            rft_map_free(&t->by_id);
    }
    free(t);
}
const char *rft_m2s_trace_why(const rft_m2s_trace *t) { return t->why; }
uint64_t rft_m2s_trace_insts(const rft_m2s_trace *t) { return t->insts; }
void rft_m2s_trace_at_exec(rft_m2s_trace *t, size_t bound)
{
    t->at_exec = 1;
    t->bound = bound ? bound : 65536;
}
void rft_m2s_trace_clock(rft_m2s_trace *t, uint32_t gpu_mhz, uint32_t trace_mhz)
{
    /* esim's cycle times: 10^6 / MHz picoseconds, truncated */
    t->gpu_ps = gpu_mhz && trace_mhz && gpu_mhz != trace_mhz ? 1000000u / gpu_mhz : 0;
    t->trace_ps = t->gpu_ps ? 1000000u / trace_mhz : 0;
}

/* Cycle c of the trace's clock as a cycle of the GPU's: esim prints
 * time / trace_ps + 1, and the GPU's domain ticks at the multiples of
 * gpu_ps, one at most per trace cycle when gpu_ps >= trace_ps. */
static uint64_t gpu_cycle(const rft_m2s_trace *t, uint64_t c)
{
    if (!t->gpu_ps || c == 0)
        return c;
    uint64_t ps = (c - 1) * t->trace_ps;
    return (ps + t->gpu_ps - 1) / t->gpu_ps + 1;
}

uint64_t rft_m2s_trace_fetch_kept(const rft_m2s_trace *t) { return t->fetch_kept; }
uint64_t rft_m2s_trace_end_kept(const rft_m2s_trace *t) { return t->end_kept; }
uint64_t rft_m2s_trace_mem_kept(const rft_m2s_trace *t) { return t->mem_kept; }
uint64_t rft_m2s_trace_max_wait(const rft_m2s_trace *t) { return t->max_wait; }

/* The execute stage of each unit, as 4.2 prints it: vector ALU (simd-e),
 * vector memory (its memory stage, mem-m), the LDS (its write stage, lds-w:
 * the access done, lds-unit.c sets the wavefront ready there, so that the
 * record is the LDS's completion and a wavefront's wait in the LDS's queue
 * lies before it, rft-replay's LDS unit), scalar ALU and scalar memory (su-e,
 * su-m), branch (bu-e); and vector memory's write stage (mem-w, where its
 * write buffer takes a completed access: its done mark, rft(5)); and the LDS
 * unit's decode stage (lds-d: an LDS access's arrival, its arrive mark); and
 * the scalar unit's write stage (su-w) and a stall line ("s", the first after
 * a scalar instruction's su-e: its wait to be written), the scalar marks. */
enum { ST_EXEC = 1, ST_MEM, ST_MEMW, ST_LDSD,   /* an execute stage, vector memory's, its
                                                   write stage, the LDS unit's decode stage */
       ST_SU, ST_SUM, ST_SUW, ST_STALL };       /* the scalar unit's execute, memory and write
                                                   stages; a stall ("s", any unit's) */
static int exec_stage(const char *s, size_t n)
{
    static const struct { const char *name; int kind; } stg[] = {
        {" stg=\"simd-e\"", ST_EXEC}, {" stg=\"mem-m\"", ST_MEM}, {" stg=\"lds-w\"", ST_EXEC},
        {" stg=\"su-e\"", ST_SU},     {" stg=\"su-m\"", ST_SUM},  {" stg=\"bu-e\"", ST_EXEC},
        {" stg=\"mem-w\"", ST_MEMW}, {" stg=\"lds-d\"", ST_LDSD}, {" stg=\"su-w\"", ST_SUW},
        {" stg=\"s\"", ST_STALL}};
    for (size_t k = 0; k < sizeof stg / sizeof *stg; k++) {
        size_t l = strlen(stg[k].name);
        if (n >= l && memcmp(s + n - l, stg[k].name, l) == 0)
            return stg[k].kind;
    }
    return 0;
}

/* ---- the pending fetches by (id, cu): each execute line finds its fetch in
 * constant time (a search of the whole ring took 25 minutes on a 135 KB
 * trace, issue 31).  Only fetches not done are chained. */
static uint64_t id_key(uint64_t id, uint64_t cu)
{
    uint64_t k = id ^ (cu * 0x9e3779b97f4a7c15ull);
    return k == UINT64_MAX ? k - 1 : k;    /* UINT64_MAX: rft_map's empty slot */
}

static pend *at_seq(rft_m2s_trace *t, uint64_t seq)
{
    return &t->q[(t->head + (size_t)(seq - t->head_seq)) % t->cap];
}

/* Take pending seq (prev: the one before it in its chain, NONE if first)
 * out of its chain. */
static void unchain(rft_m2s_trace *t, uint64_t key, uint64_t prev, uint64_t seq)
{
    pend *p = at_seq(t, seq);
    if (prev == NONE) {
        if (p->next == NONE) {
            rft_map_del(&t->by_id, key);
        } else {
            at_seq(t, p->next)->tail = p->tail;
            *rft_map_get(&t->by_id, key) = p->next;
        }
        return;
    }
    pend *q = at_seq(t, prev);
    q->next = p->next;
    if (p->next == NONE) {      /* it was the last: the first's tail */
        pend *first = at_seq(t, *rft_map_get(&t->by_id, key));
        first->tail = prev;
    }
}

/* The first pending fetch of (id, cu) not done, or NONE; *prev as unchain takes it. */
static uint64_t find_pending(rft_m2s_trace *t, uint64_t id, uint64_t cu, uint64_t *prev)
{
    uint64_t *v = t->map_ok ? rft_map_get(&t->by_id, id_key(id, cu)) : NULL;
    *prev = NONE;
    for (uint64_t s = v ? *v : NONE; s != NONE; *prev = s, s = at_seq(t, s)->next) {
        pend *p = at_seq(t, s);
        if (p->id == id && p->in.cu == cu)
            return s;
    }
    return NONE;
}

int rft_m2s_trace_pop(rft_m2s_trace *t, int at_end, rft_m2s_inst *out)
{
    if (t->n == 0 || (!t->q[t->head].done && !at_end))
        return 0;
    pend *p = &t->q[t->head];
    if (!p->done) {
        if (p->mem)
            t->mem_kept++;      /* an access the trace ends before completing */
        else if (p->executed)
            t->end_kept++;      /* an s_endpgm the trace ends before completing */
        else
            t->fetch_kept++;
        uint64_t prev, s = find_pending(t, p->id, p->in.cu, &prev);
        if (s == t->head_seq)   /* the first not done of its key: the head of its chain */
            unchain(t, id_key(p->id, p->in.cu), prev, s);
    }
    *out = p->in;
    t->head = (t->head + 1) % t->cap;
    t->head_seq++;
    t->n--;
    return 1;
}

static int starts(const char *s, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    return n >= l && memcmp(s, lit, l) == 0;
}

/* the decimal after " key=" in s[0..n), at most max */
static int field(rft_m2s_trace *t, const char *s, size_t n, const char *key, uint64_t max,
                 uint64_t *v)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl + 2 <= n; i++) {
        if (s[i] != ' ' || memcmp(s + i + 1, key, kl) != 0 || s[i + 1 + kl] != '=')
            continue;
        size_t a = i + kl + 2, j = a;
        uint64_t x = 0;
        while (j < n && s[j] >= '0' && s[j] <= '9' && j - a < 19)
            x = x * 10 + (uint64_t)(s[j++] - '0');
        if (j == a || (j < n && s[j] != ' ') || x > max)
            break;
        *v = x;
        return 0;
    }
    snprintf(t->why, sizeof t->why, "'%.*s' has no %s=N (N at most %llu)", (int)(n > 40 ? 40 : n),
             s, key, (unsigned long long)max);
    return RFT_EFORMAT;
}

int rft_m2s_trace_line(rft_m2s_trace *t, const char *s, size_t n, rft_m2s_inst *out)
{
    uint64_t v[5];
    if (starts(s, n, "c clk=")) {
        uint64_t c = 0;
        size_t j = 6;
        int wide = 0;   /* past 2^64 - 1: refused, never wrapped */
        for (; j < n && s[j] >= '0' && s[j] <= '9'; j++) {
            uint64_t d = (uint64_t)(s[j] - '0');
            wide |= c > (UINT64_MAX - d) / 10;
            c = c * 10 + d;
        }
        if (j == 6 || j != n || wide || (t->have_clk && c < t->raw)) {
            snprintf(t->why, sizeof t->why, "'%.*s' is not a cycle after %llu",
                     (int)(n > 40 ? 40 : n), s, (unsigned long long)t->raw);
            return RFT_EFORMAT;
        }
        if (t->gpu_ps && c > 1 && c - 1 > (UINT64_MAX - t->gpu_ps) / t->trace_ps) {
            snprintf(t->why, sizeof t->why, "cycle %llu of the trace's clock is past what "
                     "--cycles-mhz turns into the GPU's (2^64 picoseconds)", (unsigned long long)c);
            return RFT_EFORMAT;
        }
        t->raw = c;
        t->clk = gpu_cycle(t, c);
        t->have_clk = 1;
        return 0;
    }
    if (t->at_exec && (starts(s, n, "si.inst ") || starts(s, n, "si.end_inst "))) {
        int ex = s[3] == 'i' ? exec_stage(s, n) : 0;
        if (!ex && s[3] == 'i')
            return 0;
        if (field(t, s, n, "id", UINT64_MAX / 10, &v[0]) || field(t, s, n, "cu", 65535, &v[1]))
            return RFT_EFORMAT;
        uint64_t prev, sq = find_pending(t, v[0], v[1], &prev);
        if (sq != NONE) {
            pend *p = at_seq(t, sq);
            if (ex == ST_LDSD) {        /* an LDS access arrived at its unit (first line) */
                if (!p->in.arrived)
                    p->in.arrived = t->clk;
                return 0;
            }
            if (ex == ST_STALL) {       /* a scalar instruction's first cycle held after su-e */
                if (p->scal && p->executed && !p->in.smem && !p->in.hold)
                    p->in.hold = t->clk;
                return 0;
            }
            if (ex == ST_SUW) {         /* its write stage: done */
                if (!p->scal || !p->executed)
                    return 0;
                if (p->in.smem || p->in.hold)   /* a load's write; a wait's end */
                    p->in.rel = t->clk;
            } else
            /* s_endpgm is at its completion: 4.2's scalar unit holds it until
             * its wavefront's memory accesses are done (scalar-unit.c), and
             * its work-group frees its slot then (rft(5): the end waited for
             * its last results) */
            if (ex == ST_MEMW) {        /* a vector memory access completed: done */
                if (!p->mem)
                    return 0;
                p->in.done = t->clk;
            } else if (ex) {
                p->in.cycle = t->clk;
                p->executed = 1;
                p->mem = ex == ST_MEM;  /* its completion to come (rft(5): done) */
                p->in.smem = ex == ST_SUM;
                p->scal = (ex == ST_SU || ex == ST_SUM) && !p->endpgm;  /* its write to come */
                if (p->endpgm || p->mem || p->scal)
                    return 0;
            } else if (p->endpgm && p->executed) {
                p->in.cycle = t->clk;
            }
            p->done = 1;        /* si.end_inst without an execute stage: fetch kept */
            if (!p->executed)
                t->fetch_kept++;
            else if (p->mem && !p->in.done)
                t->mem_kept++;  /* ended with no mem-w stage: no done mark */
            uint64_t k = sq - t->head_seq;
            if (k + 1 > t->max_wait)
                t->max_wait = k + 1;
            unchain(t, id_key(v[0], v[1]), prev, sq);
        }
        return 0;
    }
    if (!starts(s, n, "si.new_inst "))
        return 0;
    if (t->at_exec && field(t, s, n, "id", UINT64_MAX / 10, &v[4]))
        return RFT_EFORMAT;
    if (field(t, s, n, "cu", 65535, &v[0]) || field(t, s, n, "ib", 65535, &v[1]) ||
        field(t, s, n, "wg", 0xffffffffu, &v[2]) || field(t, s, n, "wf", 0xffffffffu, &v[3]))
        return RFT_EFORMAT;
    const char *a = NULL;
    for (size_t i = 0; i + 6 <= n; i++)
        if (memcmp(s + i, " asm=\"", 6) == 0) {
            a = s + i + 6;
            break;
        }
    size_t k = 0;
    if (a)
        while (a < s + n && *a == ' ')
            a++;
    if (a)
        while (a + k < s + n && a[k] != ' ' && a[k] != '"' && k + 1 < sizeof out->mnem)
            k++;
    if (!a || k == 0) {
        snprintf(t->why, sizeof t->why, "si.new_inst without asm=\"...\"");
        return RFT_EFORMAT;
    }
    memcpy(out->mnem, a, k);
    out->mnem[k] = 0;
    out->cycle = t->clk;
    out->done = out->arrived = out->hold = out->rel = 0;
    out->smem = 0;
    out->cu = (uint16_t)v[0];
    out->simd = (uint16_t)v[1];
    out->wg = (uint32_t)v[2];
    out->wf = (uint32_t)v[3];
    t->insts++;
    if (!t->at_exec)
        return 1;
    if (t->n == t->bound) {
        snprintf(t->why, sizeof t->why, "more than %zu instructions fetched and not yet executed "
                 "(raise --reorder)", t->bound);
        return RFT_EFORMAT;
    }
    if (t->n == t->cap) {   /* grow the ring, keeping fetch order */
        size_t cap = t->cap ? 2 * t->cap : 256;
        pend *q = malloc(cap * sizeof *q);
        if (!q) {
            snprintf(t->why, sizeof t->why, "out of memory");
            return RFT_EFORMAT;
        }
        for (size_t x = 0; x < t->n; x++)
            q[x] = t->q[(t->head + x) % t->cap];
        free(t->q);
        t->q = q;
        t->head = 0;
        t->cap = cap;
    }
    if (!t->map_ok) {
        if (rft_map_init(&t->by_id, 256)) {
            snprintf(t->why, sizeof t->why, "out of memory");
            return RFT_EFORMAT;
        }
        t->map_ok = 1;
    }
    uint64_t seq = t->head_seq + t->n, key = id_key(v[4], v[0]);
    uint64_t *first = rft_map_get(&t->by_id, key);
    if (!first && rft_map_put(&t->by_id, key, seq)) {
        snprintf(t->why, sizeof t->why, "out of memory");
        return RFT_EFORMAT;
    }
    pend *p = &t->q[(t->head + t->n++) % t->cap];
    p->in = *out;
    p->id = v[4];
    p->done = p->executed = p->mem = p->scal = 0;
    p->endpgm = strcmp(out->mnem, "s_endpgm") == 0;
    p->next = NONE;
    p->tail = seq;
    if (first) {                /* after the last of its key */
        pend *f = at_seq(t, *first);
        at_seq(t, f->tail)->next = seq;
        f->tail = seq;
    }
    return 0;
}
