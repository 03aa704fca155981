/* m2scfg.c - Multi2Sim 4.2 Southern Islands configuration (m2scfg.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "m2scfg.h"

void rft_m2scfg_default(rft_m2scfg *c)
{
    *c = (rft_m2scfg){.frequency = 925, .num_cu = 32, .num_pools = 4, .max_wg_per_pool = 10,
                      .max_wf_per_pool = 10, .rew_latency = 8, .rew_buffer = 1,
                      .vm_write_latency = 1, .vm_write_buffer = 1, .lds_write_latency = 1,
                      .lds_write_buffer = 1};
}

typedef struct { const char *sec, *key; size_t off; uint32_t min; } cfgkey;
#define F(f) offsetof(rft_m2scfg, f)
static const cfgkey keys[] = {
    {"Device", "Frequency", F(frequency), 1}, {"Device", "NumComputeUnits", F(num_cu), 1},
    {"ComputeUnit", "NumWavefrontPools", F(num_pools), 1},
    {"ComputeUnit", "MaxWorkGroupsPerWavefrontPool", F(max_wg_per_pool), 1},
    {"ComputeUnit", "MaxWavefrontsPerWavefrontPool", F(max_wf_per_pool), 1},
    {"SIMDUnit", "ReadExecWriteLatency", F(rew_latency), 1},
    {"SIMDUnit", "ReadExecWriteBufferSize", F(rew_buffer), 1},
    {"VectorMemUnit", "WriteLatency", F(vm_write_latency), 1},
    {"VectorMemUnit", "WriteBufferSize", F(vm_write_buffer), 1},
    {"LDSUnit", "WriteLatency", F(lds_write_latency), 1},
    {"LDSUnit", "WriteBufferSize", F(lds_write_buffer), 1},
};
/* The other keys of each section, 4.2's as its gpu.c reads them (the
 * model does not use them: their values are kept, rft_m2scfg.other); 4.2
 * refuses any other, and so do we.  The units' lists differ: the scalar
 * unit's latency is ALULatency, the branch unit's ExecLatency, the memory
 * units have MaxInflightMem. */
#define UNIT_STAGES "Width", "IssueBufferSize", "DecodeLatency", "DecodeBufferSize"
static const char *const other_dev[] = {NULL};
static const char *const other_cu[] = {"NumVectorRegisters", "NumScalarRegisters", NULL};
static const char *const other_fe[] = {"FetchLatency", "FetchWidth", "FetchBufferSize",
    "IssueLatency", "IssueWidth", "MaxInstIssuedPerType", NULL};
static const char *const other_simd[] = {UNIT_STAGES, "NumSIMDLanes", NULL};
static const char *const other_scalar[] = {UNIT_STAGES, "ReadLatency", "ReadBufferSize",
    "ALULatency", "ExecBufferSize", "WriteLatency", "WriteBufferSize", NULL};
static const char *const other_branch[] = {UNIT_STAGES, "ReadLatency", "ReadBufferSize",
    "ExecLatency", "ExecBufferSize", "WriteLatency", "WriteBufferSize", NULL};
static const char *const other_mem[] = {UNIT_STAGES, "ReadLatency", "ReadBufferSize",
    "MaxInflightMem", NULL};
static const char *const other_lds[] = {"Size", "AllocSize", "BlockSize", "Latency", "Ports", NULL};
static const char *const other_report[] = {"Interval", "File", NULL};     /* 4.2's spatial report */
static const struct { const char *sec; const char *const *keys; } sections[] = {
    {"Device", other_dev}, {"ComputeUnit", other_cu}, {"FrontEnd", other_fe},
    {"SIMDUnit", other_simd}, {"ScalarUnit", other_scalar}, {"BranchUnit", other_branch},
    {"LDSUnit", other_mem}, {"VectorMemUnit", other_mem}, {"LocalDataShare", other_lds},
    {"SISpatialReport", other_report},
};

const char *rft_m2scfg_other(unsigned i, const char **sec)
{
    for (size_t j = 0; j < sizeof sections / sizeof *sections; j++)
        for (const char *const *k = sections[j].keys; *k; k++)
            if (i-- == 0) {
                *sec = sections[j].sec;
                return *k;
            }
    return NULL;
}

