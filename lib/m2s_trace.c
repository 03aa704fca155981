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
 * "c clk=N" starts the lines of cycle N; si.new_inst is printed when the
 * fetch stage runs the instruction in the functional emulator, right after
 * that emulator printed it to the ISA log (--si-debug-isa), so the k-th
 * si.new_inst of the trace is the k-th instruction of the log.  Every other
 * line (si.inst stages, si.end_inst, mem.*, the header) is skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "decoders.h"

struct rft_m2s_trace {
    uint64_t clk;
    int have_clk;
    uint64_t insts;
    char why[160];
};

rft_m2s_trace *rft_m2s_trace_new(void) { return calloc(1, sizeof(rft_m2s_trace)); }
void rft_m2s_trace_free(rft_m2s_trace *t) { free(t); }
const char *rft_m2s_trace_why(const rft_m2s_trace *t) { return t->why; }
uint64_t rft_m2s_trace_insts(const rft_m2s_trace *t) { return t->insts; }

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
        while (j < n && s[j] >= '0' && s[j] <= '9' && j < 25)
            c = c * 10 + (uint64_t)(s[j++] - '0');
        if (j == 6 || j != n || (t->have_clk && c < t->clk)) {
            snprintf(t->why, sizeof t->why, "'%.*s' is not a cycle after %llu",
                     (int)(n > 40 ? 40 : n), s, (unsigned long long)t->clk);
            return RFT_EFORMAT;
        }
        t->clk = c;
        t->have_clk = 1;
        return 0;
    }
    if (!starts(s, n, "si.new_inst "))
        return 0;
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
    out->cu = (uint16_t)v[0];
    out->simd = (uint16_t)v[1];
    out->wg = (uint32_t)v[2];
    out->wf = (uint32_t)v[3];
    t->insts++;
    return 1;
}
