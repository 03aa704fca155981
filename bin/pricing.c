/* pricing.c - rft-energy's pricing (pricing.h). */
#include "pricing.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"

/* ---- parameter files ---------------------------------------------------------- */
/* NAME or NAME.conf in $RFT_PARAMS_DIR, in the program's tree (bin/../params)
 * or where an install puts them (bin/../share/rftrace/params). */
static char *find_params(const pricing *p, const char *name)
{
    if (strchr(name, '/') || access(name, R_OK) == 0)
        return xasprintf("%s", name);
    char *dirs[3];
    int nd = 0;
    const char *env = getenv("RFT_PARAMS_DIR");
    if (env && *env)
        dirs[nd++] = xasprintf("%s", env);
    if (p->self[0]) {   /* the directory above the program's */
        const char *up = strrchr(p->self, '/');
        int n = up ? (int)(up - p->self) : 0;
        dirs[nd++] = xasprintf("%.*s/params", n, p->self);
        dirs[nd++] = xasprintf("%.*s/share/rftrace/params", n, p->self);
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
    return found;
}

void pricing_load(pricing *p, const rft_header *h)
{
    char why[RFT_PARAM_WHY];
    /* none named: the set of the model (--model, else a stream of rft-dcpatch
     * is undervolt's) for the register file of the first input */
    int model = p->model ? p->model
              : h && rft_header_get(h, "dcpatch") ? RFT_EM_UNDERVOLT : RFT_EM_GATING;
    const char *name = p->params ? p->params : rft_eparams_default_set(h ? &h->geom : NULL, model);
    p->params_path = find_params(p, name);
    rft_params file;
    rft_params_init(&file);
    if (rft_params_read_file(&file, p->params_path, why, sizeof why))
        die("%s", why);
    /* --set values replace the file's */
    for (int i = 0; i < p->ps.n; i++)
        if (rft_params_set(&file, p->ps.p[i].key, p->ps.p[i].val, CLI_SET_ORIGIN))
            die("out of memory");
    rft_params_free(&p->ps);
    p->ps = file;
    if (rft_eparams_load(&p->e, &p->ps, why, sizeof why))
        cli_params_fail(why);
    if (p->scenario && p->e.model != RFT_EM_UNDERVOLT)
        usage_error("--scenario applies to the undervolt model (seed 001) only");
    if (p->slowdown && p->e.model != RFT_EM_GATING)
        usage_error("--with-slowdown applies to the gating model (seed 002) only");
}

/* ---- inputs ---------------------------------------------------------------------- */
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

/* An input read through the driver: at its header the parameters (from the
 * first input's) and what the header says, then its scan (lib/escan.c) in
 * the parameters' banks; at the end the scan's result in the input. */
typedef struct intake {
    rft_stage st;
    pricing *p;
    price_input *in;
    rft_stage *scan;
} intake;

/* the scan's error as the intake's */
static int relay(intake *k, int e)
{
    return e < 0 ? rft_stage_fail(&k->st, e, "%s", rft_stage_error(k->scan)) : e;
}

static int intake_start(rft_stage *st, const rft_header *h, rft_header *out)
{
    intake *k = (intake *)st;
    price_input *in = k->in;
    if (!k->p->params_path)
        pricing_load(k->p, h);
    in->geom = h->geom;
    notes_header(&k->p->nt, (size_t)(in - k->p->in), h);
    in->gate = header_value(h, "gate", 0);
    in->alloc = header_value(h, "alloc", 0);
    in->clock = header_value(h, "clock_mhz", 0);
    in->scenario = header_value(h, rft_header_get(h, "dcpatch.maps") ? "dcpatch.maps" : "faultmap", 1);
    in->gate_scheme = field_is(in->gate, "scheme", "rc") ? RFT_GATE_RC
                    : field_is(in->gate, "scheme", "wc") ? RFT_GATE_WC : 0;
    if (in->gate[0] && !in->gate_scheme)
        return rft_stage_fail(st, RFT_EFORMAT, "header key gate: '%s' names no scheme rft-energy knows",
                              in->gate);
    rft_escan_opts o;
    rft_escan_opts_default(&o);
    o.pass = 0;
    if (k->p->e.model == RFT_EM_GATING) {
        o.bank = k->p->e.bank_entries;
        o.bank_from = k->p->params_path;
    }
    if (!(k->scan = rft_escan_new(&o)))
        return rft_stage_fail(st, RFT_EMEM, "out of memory");
    k->scan->input = st->input;
    rft_header scan_out;
    int e = rft_stage_start(k->scan, h, &scan_out);
    rft_header_free(&scan_out);
    return relay(k, e);
}

static int intake_feed(rft_stage *st, rft_rec *rec, const rft_sink *out)
{
    intake *k = (intake *)st;
    return relay(k, rft_stage_feed(k->scan, rec, out));
}

static int intake_finish(rft_stage *st, const rft_sink *out)
{
    intake *k = (intake *)st;
    int e = rft_stage_finish(k->scan, out);
    if (e == 0)
        k->in->scan = *rft_escan_result(k->scan);
    return relay(k, e);
}

static void intake_free(rft_stage *st)
{
    rft_stage_free(((intake *)st)->scan);
    free(st);
}

static const rft_stage_ops intake_ops = {"rft-energy", intake_start, intake_feed, intake_finish,
                                         intake_free, 0};

/* Geometry, clock and banks of a stream against the parameters. */
static void check_input(pricing *p, const price_input *in)
{
    const rft_eparams *e = &p->e;
    static const char *const what[] = {"lanes", "entries", "block_lanes"};
    const uint32_t sv[] = {in->geom.lanes, in->geom.entries, in->geom.block_lanes};
    const uint32_t pv[] = {e->lanes, e->entries, e->block_lanes};
    for (int i = 0; i < 3; i++)
        if (sv[i] != pv[i])
            die("%s: geometry %s=%u differs from %s (geometry.%s = %u)", in->path, what[i], sv[i],
                p->params_path, what[i], pv[i]);
    if (in->clock[0]) {
        char *end;
        double mhz = strtod(in->clock, &end);
        if (end == in->clock || *end || mhz != e->clock_mhz)
            die("%s: header clock_mhz=%s differs from %s (clock_mhz = %g)", in->path, in->clock,
                p->params_path, e->clock_mhz);
    } else {
        p->clock_assumed = 1;
    }
    /* only a scan stream can have been scanned in other banks */
    if (e->model == RFT_EM_GATING && in->scan.bank != e->bank_entries)
        die("%s: scanned in banks of %u entries (rft-energy --scan --bank), %s prices banks of %u "
            "(gating.bank_entries)", in->path, in->scan.bank, p->params_path, e->bank_entries);
}

void pricing_read(pricing *p, int i)
{
    price_input *in = &p->in[i];
    if (!p->labels) {
        p->labels = xrealloc(NULL, (size_t)p->n * sizeof *p->labels);
        for (int m = 0; m < p->n; m++)
            p->labels[m] = p->in[m].label ? p->in[m].label : p->in[m].path;
        notes_init(&p->nt, (size_t)p->n, p->labels, "inputs");
    }
    intake *k = xrealloc(NULL, sizeof *k);
    memset(k, 0, sizeof *k);
    k->st.ops = &intake_ops;
    k->st.input = "-";
    k->p = p;
    k->in = in;
    /* decompressing is most of the work: a thread of its own */
    cli_job j = {.st = &k->st, .input = in->path, .read_flags = RFT_IN_AHEAD, .prog = prog};
    cli_jobs_run(&j, 1);        /* frees the intake */
    const rft_escan *s = &in->scan;
    if (s->ndcpatch > 1 || s->ngate > 1)
        warnx("warning: %s: %d counters records of %s (scope total): the last one is used", in->path,
              s->ndcpatch > 1 ? s->ndcpatch : s->ngate, s->ndcpatch > 1 ? "rft-dcpatch" : "rft-gate");
    check_input(p, in);
}

/* ---- schemes --------------------------------------------------------------------- */
static const char *gate_label(int s) { return s == RFT_GATE_RC ? "rc" : s == RFT_GATE_WC ? "wc" : ""; }

/* The scheme a gating stream shows: its gating and its placement (allocated). */
static char *scheme_name(const price_input *in)
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

/* The replay of a stream's scan: the slice-cycles it adds (rft-replay(1)),
 * and those its upper bound adds (every added cycle in full, the extra
 * pipeline stages included: never below the replay's) where the scan
 * recorded it. */
static void replay_of(const price_input *in, int *replay, double *replayed, int *bounded,
                      double *bound)
{
    const rft_escan *s = &in->scan;
    *replay = s->replay == RFT_ESCAN_REPLAYED;
    *replayed = *replay && s->replay_cycles > s->replay_naive
                    ? (double)(s->replay_cycles - s->replay_naive) : 0;
    *bounded = *replay && s->replay_upper >= s->replay_cycles && s->replay_upper >= s->replay_naive &&
               (s->replay_upper || !s->replay_naive);
    *bound = *bounded ? (double)(s->replay_upper - s->replay_naive) : 0;
}

/* in->name is the scheme the stream shows (scheme_name) */
static void gating_input(const price_input *in, rft_gate_in *gi)
{
    const rft_escan *s = &in->scan;
    memset(gi, 0, sizeof *gi);
    const char *sch = in->name;
    if (in->label && known_scheme(in->label) &&
        strcmp(strcmp(in->label, "base") == 0 ? "baseline" : in->label, sch) != 0) {
        if (strstr(in->label, "rc") || strstr(in->label, "wc")) {
            if (!s->ngate)
                die("%s: scheme %s asked for, but the stream has no counters of rft-gate "
                    "(scope total): run rft-gate --scheme %.2s", in->path, in->label, in->label);
        }
        die("%s: scheme %s asked for, but the stream is %s (gate: %s; alloc: %s)", in->path,
            in->label, sch, in->gate[0] ? in->gate : "none", in->alloc[0] ? in->alloc : "none");
    }
    if (!s->timed)
        die("%s: no register reads or writes: rft-energy prices the trace records", in->path);
    gi->gate = in->gate_scheme;
    replay_of(in, &gi->replay, &gi->replayed, &gi->bounded, &gi->bound);
    gi->reads = s->reads;
    gi->writes = s->writes;
    gi->slice_cycles = (s->last - s->first) * s->slices;
    gi->alloc_wakeups = s->alloc_wakeups;
    gi->powered_cell_cycles = s->gated ? s->powered_cell_cycles
                                       : (double)gi->slice_cycles * in->geom.entries * 32.0 * in->geom.lanes;
    if (in->gate_scheme) {
        const char *missing;
        if (!s->ngate)
            die("%s: gated by rft-gate (%s) but its counters record (stage rft-gate, scope total) "
                "is missing", in->path, in->gate);
        if (rft_gate_in_from(&s->gate, gi, &missing))
            die("%s: counters of rft-gate: field '%s' missing", in->path, missing);
        uint64_t cw = rft_counters_get(&s->gate, "writes"), cr = rft_counters_get(&s->gate, "reads");
        if (cw != s->writes || cr != s->reads)
            die("%s: rft-gate counted %llu writes and %llu reads, the stream has %llu and %llu",
                in->path, (unsigned long long)cw, (unsigned long long)cr,
                (unsigned long long)s->writes, (unsigned long long)s->reads);
    } else if (s->ngate) {
        die("%s: counters of rft-gate but no header key gate: cannot tell rc from wc", in->path);
    }
}

static void dcp_input(const pricing *p, const price_input *in, rft_dcp_in *di)
{
    const char *missing;
    if (!in->scan.ndcpatch)
        die("%s: no counters of stage rft-dcpatch (scope total): run rft-dcpatch first", in->path);
    if (rft_dcp_in_from(&in->scan.dcpatch, di, &missing))
        die("%s: counters of rft-dcpatch: field '%s' missing", in->path, missing);
    replay_of(in, &di->replay, &di->replayed, &di->bounded, &di->bound);
    di->leak = p->leak;
}

/* ---- tables ------------------------------------------------------------------------ */
static const char *const uv_cols[] = {"scheme", "vdd_mV", "static", "read", "write", "comdec",
                                      "patching", "lds", "total", "energy_nJ", "vs_conv%",
                                      "vs_smooth%", "added_cycles", "slice_slowdown_bound%",
                                      "replayed_cycles", "slice_slowdown_replay%"};
static const char *const gt_cols[] = {"scheme", "powered%", "leak_slice", "leak_logic",
                                      "dyn_slice", "dyn_logic", "wakeup", "total", "energy_nJ",
                                      "saving%", "leak_saving%", "added_cycles", "slice_slowdown_bound%",
                                      "alloc_mW", "leak_saved_mW", "net_saved_mW", "slowdown_leak",
                                      "replayed_cycles", "slice_slowdown_replay%"};

static double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0; }
/* % saved against a reference (exactly 0 for the reference itself) */
static double saved(double a, double b) { return b > 0 ? 100.0 * (b - a) / b : 0; }

