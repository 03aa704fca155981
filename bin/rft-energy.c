/* rft-energy - energy and first-order performance cost of register-file
 * schemes: seed 001 (Conv, Smooth, DC-Patch) from rft-dcpatch's counters,
 * seed 002 (baseline, WC, ARGO, RC+RAR, ...) from rft-gate's counters and
 * the powered cells of each stream.  Pricing is lib/energy.c. */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "energy.h"
#include "params.h"
#include "rft.h"

static const char usage[] =
    "usage: rft-energy [--params FILE] [--set KEY=VALUE]... [--scenario NAME] [--absolute]\n"
    "                  [--format table|tsv|csv|json] [LABEL=]FILE...\n"
    "       rft-energy --show-params [--params FILE] [--set KEY=VALUE]... [--format F] [FILE]\n"
    "Energy and first-order performance cost of register-file schemes from rft\n"
    "streams (rft(5)) counted by rft-dcpatch(1) or rft-gate(1).\n";

typedef struct {
    const char *path, *label;   /* label given as LABEL=FILE, or NULL */
    char *name;                 /* the row's name */
    /* header values of the stream ("" when absent); scenario: the first
     * word of the fault maps' source */
    char *gate, *alloc, *scenario, *clock;
    int gate_scheme;            /* RFT_GATE_* from the header */
    int ndcp, ngate;            /* total-scope counters records seen */
    rft_counters *dcp, *gtc;
    uint64_t reads, writes, first, last;
    int any, gating;            /* records seen; on_bits or gated windows seen */
    uint32_t nslices, ncus;
    double pcc;
    uint64_t alloc_wakeups;
    rft_geom geom;
} input;

static struct {
    input *in;
    int n;
    const char *params_path;
    rft_params ps;
    rft_eparams e;
    const char *scenario;
    int absolute, show, clock_assumed;
    enum cli_fmt fmt;
    const char *self;              /* the program's directory, or "" */
} g = {.fmt = FMT_TABLE};

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p)
        die("out of memory");
    return p;
}

/* ---- parameter files ---------------------------------------------------------- */
/* NAME or NAME.conf in $RFT_PARAMS_DIR, in the program's tree (bin/../params)
 * or where an install puts them (bin/../share/rftrace/params). */
static const char *find_params(const char *name)
{
    if (strchr(name, '/') || access(name, R_OK) == 0)
        return name;
    char *dirs[3];
    int nd = 0;
    const char *env = getenv("RFT_PARAMS_DIR");
    if (env && *env)
        dirs[nd++] = xasprintf("%s", env);
    if (g.self[0]) {   /* the directory above the program's */
        const char *up = strrchr(g.self, '/');
        int n = up ? (int)(up - g.self) : 0;
        dirs[nd++] = xasprintf("%.*s/params", n, g.self);
        dirs[nd++] = xasprintf("%.*s/share/rftrace/params", n, g.self);
    }
    size_t l = strlen(name);
    int has_ext = l > 5 && strcmp(name + l - 5, ".conf") == 0;
    char *found = NULL;
    for (int i = 0; i < nd && !found; i++) {
        found = xasprintf("%s/%s%s", dirs[i], name, has_ext ? "" : ".conf");
        if (access(found, R_OK) != 0) {
            free(found);
            found = NULL;
        }
    }
    if (!found)
        die("%s: no such parameter file (searched %s%s%s): give --params FILE", name,
            nd > 0 ? dirs[0] : "nothing", nd > 1 ? ", " : "", nd > 1 ? dirs[1] : "");
    for (int i = 0; i < nd; i++)
        free(dirs[i]);
    return found;       /* g.params_path for the program's life */
}

static void load_params(const char *name)
{
    char why[RFT_PARAM_WHY];
    g.params_path = find_params(name);
    rft_params file;
    rft_params_init(&file);
    if (rft_params_read_file(&file, g.params_path, why, sizeof why))
        die("%s", why);
    /* --set values replace the file's */
    for (int i = 0; i < g.ps.n; i++)
        if (rft_params_set(&file, g.ps.p[i].key, g.ps.p[i].val, "--set"))
            die("out of memory");
    rft_params_free(&g.ps);
    g.ps = file;
    if (rft_eparams_load(&g.e, &g.ps, why, sizeof why))
        die("%s", why);
}

