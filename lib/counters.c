/* counters.c - the counters record: named u64 event counts of one stage for
 * one scope, which rft-merge adds and rft-energy prices. */
#include <stdlib.h>
#include <string.h>

#include "endian.h"
#include "rft.h"

int rft_counters_add(rft_counters *c, const char *name, uint64_t v)
{
    for (int i = 0; i < c->n; i++)
        if (c->name[i][0] == name[0] && strcmp(c->name[i], name) == 0) {
            c->value[i] += v;
            return 0;
        }
    if (c->n == RFT_MAX_COUNTERS || strlen(name) >= sizeof c->name[0])
        return RFT_EFORMAT;
    snprintf(c->name[c->n], sizeof c->name[0], "%s", name);
    c->value[c->n++] = v;
    return 0;
}

void rft_counters_set(rft_counters *c, const char *stage, const char *scope,
                      const char *const *names, const uint64_t *v, int n)
{
    memset(c, 0, sizeof *c);
    snprintf(c->stage, sizeof c->stage, "%s", stage);
    snprintf(c->scope, sizeof c->scope, "%s", scope);
    for (int i = 0; i < n; i++)
        rft_counters_add(c, names[i], v[i]);
}

int rft_counters_merge(rft_counters *c, const char *name, uint64_t v)
{
    if (!strstr(name, "_peak"))
        return rft_counters_add(c, name, v);
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0) {
            if (v > c->value[i])
                c->value[i] = v;
            return 0;
        }
    return rft_counters_add(c, name, v);
}

uint64_t rft_counters_get(const rft_counters *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0)
            return c->value[i];
    return 0;
}

int rft_write_counters(rft_writer *w, const rft_counters *c)
{
    uint8_t *buf = malloc(RFT_COUNTERS_MAX);     /* rare and large: not on the stack */
    if (!buf)
        return RFT_EMEM;
    int e = rft_write_raw(w, RFT_COUNTERS, buf, rft_counters_encode(c, buf));
    free(buf);
    return e;
}

static int get_s(const uint8_t **p, const uint8_t *end, char *out, size_t cap)
{
    if (end - *p < 2)
        return -1;
    size_t n = ld16(*p);
    /* too long for out, or with a NUL byte that would cut it: malformed */
    if (n >= cap || (size_t)(end - *p - 2) < n || memchr(*p + 2, 0, n))
        return -1;
    memcpy(out, *p + 2, n);
    out[n] = 0;
    *p += 2 + n;
    return 0;
}

int rft_counters_parse(const uint8_t *p, uint32_t len, rft_counters *c)
{
    const uint8_t *end = p + len;
    if (get_s(&p, end, c->stage, sizeof c->stage) || get_s(&p, end, c->scope, sizeof c->scope) ||
        end - p < 2)
        return RFT_EFORMAT;
    c->n = ld16(p);
    p += 2;
    if (c->n > RFT_MAX_COUNTERS)
        return RFT_EFORMAT;
    for (int i = 0; i < c->n; i++) {
        if (get_s(&p, end, c->name[i], sizeof c->name[i]) || end - p < 8)
            return RFT_EFORMAT;
        c->value[i] = ld64(p);
        p += 8;
    }
    return p == end ? 0 : RFT_EFORMAT;
}