/* an energy: % of the reference, or nJ (to the pJ) */
static void energy(const pricing *p, cli_table *t, double pj, double ref)
{
    table_dbl(t, p->absolute ? pj * 1e-3 : pct(pj, ref), p->absolute ? 3 : 2);
}

/* the categories and total, then the total in nJ */
static void cats(const pricing *p, cli_table *t, const rft_eresult *r, int n, double ref)
{
    for (int i = 0; i < n; i++)
        energy(p, t, r->cat[i], ref);
    energy(p, t, r->total, ref);
    table_dbl(t, r->total * 1e-3, 3);
}

static void perf(cli_table *t, const rft_eresult *r)
{
    table_dbl(t, r->added, 0);
    table_dbl(t, pct(r->added, r->cycles), 3);
}

/* the replayed cycles: a reference row adds none (when its trace was
 * replayed), a row not replayed has none */
static void replayed(const pricing *p, cli_table *t, const rft_eresult *r, int reference)
{
    if (r->replay || (reference && p->in[0].scan.replay == RFT_ESCAN_REPLAYED)) {
        table_dbl(t, r->replayed, 0);
        table_dbl(t, pct(r->replayed, r->cycles), 3);
    } else {
        table_none(t);
        table_none(t);
    }
}

/* Inputs must be runs over one trace. */
static void same_trace(const price_input *a, const price_input *b, uint64_t ra, uint64_t rb,
                       uint64_t wa, uint64_t wb, uint64_t ca, uint64_t cb)
{
    if (ra != rb || wa != wb || ca != cb)
        die("%s and %s are not the same trace (reads %llu/%llu, writes %llu/%llu, slice "
            "cycles %llu/%llu)", a->path, b->path, (unsigned long long)ra, (unsigned long long)rb,
            (unsigned long long)wa, (unsigned long long)wb, (unsigned long long)ca,
            (unsigned long long)cb);
}