/* ---- reading a stream ---------------------------------------------------------------- */
/* 1 if "key=VALUE" inside a header value like "scheme=rc bs=8" has VALUE want */
static int field_is(const char *meta, const char *key, const char *want)
{
    size_t kl = strlen(key), wl = strlen(want);
    for (const char *p = meta; *p; p += strcspn(p, " "), p += *p == ' ')
        if (strncmp(p, key, kl) == 0 && p[kl] == '=')
            return strcspn(p + kl + 1, " ") == wl && strncmp(p + kl + 1, want, wl) == 0;
    return 0;
}

/* a copy of the header value of key, "" if absent; the first word only */
static char *header_value(const rft_header *h, const char *key, int word)
{
    const char *v = rft_header_get(h, key);
    v = v ? v : "";
    char *c = strndup(v, word ? strcspn(v, " ") : strlen(v));
    if (!c)
        die("out of memory");
    return c;
}

static void scan(input *in, rft_reader *r)
{
    const rft_header *h = rft_reader_header(r);
    in->geom = h->geom;
    in->gate = header_value(h, "gate", 0);
    in->alloc = header_value(h, "alloc", 0);
    in->clock = header_value(h, "clock_mhz", 0);
    in->scenario = header_value(h, rft_header_get(h, "dcpatch.maps") ? "dcpatch.maps" : "faultmap", 1);
    in->gate_scheme = field_is(in->gate, "scheme", "rc") ? RFT_GATE_RC
                    : field_is(in->gate, "scheme", "wc") ? RFT_GATE_WC : 0;
    if (in->gate[0] && !in->gate_scheme)
        die("%s: header key gate: '%s' names no scheme rft-energy knows", in->path, in->gate);

    in->dcp = xcalloc(1, sizeof *in->dcp);
    in->gtc = xcalloc(1, sizeof *in->gtc);
    static rft_counters c;
    rft_map slice_of, cu_of;            /* slice key -> index in sl; compute units seen */
    rft_power *sl = NULL;               /* powered cells per slice (gating model) */
    uint32_t cap = 0;
    if (rft_map_init(&slice_of, 64) || rft_map_init(&cu_of, 16))
        die("out of memory");
    int track = g.e.model == RFT_EM_GATING;
    uint32_t full = 32 * in->geom.lanes;
    rft_rec *rec = xcalloc(1, sizeof *rec);
    int e;
    while ((e = rft_read(r, rec)) == 0) {
        uint16_t cu, simd;
        rft_alloc_rec a;
        switch (rec->kind) {
        case RFT_WFBEGIN: cu = rec->u.begin.cu, simd = rec->u.begin.simd; break;
        case RFT_WFEND: cu = rec->u.end.cu, simd = rec->u.end.simd; break;
        case RFT_WRITE: cu = rec->w.cu, simd = rec->w.simd; in->writes++; break;
        case RFT_READ: cu = rec->u.read.cu, simd = rec->u.read.simd; in->reads++; break;
        case RFT_ALLOC:
            if (rft_alloc_parse(rec->raw, rec->len, &a))
                die("%s: record %llu: malformed window allocation record", in->path,
                    (unsigned long long)rft_reader_count(r));
            cu = a.cu, simd = a.simd;
            in->gating |= a.flags & RFT_AF_GATED;
            break;
        case RFT_COUNTERS:
            if (rft_counters_parse(rec->raw, rec->len, &c))
                die("%s: record %llu: malformed counters record", in->path,
                    (unsigned long long)rft_reader_count(r));
            if (strcmp(c.scope, "total") == 0 && strcmp(c.stage, "rft-dcpatch") == 0) {
                *in->dcp = c;
                in->ndcp++;
            } else if (strcmp(c.scope, "total") == 0 && strcmp(c.stage, "rft-gate") == 0) {
                *in->gtc = c;
                in->ngate++;
            }
            continue;
        default: continue;
        }
        /* the span: begin, end, write and read records, as rft-dcpatch */
        uint64_t t = rec->kind == RFT_ALLOC ? a.cycle : rft_rec_cycle(rec);
        if (rec->kind != RFT_ALLOC) {
            if (!in->any)
                in->first = t;
            in->any = 1;
            in->last = t;
        }
        uint64_t *ix = rft_map_get(&slice_of, rft_slice_key(cu, simd));
        if (!ix) {
            if (in->nslices == cap) {
                cap = cap ? 2 * cap : 16;
                if (!(sl = realloc(sl, cap * sizeof *sl)))
                    die("out of memory");
            }
            if (track && rft_power_init(&sl[in->nslices], in->geom.entries, full,
                                        g.e.bank_entries, in->first))
                die("out of memory");
            if (rft_map_put(&slice_of, rft_slice_key(cu, simd), in->nslices))
                die("out of memory");
            ix = rft_map_get(&slice_of, rft_slice_key(cu, simd));
            in->nslices++;
            if (!rft_map_get(&cu_of, cu)) {
                if (rft_map_put(&cu_of, cu, 1))
                    die("out of memory");
                in->ncus++;
            }
        }
        if (!track)
            continue;
        rft_power *pw = &sl[*ix];
        if (rec->kind == RFT_ALLOC) {
            /* the stream's banks (rft-alloc --bank), unless the parameters
             * price it in banks of their own */
            if (a.bank > 1 && g.e.bank_entries > 1 && a.bank != g.e.bank_entries)
                die("%s: record %llu: the stream is gated in banks of %u entries, %s in banks of %u "
                    "(gating.bank_entries)", in->path, (unsigned long long)rft_reader_count(r),
                    a.bank, g.params_path, g.e.bank_entries);
            if (!pw->gated && g.e.bank_entries == 1)
                pw->bank = a.bank;
            rft_power_window(pw, t, a.base, a.n, a.event == RFT_ALLOC_EV_ALLOC,
                             a.flags & RFT_AF_GATED);
        } else if (rec->kind == RFT_WRITE && rec->w.phys != RFT_NO_PHYS) {
            in->gating |= rec->w.on_bits != RFT_NO_GATE;
            rft_power_write(pw, t, rec->w.phys, rec->w.on_bits);
        } else if (rec->kind == RFT_READ && rec->u.read.phys != RFT_NO_PHYS) {
            rft_power_use(pw, t, rec->u.read.phys);
        }
    }
    if (e != RFT_EOF)
        die("%s: %s", in->path, rft_reader_error(r));
    for (uint32_t i = 0; track && i < in->nslices; i++) {
        in->pcc += (double)rft_power_total(&sl[i], in->last);
        in->alloc_wakeups += sl[i].wakeups;
        rft_power_free(&sl[i]);
    }
    if (in->ndcp > 1 || in->ngate > 1)
        warnx("warning: %s: %d counters records of %s (scope total): the last one is used",
              in->path, in->ndcp > 1 ? in->ndcp : in->ngate, in->ndcp > 1 ? "rft-dcpatch" : "rft-gate");
    free(sl);
    free(rec);
    rft_map_free(&slice_of);
    rft_map_free(&cu_of);
}

