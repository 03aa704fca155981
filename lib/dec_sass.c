/* dec_sass.c - NVIDIA SASS text as NVBit tools print it (dec_nvbit.c,
 * dec_cutracer.c): the opcode, the predicate guard, the general-register
 * operands in order and the registers an instruction writes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dec_int.h"

static int isdig(int c) { return c >= '0' && c <= '9'; }

static int num(const char *s, size_t n, size_t *i, uint64_t *v)
{
    size_t a = *i;
    while (*i < n && isdig(s[*i]))
        (*i)++;
    return dec_u64(s + a, *i - a, v);
}

/* a general register operand: optional -, !, ~, | then R<n> or RZ, then .suffix */
static int reg_operand(const char *s, size_t n, uint32_t *r)
{
    size_t i = 0;
    while (i < n && (s[i] == '-' || s[i] == '!' || s[i] == '~' || s[i] == '|'))
        i++;
    if (i + 1 >= n || s[i] != 'R')
        return 0;
    if (s[i + 1] == 'Z' && (i + 2 == n || s[i + 2] == '.' || s[i + 2] == '|')) {
        *r = DEC_SASS_RZ;
        return 1;
    }
    size_t j = i + 1;
    uint64_t v;
    if (num(s, n, &j, &v) || v >= DEC_SASS_RZ || (j < n && s[j] != '.' && s[j] != '|'))
        return 0;
    *r = (uint32_t)v;
    return 1;
}

int dec_sass_parse(rft_dec *d, const char *s, size_t n, dec_sass *x)
{
    size_t i = 0;
    memset(x, 0, sizeof *x);
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && s[i] == '@') {
        size_t a = i;
        while (i < n && s[i] != ' ')
            i++;
        x->pred = !(i - a == 3 && memcmp(s + a, "@PT", 3) == 0);
        while (i < n && s[i] == ' ')
            i++;
    }
    size_t a = i;
    while (i < n && s[i] != ' ' && s[i] != ';')
        i++;
    if (i == a || i - a >= sizeof x->op)
        return dec_bad(d, "bad instruction '%.*s'", DEC_TOK(s, n));
    memcpy(x->op, s + a, i - a);
    x->op[i - a] = 0;
    size_t end = n;
    while (end > i && (s[end - 1] == ' ' || s[end - 1] == ';'))
        end--;
    int k = 0;
    size_t at = i, o, len;
    while (dec_operand(s, &at, end, &o, &len)) {
        size_t p = o, q = o + len;
        while (p < q && s[p] == ' ')
            p++;
        while (q > p && s[q - 1] == ' ')
            q--;
        if (p == q)
            continue;
        uint32_t r;
        if (x->nall == DEC_SASS_MAXR && (reg_operand(s + p, q - p, &r) || memchr(s + p, '[', q - p)))
            return dec_bad(d, "instruction names more than %d registers", DEC_SASS_MAXR);
        for (size_t b = p; b + 2 < q; b++)      /* a memory operand's address register */
            if (s[b] == '[' && s[b + 1] == 'R' && isdig(s[b + 2])) {
                size_t e = b + 2;
                uint64_t v;
                if (!num(s, q, &e, &v) && v < DEC_SASS_RZ)
                    x->all[x->nall++] = (uint32_t)v;
                break;
            }
        if (reg_operand(s + p, q - p, &r)) {
            x->all[x->nall++] = r;
            x->reg[x->nreg++] = r;
            x->nreg_norz += r != DEC_SASS_RZ;
            if (k == 0)
                x->first_is_reg = 1;
            if (k == 1)
                x->second_is_reg = 1;
        } else if (k == 0 && s[p] == 'P' && q - p == 2 && (s[p + 1] == 'T' || isdig(s[p + 1]))) {
            x->first_is_pred = 1;
        } else if (k == 0 && q - p >= 3 && s[p] == 'U' && s[p + 1] == 'R' && isdig(s[p + 2])) {
            x->first_is_ureg = 1;
        }
        k++;
    }
    return 0;
}

/* registers the instruction writes: its first operand when that is a register
 * (the second after a predicate for SHFL), more for .64/.128/WIDE */
int dec_sass_dests(const dec_sass *x, uint32_t *first, int *count)
{
    static const char *const nodst[] = {"ST", "STG", "STS", "STL", "RED", "BRA", "EXIT", "BAR",
                                        "RET", "CALL", "JMP", "BSYNC", "BSSY", "WARPSYNC", NULL};
    char base[32];
    snprintf(base, sizeof base, "%s", x->op);
    char *dot = strchr(base, '.');
    if (dot)
        *dot = 0;
    for (int i = 0; nodst[i]; i++)
        if (strcmp(base, nodst[i]) == 0)
            return 0;
    int idx = -1;
    if (x->first_is_reg)
        idx = 0;
    else if (x->first_is_pred && x->second_is_reg && strcmp(base, "SHFL") == 0)
        idx = 0;   /* the predicate is not a register operand: R is the first of reg[] */
    if (idx < 0 || x->nreg == 0 || x->reg[0] == DEC_SASS_RZ)
        return 0;
    *first = x->reg[0];
    *count = strstr(x->op, ".128") ? 4 : (strstr(x->op, ".64") || strstr(x->op, ".WIDE")) ? 2 : 1;
    return 1;
}