static void undervolt_row(const pricing *p, cli_table *t, const char *name, const rft_eresult *r,
                          const rft_eresult *conv, const rft_eresult *smooth)
{
    table_str(t, name);
    table_dbl(t, r->vdd_mv, 0);
    cats(p, t, r, RFT_EU_NCAT, conv->total);
    table_dbl(t, saved(r->total, conv->total), 2);
    table_dbl(t, saved(r->total, smooth->total), 2);
    perf(t, r);
    replayed(p, t, r, r == conv || r == smooth);
    table_end_row(t);
}

static void undervolt_rows(pricing *p, cli_table *t)
{
    const rft_eparams *e = &p->e;
    rft_dcp_in base, di;
    rft_eresult conv, smooth, r;
    dcp_input(p, &p->in[0], &base);
    rft_energy_conv(e, &base, e->conv, &conv);
    rft_energy_conv(e, &base, e->smooth, &smooth);
    undervolt_row(p, t, "conv", &conv, &conv, &smooth);
    undervolt_row(p, t, "smooth", &smooth, &conv, &smooth);
    for (int i = 0; i < p->n; i++) {
        price_input *in = &p->in[i];
        dcp_input(p, in, &di);
        same_trace(&p->in[0], in, base.reads, di.reads, base.writes, di.writes, base.slice_cycles,
                   di.slice_cycles);
        const char *sc = p->scenario ? p->scenario : in->scenario;
        int pt = sc[0] ? rft_eparams_point(e, sc) : -1;
        if (pt < 0)
            die("%s: fault scenario '%s' has no slice point in %s: give --scenario NAME",
                in->path, sc[0] ? sc : "(none in the header)", p->params_path);
        rft_energy_dcpatch(e, &di, pt, &r);
        in->name = in->label ? xasprintf("%s", in->label) : xasprintf("dcpatch-%s", e->pt[pt].name);
        undervolt_row(p, t, in->name, &r, &conv, &smooth);
    }
}