/* Geometry and clock of a stream against the parameters. */
static void check_input(const input *in)
{
    const rft_eparams *e = &g.e;
    static const char *const what[] = {"lanes", "entries", "block_lanes"};
    const uint32_t sv[] = {in->geom.lanes, in->geom.entries, in->geom.block_lanes};
    const uint32_t pv[] = {e->lanes, e->entries, e->block_lanes};
    for (int i = 0; i < 3; i++)
        if (sv[i] != pv[i])
            die("%s: geometry %s=%u differs from %s (geometry.%s = %u)", in->path, what[i], sv[i],
                g.params_path, what[i], pv[i]);
    if (in->clock[0]) {
        char *end;
        double mhz = strtod(in->clock, &end);
        if (end == in->clock || *end || mhz != e->clock_mhz)
            die("%s: header clock_mhz=%s differs from %s (clock_mhz = %g)", in->path, in->clock,
                g.params_path, e->clock_mhz);
    } else {
        g.clock_assumed = 1;
    }
}

/* ---- schemes --------------------------------------------------------------------- */
static const char *gate_label(int s) { return s == RFT_GATE_RC ? "rc" : s == RFT_GATE_WC ? "wc" : ""; }

/* The scheme a gating stream shows: its gating and its placement (allocated). */
static char *scheme_name(const input *in)
{
    const char *place = field_is(in->alloc, "scheme", "rar") ? "rar"
                      : field_is(in->alloc, "scheme", "argo") ? "argo" : "";
    const char *gt = gate_label(in->gate_scheme);
    if (!*gt && !*place)
        return xasprintf("baseline");
    return xasprintf("%s%s%s", gt, *gt && *place ? "+" : "", place);
}