/* FNV-1a of a value's text that is not a number, never 0 (0: not set) */
static uint32_t value_hash(const char *v)
{
    uint32_t h = 2166136261u;
    for (; *v; v++)
        h = (h ^ (unsigned char)*v) * 16777619u;
    return h ? h : 1;
}

static void trim(char **b, char **e)
{
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

int rft_m2scfg_parse(rft_m2scfg *c, const char *text, size_t len, char *why, size_t whylen)
{
    char sec[64] = "";
    int known_sec = 0;
    unsigned line = 0;
    for (const char *p = text, *end = text + len; p < end; ) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        char buf[RFT_M2SCFG_LINE];
        size_t n = (size_t)(le - p);
        line++;
        if (n >= sizeof buf) {
            snprintf(why, whylen, "line %u: longer than %zu bytes", line, sizeof buf - 1);
            return -1;
        }
        memcpy(buf, p, n);
        buf[n] = 0;
        p = nl ? nl + 1 : end;
        char *b = buf, *e = buf + n;
        char *cm = strpbrk(b, ";#");
        if (cm)
            e = cm;
        trim(&b, &e);
        if (b == e)
            continue;
        *e = 0;
        if (*b == '[') {
            if (e[-1] != ']') {
                snprintf(why, whylen, "line %u: bad section line", line);
                return -1;
            }
            char *sb = b + 1, *se = e - 1;
            trim(&sb, &se);
            if ((size_t)(se - sb) >= sizeof sec) {    /* no section is so long: never cut it */
                snprintf(why, whylen, "line %u: unknown section (a name of %zu characters)", line,
                         (size_t)(se - sb));
                return -1;
            }
            snprintf(sec, sizeof sec, "%.*s", (int)(se - sb), sb);
            known_sec = 0;
            for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
                if (strcasecmp(sections[i].sec, sec) == 0)
                    known_sec = 1;
            if (!known_sec) {
                snprintf(why, whylen, "line %u: unknown section [ %s ]", line, sec);
                return -1;
            }
            continue;
        }
        char *eq = strchr(b, '=');
        if (!eq || !sec[0]) {
            snprintf(why, whylen, "line %u: %s", line, sec[0] ? "no '=' in the line" : "a key before any section");
            return -1;
        }
        char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
        trim(&kb, &ke);
        trim(&vb, &ve);
        *ke = 0;
        *ve = 0;
        char *vend;
        unsigned long v = strtoul(vb, &vend, 10);
        int isnum = *vb && isdigit((unsigned char)*vb) && *vend == 0 && v <= 1000000000ul;
        int found = 0;
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
            if (strcasecmp(keys[i].sec, sec) == 0 && strcasecmp(keys[i].key, kb) == 0) {
                found = 1;
                if (!isnum || v < keys[i].min) {
                    snprintf(why, whylen, "line %u: [ %s ] %s: bad value '%s'", line, sec, kb, vb);
                    return -1;
                }
                *(uint32_t *)((char *)c + keys[i].off) = (uint32_t)v;
            }
        unsigned o = 0;     /* the key's index among the others (rft_m2scfg_other) */
        for (size_t i = 0; !found && i < sizeof sections / sizeof *sections; i++)
            for (const char *const *k = sections[i].keys; !found && *k; k++, o++)
                if (strcasecmp(sections[i].sec, sec) == 0 && strcasecmp(*k, kb) == 0) {
                    found = 1;
                    if (o < RFT_M2SCFG_OTHERS)  /* every one (test_cfg) */
                        c->other[o] = isnum ? 1 + (uint32_t)v : value_hash(vb);
                }
        if (!found) {
            snprintf(why, whylen, "line %u: unknown key %s in [ %s ]", line, kb, sec);
            return -1;
        }
    }
    return 0;
}

/* 4.2's memory system and network run at 1000 MHz by default */
#define M2S_OTHER_MHZ 1000u

void rft_m2scfg_clocks(const rft_m2scfg *c, uint32_t mhz[2])
{
    mhz[0] = c->frequency;
    mhz[1] = c->frequency > M2S_OTHER_MHZ ? c->frequency : M2S_OTHER_MHZ;
}