/* in: the scheme's stream (NULL: the baseline, the first stream's trace) */
static void gating_row(const pricing *p, cli_table *t, const char *name, const rft_eresult *r,
                       const rft_eresult *base, const price_input *in)
{
    const rft_eparams *e = &p->e;
    table_str(t, name);
    table_dbl(t, 100 * r->powered, 2);
    cats(p, t, r, RFT_EG_NCAT, base->total);
    table_dbl(t, saved(r->total, base->total), 2);
    table_dbl(t, saved(r->cat[RFT_EG_LEAK_SLICE], base->cat[RFT_EG_LEAK_SLICE]), 2);
    perf(t, r);
    if (e->alloc_given) {
        /* seed 004 Fig. 11 against 5.4: the slice leakage a scheme saves per
         * compute unit, less what its allocator costs over the baseline's */
        const rft_escan *x = in ? &in->scan : &p->in[0].scan;
        int argo = in && field_is(in->alloc, "scheme", "argo");
        double mw = argo ? e->alloc_argo_mw : e->alloc_base_mw;
        double leak = rft_energy_mw_per_cu(e, base->cat[RFT_EG_LEAK_SLICE] - r->cat[RFT_EG_LEAK_SLICE],
                                           r->cycles, x->cus ? (double)x->slices / x->cus : 0);
        table_dbl(t, mw, 3);
        table_dbl(t, leak, 3);
        table_dbl(t, leak - (mw - e->alloc_base_mw), 3);
    }
    energy(p, t, r->slowdown_leak, base->total);     /* the columns before kept their places */
    replayed(p, t, r, r == base);
    table_end_row(t);
}