static int known_scheme(const char *s)
{
    static const char *const k[] = {"baseline", "base", "rc", "wc", "rar", "argo", "rc+rar",
                                    "wc+rar", "rc+argo", "wc+argo", NULL};
    for (int i = 0; k[i]; i++)
        if (strcmp(s, k[i]) == 0)
            return 1;
    return 0;
}

/* in->name is the scheme the stream shows (scheme_name) */
static void gating_input(const input *in, rft_gate_in *gi)
{
    memset(gi, 0, sizeof *gi);
    const char *sch = in->name;
    if (in->label && known_scheme(in->label) &&
        strcmp(strcmp(in->label, "base") == 0 ? "baseline" : in->label, sch) != 0) {
        if (strstr(in->label, "rc") || strstr(in->label, "wc")) {
            if (!in->ngate)
                die("%s: scheme %s asked for, but the stream has no counters of rft-gate "
                    "(scope total): run rft-gate --scheme %.2s", in->path, in->label, in->label);
        }
        die("%s: scheme %s asked for, but the stream is %s (gate: %s; alloc: %s)", in->path,
            in->label, sch, in->gate[0] ? in->gate : "none", in->alloc[0] ? in->alloc : "none");
    }
    if (!in->any)
        die("%s: no register reads or writes: rft-energy prices the trace records", in->path);
    gi->gate = in->gate_scheme;
    gi->reads = in->reads;
    gi->writes = in->writes;
    gi->slice_cycles = (in->last - in->first) * in->nslices;
    gi->alloc_wakeups = in->alloc_wakeups;
    gi->powered_cell_cycles = in->gating ? in->pcc
                                         : (double)gi->slice_cycles * in->geom.entries * 32.0 * in->geom.lanes;
    if (in->gate_scheme) {
        const char *missing;
        if (!in->ngate)
            die("%s: gated by rft-gate (%s) but its counters record (stage rft-gate, scope total) "
                "is missing", in->path, in->gate);
        if (rft_gate_in_from(in->gtc, gi, &missing))
            die("%s: counters of rft-gate: field '%s' missing", in->path, missing);
        uint64_t cw = rft_counters_get(in->gtc, "writes"), cr = rft_counters_get(in->gtc, "reads");
        if (cw != in->writes || cr != in->reads)
            die("%s: rft-gate counted %llu writes and %llu reads, the stream has %llu and %llu",
                in->path, (unsigned long long)cw, (unsigned long long)cr,
                (unsigned long long)in->writes, (unsigned long long)in->reads);
    } else if (in->ngate) {
        die("%s: counters of rft-gate but no header key gate: cannot tell rc from wc", in->path);
    }
}

static void dcp_input(const input *in, rft_dcp_in *di)
{
    const char *missing;
    if (!in->ndcp)
        die("%s: no counters of stage rft-dcpatch (scope total): run rft-dcpatch first", in->path);
    if (rft_dcp_in_from(in->dcp, di, &missing))
        die("%s: counters of rft-dcpatch: field '%s' missing", in->path, missing);
}

/* ---- output ------------------------------------------------------------------------ */
static const char *const uv_cols[] = {"scheme", "vdd_mV", "static", "read", "write", "comdec",
                                      "patching", "lds", "total", "energy_nJ", "vs_conv%",
                                      "vs_smooth%", "added_cycles", "slowdown%"};
static const char *const gt_cols[] = {"scheme", "powered%", "leak_slice", "leak_logic",
                                      "dyn_slice", "dyn_logic", "wakeup", "total", "energy_nJ",
                                      "saving%", "leak_saving%", "added_cycles", "slowdown%",
                                      "alloc_mW", "leak_saved_mW", "net_saved_mW"};

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0; }
/* % saved against a reference (exactly 0 for the reference itself) */
static double saved(double a, double b) { return b > 0 ? 100.0 * (b - a) / b : 0; }