static void gating_rows(pricing *p, cli_table *t)
{
    rft_gate_in gi[64], *b = &gi[0];
    rft_eresult base, r;
    const char *base_name = "baseline";
    int plain[64];              /* gated by nothing: the baseline row stands for it */
    for (int i = 0; i < p->n; i++) {
        price_input *in = &p->in[i];
        in->name = scheme_name(in);
        gating_input(in, &gi[i]);
        same_trace(&p->in[0], in, b->reads, gi[i].reads, b->writes, gi[i].writes,
                   b->slice_cycles, gi[i].slice_cycles);
        plain[i] = strcmp(in->name, "baseline") == 0;
        if (in->label) {
            free(in->name);
            in->name = xasprintf("%s", in->label);
        }
        if (plain[i])
            base_name = in->name;
    }
    rft_energy_baseline(&p->e, b, &base);
    gating_row(p, t, base_name, &base, &base, NULL);
    for (int i = 0; i < p->n; i++) {
        if (plain[i])
            continue;
        gi[i].leak = p->leak;
        rft_energy_gating(&p->e, &gi[i], p->slowdown || p->leak == RFT_LEAK_UPPER, &r);
        gating_row(p, t, p->in[i].name, &r, &base, &p->in[i]);
    }
}

/* What the table assumed (cli.h table_note): in every format. */
static void pricing_notes(const pricing *p, cli_table *t)
{
    table_notef(t, "parameters: %s", p->params_path);
    int uv = p->e.model == RFT_EM_UNDERVOLT;
    table_notef(t, "categories: %s%s (seed %s)", p->absolute ? "nJ" : "% of the total of ",
           p->absolute ? "" : uv ? "conv" : "the baseline",
           uv ? "001 Fig. 8" : "002 Fig. 21; the baseline keeps every cell on, 6.6");
    table_notef(t, "note: replayed_cycles and slice_slowdown_replay%% are the replay (rft-replay(1)), "
           "the slowdown to cite: each slice's schedule from the trace's cycles, other wavefronts "
           "hiding latency%s; over the slices' cycles summed (what the leakage is priced over), not "
           "the run's span (%s gives the run's)",
           uv ? ", with the two extra pipeline stages of DC-Patch (seed 001 IV-E)" : "",
           uv ? "rft-dcpatch --report perf" : "rft-replay");
    int bounded = 0;
    for (int i = 0; i < p->n; i++)
        bounded += p->in[i].scan.replay == RFT_ESCAN_REPLAYED && p->in[i].scan.replay_upper;
    const char *what = uv ? "misprediction stall, injected MOV, extra LDS load and the two extra "
                            "pipeline stages of every result"
                          : "wake-up and injected MOV";
    const char *first = uv ? "misprediction stall, injected MOV and extra LDS load (not the extra "
                             "pipeline stages)"
                           : what;
    if (bounded)
        table_notef(t, "note: added_cycles and slice_slowdown_bound%% are the replay's upper bound, "
               "never below slice_slowdown_replay%%: every %s delays its slice in full, no latency "
               "hidden", what);
    for (int i = 0; i < p->n; i++)
        if (p->in[i].scan.replay == RFT_ESCAN_REPLAYED && !p->in[i].scan.replay_upper &&
            p->in[i].scan.replay_naive)
            table_notef(t, "note: %s: its scan records no upper bound of the replay (an older "
                   "rft-energy --scan): added_cycles is the first-order count of every %s, "
                   "delaying its slice in full", p->in[i].path, first);
    const char *over = p->leak == RFT_LEAK_TRACE ? "the trace's cycles"
                     : p->leak == RFT_LEAK_UPPER || p->slowdown ? "the trace's cycles and the upper bound's"
                     : "the trace's cycles and the replayed ones where a stream was replayed";
    table_notef(t, "note: leakage priced over %s (--leak-over)", over);
    for (int i = 0; i < p->n; i++)
        if (p->in[i].scan.replay != RFT_ESCAN_REPLAYED)
            table_notef(t, "note: %s: not replayed (%s): added_cycles and slice_slowdown_bound%% "
                   "alone, the first-order count of every %s, delaying its slice in full",
                   p->in[i].path,
                   p->in[i].scan.replay == RFT_ESCAN_ESTIMATED
                       ? "its cycles are estimated: header key issue_model"
                       : "no replay in its scan, or the replay could not run on it", first);
    if (!uv)
        table_notef(t, "note: slowdown_leak is what the slice and its logic leak over those cycles "
               "(perf.added_static of them): %s", p->slowdown
               ? "counted in leak_slice, leak_logic, the total and the savings (--with-slowdown)"
               : "not in the other columns, which price the trace's cycles (--with-slowdown "
                 "counts it in)");
    for (int i = 0; i < p->e.nnotes; i++)
        table_notef(t, "note: %s", p->e.note[i]);
    if (p->clock_assumed)
        table_notef(t, "note: the streams do not state their clock (header key clock_mhz): %g MHz "
               "assumed", p->e.clock_mhz);
}