/* the categories and total: % of the reference, or nJ (to the pJ) */
static void cats(cli_table *t, const rft_eresult *r, int n, double ref)
{
    for (int i = 0; i < n; i++)
        table_dbl(t, g.absolute ? r->cat[i] * 1e-3 : pct(r->cat[i], ref), g.absolute ? 3 : 2);
    table_dbl(t, g.absolute ? r->total * 1e-3 : pct(r->total, ref), g.absolute ? 3 : 2);
    table_dbl(t, r->total * 1e-3, 3);
}

static void perf(cli_table *t, const rft_eresult *r)
{
    table_dbl(t, r->added, 0);
    table_dbl(t, pct(r->added, r->cycles), 3);
}

/* Inputs must be runs over one trace. */
static void same_trace(const input *a, const input *b, uint64_t ra, uint64_t rb, uint64_t wa,
                       uint64_t wb, uint64_t ca, uint64_t cb)
{
    if (ra != rb || wa != wb || ca != cb)
        die("%s and %s are not the same trace (reads %llu/%llu, writes %llu/%llu, slice "
            "cycles %llu/%llu)", a->path, b->path, (unsigned long long)ra, (unsigned long long)rb,
            (unsigned long long)wa, (unsigned long long)wb, (unsigned long long)ca,
            (unsigned long long)cb);
}

static void undervolt_row(cli_table *t, const char *name, const rft_eresult *r,
                          const rft_eresult *conv, const rft_eresult *smooth)
{
    table_str(t, name);
    table_dbl(t, r->vdd_mv, 0);
    cats(t, r, RFT_EU_NCAT, conv->total);
    table_dbl(t, saved(r->total, conv->total), 2);
    table_dbl(t, saved(r->total, smooth->total), 2);
    perf(t, r);
    table_end_row(t);
}

static void undervolt_rows(cli_table *t)
{
    rft_dcp_in base, di;
    rft_eresult conv, smooth, r;
    dcp_input(&g.in[0], &base);
    rft_energy_conv(&g.e, &base, g.e.conv, &conv);
    rft_energy_conv(&g.e, &base, g.e.smooth, &smooth);
    undervolt_row(t, "conv", &conv, &conv, &smooth);
    undervolt_row(t, "smooth", &smooth, &conv, &smooth);
    for (int i = 0; i < g.n; i++) {
        input *in = &g.in[i];
        dcp_input(in, &di);
        same_trace(&g.in[0], in, base.reads, di.reads, base.writes, di.writes, base.slice_cycles,
                   di.slice_cycles);
        const char *sc = g.scenario ? g.scenario : in->scenario;
        int pt = sc[0] ? rft_eparams_point(&g.e, sc) : -1;
        if (pt < 0)
            die("%s: fault scenario '%s' has no slice point in %s: give --scenario NAME",
                in->path, sc[0] ? sc : "(none in the header)", g.params_path);
        rft_energy_dcpatch(&g.e, &di, pt, &r);
        in->name = in->label ? xasprintf("%s", in->label) : xasprintf("dcpatch-%s", g.e.pt[pt].name);
        undervolt_row(t, in->name, &r, &conv, &smooth);
    }
}

/* in: the scheme's stream (NULL: the baseline, the first stream's trace) */
static void gating_row(cli_table *t, const char *name, const rft_eresult *r, const rft_eresult *base,
                       const input *in)
{
    table_str(t, name);
    table_dbl(t, 100 * r->powered, 2);
    cats(t, r, RFT_EG_NCAT, base->total);
    table_dbl(t, saved(r->total, base->total), 2);
    table_dbl(t, saved(r->cat[RFT_EG_LEAK_SLICE], base->cat[RFT_EG_LEAK_SLICE]), 2);
    perf(t, r);
    if (g.e.alloc_given) {
        /* seed 004 Fig. 11 against 5.4: the slice leakage a scheme saves per
         * compute unit, less what its allocator costs over the baseline's */
        const input *x = in ? in : &g.in[0];
        int argo = in && field_is(in->alloc, "scheme", "argo");
        double mw = argo ? g.e.alloc_argo_mw : g.e.alloc_base_mw;
        double leak = rft_energy_mw_per_cu(&g.e, base->cat[RFT_EG_LEAK_SLICE] - r->cat[RFT_EG_LEAK_SLICE],
                                           r->cycles, x->ncus ? (double)x->nslices / x->ncus : 0);
        table_dbl(t, mw, 3);
        table_dbl(t, leak, 3);
        table_dbl(t, leak - (mw - g.e.alloc_base_mw), 3);
    }
    table_end_row(t);
}

static void gating_rows(cli_table *t)
{
    rft_gate_in gi[64], *b = &gi[0];
    rft_eresult base, r;
    const char *base_name = "baseline";
    int plain[64];              /* gated by nothing: the baseline row stands for it */
    for (int i = 0; i < g.n; i++) {
        input *in = &g.in[i];
        in->name = scheme_name(in);
        gating_input(in, &gi[i]);
        same_trace(&g.in[0], in, b->reads, gi[i].reads, b->writes, gi[i].writes,
                   b->slice_cycles, gi[i].slice_cycles);
        plain[i] = strcmp(in->name, "baseline") == 0;
        if (in->label) {
            free(in->name);
            in->name = xasprintf("%s", in->label);
        }
        if (plain[i])
            base_name = in->name;
    }
    rft_energy_baseline(&g.e, b, &base);
    gating_row(t, base_name, &base, &base, NULL);
    for (int i = 0; i < g.n; i++) {
        if (plain[i])
            continue;
        rft_energy_gating(&g.e, &gi[i], &r);
        gating_row(t, g.in[i].name, &r, &base, &g.in[i]);
    }
}

static void show_params(void)
{
    static const char *const cols[] = {"key", "value", "source"};
    cli_table *t = table_new(g.fmt, stdout, 3, cols);
    char at[PATH_MAX + 16], *v;     /* an origin is below PATH_MAX (params.h) */
    for (int i = 0; i < g.ps.n; i++) {
        table_str(t, g.ps.p[i].key);
        table_str(t, g.ps.p[i].val);
        table_str(t, rft_param_where(&g.ps.p[i], at, sizeof at));
        table_end_row(t);
    }
    const rft_eparams *e = &g.e;
    for (int i = 0; e->model == RFT_EM_UNDERVOLT && i < e->npt; i++) {
        const rft_epoint *p = &e->pt[i];
        const double x[] = {p->read_pj, p->write_pj, p->static_mw};
        for (int k = 0; k < 3; k++) {
            if (!(p->derived & 1u << k))
                continue;
            char key[96];   /* a point's name is at most 31 bytes */
            snprintf(key, sizeof key, "slice.%s.%s", p->name, rft_epoint_field[k]);
            v = xasprintf("%.4f", x[k]);
            snprintf(at, sizeof at, "derived from slice.%s (%s)", e->pt[p->from].name,
                     k < 2 ? "dynamic ~ Vdd^2" : "static ~ Vdd");
            table_str(t, key);
            table_str(t, v);
            table_str(t, at);
            table_end_row(t);
            free(v);
        }
    }
    if (e->model == RFT_EM_UNDERVOLT && !rft_params_find(&g.ps, "lds.load_pj")) {
        const double x[] = {e->lds_load_pj, e->lds_store_pj};
        for (int k = 0; k < 2; k++) {
            v = xasprintf("%.4f", x[k]);
            table_str(t, k ? "lds.store_pj" : "lds.load_pj");
            table_str(t, v);
            table_str(t, "derived: lds.blocks x slice point lds.point");
            table_end_row(t);
            free(v);
        }
    }
    table_free(t);
}