void pricing_table(pricing *p)
{
    int uv = p->e.model == RFT_EM_UNDERVOLT;
    /* static: reachable (for LeakSanitizer) when a row dies on bad input */
    static cli_table *t;
    const char *cols[19];       /* gating: the allocators' three only when given */
    int n = 0;
    for (int i = 0; i < 19; i++)
        if (p->e.alloc_given || i < 13 || i >= 16)
            cols[n++] = gt_cols[i];
    t = table_new(p->fmt, stdout, uv ? 16 : n, uv ? uv_cols : cols);
    pricing_notes(p, t);
    notes_put(&p->nt, t, NULL);
    if (uv)
        undervolt_rows(p, t);
    else
        gating_rows(p, t);
    table_free(t);
}

/* ---- --show-params --------------------------------------------------------------------- */
static void show_row(cli_table *t, const char *key, const char *value, const char *source)
{
    table_str(t, key);
    table_str(t, value);
    table_str(t, source);
    table_end_row(t);
}

void pricing_show(pricing *p)
{
    static const char *const cols[] = {"key", "value", "source"};
    cli_table *t = table_new(p->fmt, stdout, 3, cols);
    char at[PATH_MAX + 16], *v;     /* an origin is below PATH_MAX (params.h) */
    for (int i = 0; i < p->ps.n; i++)
        show_row(t, p->ps.p[i].key, p->ps.p[i].val, rft_param_where(&p->ps.p[i], at, sizeof at));
    const rft_eparams *e = &p->e;
    for (int i = 0; e->model == RFT_EM_UNDERVOLT && i < e->npt; i++) {
        const rft_epoint *pt = &e->pt[i];
        const double x[] = {pt->read_pj, pt->write_pj, pt->static_mw};
        for (int k = 0; k < 3; k++) {
            if (!(pt->derived & 1u << k))
                continue;
            char key[96];   /* a point's name is at most 31 bytes */
            snprintf(key, sizeof key, "slice.%s.%s", pt->name, rft_epoint_field[k]);
            v = xasprintf("%.4f", x[k]);
            snprintf(at, sizeof at, "derived from slice.%s (%s)", e->pt[pt->from].name,
                     k < 2 ? "dynamic ~ Vdd^2" : "static ~ Vdd");
            show_row(t, key, v, at);
            free(v);
        }
    }
    if (e->model == RFT_EM_UNDERVOLT && !rft_params_find(&p->ps, "lds.load_pj")) {
        const double x[] = {e->lds_load_pj, e->lds_store_pj};
        for (int k = 0; k < 2; k++) {
            v = xasprintf("%.4f", x[k]);
            show_row(t, k ? "lds.store_pj" : "lds.load_pj", v, "derived: lds.blocks x slice point lds.point");
            free(v);
        }
    }
    table_free(t);
}

void pricing_free(pricing *p)
{
    for (int i = 0; i < p->n; i++) {
        price_input *in = &p->in[i];
        free(in->name);
        free(in->gate);
        free(in->alloc);
        free(in->scenario);
        free(in->clock);
    }
    free(p->in);
    free(p->params_path);
    rft_params_free(&p->ps);
    notes_free(&p->nt);
    free(p->labels);
}