static void notes(void)
{
    printf("\nparameters: %s\n", g.params_path);
    int uv = g.e.model == RFT_EM_UNDERVOLT;
    printf("categories: %s%s (seed %s)\n", g.absolute ? "nJ" : "% of the total of ",
           g.absolute ? "" : uv ? "conv" : "the baseline",
           uv ? "001 Fig. 8" : "002 Fig. 21; the baseline keeps every cell on, 6.6");
    printf("note: added_cycles and slowdown%% are an upper bound: every %s delays its slice "
           "by its full latency; latency hiding by other wavefronts is ignored\n",
           uv ? "misprediction stall, injected MOV and extra LDS load" : "wake-up and injected MOV");
    for (int i = 0; i < g.e.nnotes; i++)
        printf("note: %s\n", g.e.note[i]);
    if (g.clock_assumed)
        printf("note: the streams do not state their clock (header key clock_mhz): %g MHz "
               "assumed\n", g.e.clock_mhz);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"params", required_argument, 0, 'p'}, {"set", required_argument, 0, 'S'},
        {"scenario", required_argument, 0, 's'}, {"absolute", no_argument, 0, 'a'},
        {"show-params", no_argument, 0, 'w'}, {"format", required_argument, 0, 'f'},
        {0, 0, 0, 0}};
    const char *params = NULL;
    char why[RFT_PARAM_WHY];
    int c;
    cli_init(argc, argv, usage);
    g.self = cli_self_dir(argv[0]);
    rft_params_init(&g.ps);
    while ((c = getopt_long(argc, argv, "p:f:", opts, NULL)) != -1) {
        switch (c) {
        case 'p': params = optarg; break;
        case 'S':
            if (rft_params_set_arg(&g.ps, optarg, "--set", why, sizeof why))
                usage_error("%s", why);
            break;
        case 's': g.scenario = optarg; break;
        case 'a': g.absolute = 1; break;
        case 'w': g.show = 1; break;
        case 'f': g.fmt = cli_format(optarg); break;
        default: cli_bad_option(argv);
        }
    }
    g.n = argc - optind;
    if (g.n == 0 && !g.show)
        usage_error("no input");
    if (g.n == 0 && !params)
        usage_error("--show-params needs --params or an input to choose the file");
    if (g.n > 64)
        usage_error("64 inputs at most");
    g.in = xcalloc((size_t)g.n, sizeof *g.in);
    for (int i = 0; i < g.n; i++) {
        char *a = argv[optind + i], *eq = strchr(a, '=');
        size_t k = 0;
        while (eq && a + k < eq && (strchr("_.+-", a[k]) || (a[k] >= '0' && a[k] <= '9') ||
                                    ((a[k] | 32) >= 'a' && (a[k] | 32) <= 'z')))
            k++;
        if (eq && k > 0 && a + k == eq && eq[1]) {
            *eq = 0;
            g.in[i].label = a;
            g.in[i].path = eq + 1;
        } else {
            g.in[i].path = a;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(g.in[i].path, "-") == 0 && strcmp(g.in[j].path, "-") == 0)
                usage_error("standard input given twice");
    }

    /* The first stream's header chooses the default parameters. */
    rft_reader *r = NULL;
    if (g.n) {
        if (!(r = rft_reader_open(g.in[0].path, why, sizeof why)))
            die("%s: %s", g.in[0].path, why);
    }
    if (!params)
        params = r && rft_header_get(rft_reader_header(r), "dcpatch") ? "seed001-28nm" : "seed002-32nm";
    load_params(params);
    int uv = g.e.model == RFT_EM_UNDERVOLT;
    if (g.scenario && !uv)
        usage_error("--scenario applies to the undervolt model (seed 001) only");
    if (g.show) {
        if (r)
            rft_reader_close(r);
        show_params();
        return cli_close_stdout();
    }
    for (int i = 0; i < g.n; i++) {
        if (i && !(r = rft_reader_open(g.in[i].path, why, sizeof why)))
            die("%s: %s", g.in[i].path, why);
        scan(&g.in[i], r);
        rft_reader_close(r);
        check_input(&g.in[i]);
    }
    /* static: reachable (for LeakSanitizer) when a row dies on bad input */
    static cli_table *t;
    t = table_new(g.fmt, stdout, uv ? 14 : g.e.alloc_given ? 16 : 13, uv ? uv_cols : gt_cols);
    if (uv)
        undervolt_rows(t);
    else
        gating_rows(t);
    table_free(t);
    if (g.fmt == FMT_TABLE)
        notes();
    for (int i = 0; i < g.n; i++) {
        input *in = &g.in[i];
        free(in->dcp);
        free(in->gtc);
        free(in->name);
        free(in->gate);
        free(in->alloc);
        free(in->scenario);
        free(in->clock);
    }
    free(g.in);
    rft_params_free(&g.ps);
    return cli_close_stdout();
}
