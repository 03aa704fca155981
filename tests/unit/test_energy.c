/* test_energy.c - unit tests of lib/params.c and lib/energy.c: parameter
 * files and their errors, the derivation rules, one small case per scheme
 * priced by hand, and the powered cells of a slice over time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "params.h"
#include "rft.h"

#define CHECK(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)
#define NEAR(a, b) CHECK(fabs((double)(a) - (double)(b)) <= 1e-9 * (1 + fabs((double)(b))))

static char why[640];

static int load(rft_eparams *e, const char *text)
{
    rft_params ps;
    rft_params_init(&ps);
    int rc = rft_params_parse(&ps, "t.conf", text, strlen(text), why, sizeof why);
    if (rc == 0)
        rc = rft_eparams_load(e, &ps, why, sizeof why);
    rft_params_free(&ps);
    return rc;
}

/* ---- parameter files ---------------------------------------------------------- */
static void test_params(void)
{
    rft_params ps;
    rft_params_init(&ps);
    const char *t = "# comment\n\n  a.b = 1.5   # trailing\nname=hello world\r\nz = -2\nw = x1\n";
    CHECK(rft_params_parse(&ps, "f.conf", t, strlen(t), why, sizeof why) == 0);
    CHECK(ps.n == 4);
    CHECK(strcmp(rft_params_str(&ps, "name"), "hello world") == 0);
    double v;
    CHECK(rft_params_num(&ps, "a.b", 1, 0, &v, why, sizeof why) == 0 && v == 1.5);
    CHECK(rft_params_num(&ps, "z", 1, 0, &v, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "f.conf: line 5: z: '-2' is negative") == 0);
    CHECK(rft_params_num(&ps, "w", 1, 0, &v, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "f.conf: line 6: w: 'x1' is not a number") == 0);
    CHECK(rft_params_num(&ps, "nope", 1, 0, &v, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "f.conf: missing key 'nope'") == 0);
    CHECK(rft_params_num(&ps, "nope", 0, 0, &v, why, sizeof why) == 1);
    CHECK(rft_params_unused(&ps) == NULL);
    /* --set replaces a file's value and names itself */
    CHECK(rft_params_set_arg(&ps, "z=3", "--set", why, sizeof why) == 0);
    CHECK(rft_params_num(&ps, "z", 1, 0, &v, why, sizeof why) == 0 && v == 3);
    CHECK(rft_params_set_arg(&ps, "z", "--set", why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "--set: 'z' is not KEY=VALUE") == 0);
    CHECK(rft_params_set_arg(&ps, "a b=1", "--set", why, sizeof why) == RFT_EFORMAT);
    rft_params_free(&ps);

    static const struct { const char *text, *msg; } bad[] = {
        {"a = 1\nb 2\n", "f.conf: line 2: not 'key = value': b 2"},
        {"a = 1\nb =   # nothing\n", "f.conf: line 2: b: no value"},
        {"a = 1\n\na = 2\n", "f.conf: line 3: a: given twice (first on line 1)"},
        {"= 1\n", "f.conf: line 1: not 'key = value': = 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rft_params_init(&ps);
        CHECK(rft_params_parse(&ps, "f.conf", bad[i].text, strlen(bad[i].text), why, sizeof why) ==
              RFT_EFORMAT);
        if (strcmp(why, bad[i].msg) != 0) {
            fprintf(stderr, "got '%s', want '%s'\n", why, bad[i].msg);
            exit(1);
        }
        rft_params_free(&ps);
    }
}

/* ---- the undervolt model (seed 001) ------------------------------------------------- */
/* Round numbers, so that every figure below can be checked by hand.
 * Geometry: 64 lanes in blocks of 16, B = 4 blocks per register. */
static const char uv_text[] =
    "model = undervolt\nclock_mhz = 500\n"     /* 2 ns per cycle */
    "geometry.lanes = 64\ngeometry.entries = 8\ngeometry.block_lanes = 16\n"
    "slice.conv.vdd_mv = 800\nslice.conv.read_pj = 100\nslice.conv.write_pj = 200\n"
    "slice.conv.static_mw = 10\n"
    "slice.low.vdd_mv = 400\nslice.low.read_pj = 30\nslice.low.write_pj = 60\nslice.low.static_mw = 4\n"
    "slice.smooth.vdd_mv = 600\nslice.smooth.derive = conv\nslice.smooth.static_mw = 7\n"
    "com.write_pj = 1\ncom.static_mw = 2\ncom.units = 1\n"
    "dec.read_pj = 0.5\ndec.static_mw = 1\ndec.units = 2\n"
    "pt.read_pj = 0.25\npt.write_pj = 0.75\npt.static_mw = 0.5\n"
    "psu.search_pj = 0.1\npsu.static_mw = 1.5\n"
    "lds.blocks = 4\nlds.point = conv\n"
    "perf.mov_cycles = 4\nperf.lds_load_cycles = 6\nperf.added_static = 1\n"
    "note.x = an assumption of the file\n";

static void test_undervolt(void)
{
    rft_eparams e;
    CHECK(load(&e, uv_text) == 0);
    CHECK(e.model == RFT_EM_UNDERVOLT && rft_eparams_blocks(&e) == 4);
    int low = rft_eparams_point(&e, "low");
    CHECK(e.conv == 0 && low == 1 && e.smooth == 2);
    /* Smooth: dynamic ~ Vdd^2 from conv, (600/800)^2 = 0.5625; static given */
    NEAR(e.pt[e.smooth].read_pj, 56.25);
    NEAR(e.pt[e.smooth].write_pj, 112.5);
    NEAR(e.pt[e.smooth].static_mw, 7);
    CHECK(e.pt[e.smooth].from == e.conv);
    /* LDS: 4 blocks at conv */
    NEAR(e.lds_load_pj, 400);
    NEAR(e.lds_store_pj, 800);
    CHECK(e.nnotes == 3);   /* smooth, LDS, the file's note */
    CHECK(strstr(e.note[0], "read 56.25 pJ, write 112.50 pJ, from conv at 800 mV"));
    CHECK(strcmp(e.note[2], "an assumption of the file") == 0);

    rft_dcp_in in = {.reads = 3, .writes = 5, .slice_cycles = 1000, .block_reads = 7,
                     .block_writes = 9, .com_blocks = 16, .dec_blocks = 8, .pt_reads = 8,
                     .pt_writes = 6, .psu_searches = 10, .lds_loads = 1, .lds_stores = 2,
                     .stall_cycles = 4, .movs = 1};
    rft_eresult r;
    /* Conv: static 10 mW x 1000 cycles x 2 ns = 20000 pJ; reads 3 x 4 x 100
     * = 1200; writes 5 x 4 x 200 = 4000 */
    rft_energy_conv(&e, &in, e.conv, &r);
    NEAR(r.cat[RFT_EU_STATIC], 20000);
    NEAR(r.cat[RFT_EU_READ], 1200);
    NEAR(r.cat[RFT_EU_WRITE], 4000);
    NEAR(r.total, 25200);
    CHECK(r.added == 0 && r.cycles == 1000 && r.vdd_mv == 800);
    /* Smooth: 7 x 2000 = 14000; 12 x 56.25 = 675; 20 x 112.5 = 2250 */
    rft_energy_conv(&e, &in, e.smooth, &r);
    NEAR(r.total, 14000 + 675 + 2250);
    /* DC-Patch at low: added = 4 + 1 x 4 + 1 x 6 = 14 cycles, 1014 cycles
     * at 2 ns: static 4 x 2028 = 8112; read 7 x 30 = 210; write 9 x 60 =
     * 540; Com/Dec 16 x 1 + 8 x 0.5 + (2 + 2 x 1) x 2028 = 8132; Patching
     * 8 x 0.25 + 6 x 0.75 + 10 x 0.1 + (0.5 + 1.5) x 2028 = 4063.5;
     * LDS 400 + 2 x 800 = 2000 */
    rft_energy_dcpatch(&e, &in, low, &r);
    NEAR(r.added, 14);
    NEAR(r.cat[RFT_EU_STATIC], 8112);
    NEAR(r.cat[RFT_EU_READ], 210);
    NEAR(r.cat[RFT_EU_WRITE], 540);
    NEAR(r.cat[RFT_EU_COMDEC], 8132);
    NEAR(r.cat[RFT_EU_PATCH], 4063.5);
    NEAR(r.cat[RFT_EU_LDS], 2000);
    NEAR(r.total, 8112 + 210 + 540 + 8132 + 4063.5 + 2000);

    /* counters records: every name is needed */
    rft_counters c;
    memset(&c, 0, sizeof c);
    static const char *const names[] = {
        "reads", "writes", "slice_cycles", "block_reads_compressed", "block_reads_uncompressed",
        "block_reads_mov", "block_writes_compressed", "block_writes_uncompressed",
        "block_writes_mispredicted", "block_writes_mov", "com_unit_blocks", "dec_unit_blocks",
        "pt_reads", "pt_writes", "psu_searches", "lds_loads", "lds_stores", "stall_cycles",
        "mov_injected"};
    const char *missing = NULL;
    for (int i = 0; i < 19; i++)
        CHECK(rft_counters_add(&c, names[i], (uint64_t)i + 1) == 0);
    rft_dcp_in d;
    CHECK(rft_dcp_in_from(&c, &d, &missing) == 0);
    CHECK(d.reads == 1 && d.block_reads == 4 + 5 + 6 && d.block_writes == 7 + 8 + 9 + 10 &&
          d.movs == 19 && d.stall_cycles == 18);
    c.n--;  /* drop mov_injected */
    CHECK(rft_dcp_in_from(&c, &d, &missing) == RFT_EFORMAT && strcmp(missing, "mov_injected") == 0);
}

static void test_undervolt_errors(void)
{
    rft_eparams e;
    static const struct { const char *from, *to, *msg; } bad[] = {
        {"com.static_mw = 2\n", "", "t.conf: missing key 'com.static_mw'"},
        {"com.static_mw = 2\n", "com.static_mw = -2\n", "t.conf: line 18: com.static_mw: '-2' is negative"},
        {"com.static_mw = 2\n", "com.static_mw = 2mW\n", "t.conf: line 18: com.static_mw: '2mW' is not a number"},
        {"com.static_mw = 2\n", "com.static_mw = 2\ncom.statc_mw = 2\n", "t.conf: line 19: unknown key 'com.statc_mw' for model undervolt"},
        {"slice.smooth.derive = conv\n", "", "t.conf: missing key 'slice.smooth.read_pj'"},
        {"slice.smooth.derive = conv\n", "slice.smooth.derive = nowhere\n", "t.conf: line 15: slice.smooth.derive: 'nowhere' is not another slice point"},
        {"model = undervolt\n", "model = fancy\n", "t.conf: line 1: model: 'fancy' is not undervolt or gating"},
        {"clock_mhz = 500\n", "clock_mhz = 0\n", "t.conf: line 2: clock_mhz: must be above 0"},
        {"geometry.lanes = 64\n", "geometry.lanes = 6.5\n", "t.conf: line 3: geometry.lanes: '6.5' is not a whole number from 1 to 1024"},
        {"lds.point = conv\n", "lds.point = moon\n", "t.conf: line 29: lds.point: 'moon' is not a slice point"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[sizeof uv_text + 128];
        const char *at = strstr(uv_text, bad[i].from);
        CHECK(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - uv_text), uv_text, bad[i].to,
                 at + strlen(bad[i].from));
        CHECK(load(&e, text) == RFT_EFORMAT);
        if (strcmp(why, bad[i].msg) != 0) {
            fprintf(stderr, "case %zu: got '%s', want '%s'\n", i, why, bad[i].msg);
            exit(1);
        }
    }
}

/* ---- the gating model (seed 002) ----------------------------------------------------- */
static const char gt_text[] =
    "model = gating\nclock_mhz = 1000\n"
    "geometry.lanes = 64\ngeometry.entries = 4\ngeometry.block_lanes = 16\n"
    "slice.read_pj = 10\nslice.write_pj = 20\nslice.leak_mw = 4\nslice.off_leak = 0\n"
    "ctable.read_pj = 1\nctable.write_pj = 2\nctable.leak_mw = 0.5\n"
    "rc.comp_pj = 0.5\nrc.comp_mw = 2\nrc.decomp_pj = 0.25\nrc.decomp_mw = 1\n"
    "wc.comp_pj = 0.4\nwc.comp_mw = 3\nwc.decomp_pj = 0.2\nwc.decomp_mw = 1.5\n"
    "units.comp = 1\nunits.decomp = 2\nwakeup.pj = 100\nwakeup.cycles = 10\n"
    "gating.bank_entries = 1\nperf.mov_cycles = 4\nperf.added_static = 1\n";

static void test_gating(void)
{
    rft_eparams e;
    CHECK(load(&e, gt_text) == 0);
    CHECK(e.model == RFT_EM_GATING && e.nnotes == 0);
    /* a slice of 4 entries x 2048 cells = 8192 cells, 1000 cycles at 1 ns */
    rft_gate_in in = {.reads = 3, .writes = 5, .slice_cycles = 1000};
    rft_eresult r;
    /* baseline: 4 mW x 1000 ns = 4000 pJ; 3 x 4 x 10 + 5 x 4 x 20 = 520 */
    rft_energy_baseline(&e, &in, &r);
    NEAR(r.cat[RFT_EG_LEAK_SLICE], 4000);
    NEAR(r.cat[RFT_EG_DYN_SLICE], 520);
    NEAR(r.total, 4520);
    CHECK(r.powered == 1 && r.added == 0);

    /* ARGO (no rft-gate): half the cells powered on average, 3 entries
     * woken by placements: 4 x 0.5 x 1000 = 2000; 520; 300 */
    in.powered_cell_cycles = 0.5 * 8192 * 1000;
    in.alloc_wakeups = 3;
    rft_energy_gating(&e, &in, 1, &r);
    NEAR(r.powered, 0.5);
    NEAR(r.total, 2000 + 520 + 300);
    CHECK(r.added == 0);

    /* RC: 1 wake-up (10 cycles) and 1 MOV (4): 1014 cycles; leakage
     * 4 x 0.5 x 1014 = 2028; units and table (2 + 2 x 1 + 0.5) x 1014 =
     * 4563; slice 9 x 10 + 16 x 20 = 410; logic 14 x 0.5 + 6 x 0.25 +
     * 3 x 1 + (2 + 1) x 2 = 17.5; wake-ups (1 + 3) x 100 = 400 */
    in.gate = RFT_GATE_RC;
    in.block_reads = 9, in.block_writes = 16, in.ct_reads = 3, in.ct_writes = 2, in.ct_inval = 1;
    in.comp_blocks = 14, in.decomp_blocks = 6, in.wakeups = 1, in.movs = 1;
    rft_energy_gating(&e, &in, 1, &r);
    NEAR(r.added, 14);
    NEAR(r.cat[RFT_EG_LEAK_SLICE], 2028);
    NEAR(r.cat[RFT_EG_LEAK_LOGIC], 4563);
    NEAR(r.cat[RFT_EG_DYN_SLICE], 410);
    NEAR(r.cat[RFT_EG_DYN_LOGIC], 17.5);
    NEAR(r.cat[RFT_EG_WAKEUP], 400);
    NEAR(r.total, 2028 + 4563 + 410 + 17.5 + 400);
    NEAR(r.slowdown_leak, (2 + 4.5) * 14);
    /* without the slowdown (rft-energy's default): the leakage over the
     * trace's 1000 cycles, that of the 14 added apart */
    rft_energy_gating(&e, &in, 0, &r);
    NEAR(r.cat[RFT_EG_LEAK_SLICE], 2000);
    NEAR(r.cat[RFT_EG_LEAK_LOGIC], 4500);
    NEAR(r.slowdown_leak, (2 + 4.5) * 14);
    NEAR(r.total, 2000 + 4500 + 410 + 17.5 + 400);

    /* WC: its own units, no table: (3 + 2 x 1.5) x 1014 = 6084;
     * 14 x 0.4 + 6 x 0.2 = 6.8 */
    in.gate = RFT_GATE_WC;
    in.ct_reads = in.ct_writes = in.ct_inval = 0;
    rft_energy_gating(&e, &in, 1, &r);
    NEAR(r.cat[RFT_EG_LEAK_LOGIC], 6084);
    NEAR(r.cat[RFT_EG_DYN_LOGIC], 6.8);
    NEAR(r.total, 2028 + 6084 + 410 + 6.8 + 400);

    /* off cells keeping a quarter of their leakage: share 0.5 + 0.25 x 0.5 */
    rft_params ps;
    rft_params_init(&ps);
    CHECK(rft_params_parse(&ps, "t.conf", gt_text, strlen(gt_text), why, sizeof why) == 0);
    CHECK(rft_params_set(&ps, "slice.off_leak", "0.25", "--set") == 0);
    CHECK(rft_eparams_load(&e, &ps, why, sizeof why) == 0);
    rft_energy_gating(&e, &in, 1, &r);
    NEAR(r.cat[RFT_EG_LEAK_SLICE], 4 * 0.625 * 1014);
    CHECK(rft_params_set(&ps, "slice.off_leak", "1.5", "--set") == 0);
    CHECK(rft_eparams_load(&e, &ps, why, sizeof why) == RFT_EFORMAT);
    CHECK(strcmp(why, "--set: slice.off_leak: '1.5' is not a share from 0 to 1") == 0);
    /* added cycles hidden: leakage over the trace's cycles only */
    CHECK(rft_params_set(&ps, "slice.off_leak", "0", "--set") == 0);
    CHECK(rft_params_set(&ps, "perf.added_static", "0", "--set") == 0);
    CHECK(rft_eparams_load(&e, &ps, why, sizeof why) == 0);
    rft_energy_gating(&e, &in, 1, &r);
    NEAR(r.added, 14);
    NEAR(r.cat[RFT_EG_LEAK_SLICE], 2000);
    NEAR(r.cat[RFT_EG_LEAK_LOGIC], 6000);
    rft_params_free(&ps);

    rft_counters c;
    memset(&c, 0, sizeof c);
    const char *missing;
    CHECK(rft_counters_add(&c, "slice_block_reads", 1) == 0);
    CHECK(rft_gate_in_from(&c, &in, &missing) == RFT_EFORMAT &&
          strcmp(missing, "slice_block_writes") == 0);
}

/* ---- powered cells -------------------------------------------------------------------- */
static void test_power(void)
{
    rft_power p;
    /* 4 entries of 8 bits, from cycle 100 */
    CHECK(rft_power_init(&p, 4, 8, 1, 100) == 0);
    /* first-fit: a window of 2 at 0; entry 0 written with 2 bits on at 200,
     * 8 again at 300; entries 2 and 3 never taken: off all along */
    rft_power_window(&p, 100, 0, 2, 1, 0);
    rft_power_write(&p, 200, 0, 2);
    rft_power_write(&p, 300, 0, RFT_NO_GATE);   /* ungated write: unchanged */
    rft_power_write(&p, 400, 0, 8);
    rft_power_window(&p, 500, 0, 2, 0, 0);      /* freed: keeps its power */
    /* entry 0: 8 x 100 + 2 x 200 + 8 x 600 = 6000; entry 1: 8 x 900 */
    CHECK(rft_power_total(&p, 1000) == 6000 + 7200);
    CHECK(p.wakeups == 0);
    /* an entry only read is in use too */
    rft_power_use(&p, 600, 3);
    CHECK(rft_power_total(&p, 1000) == 6000 + 7200 + 7200);
    rft_power_free(&p);

    /* gated placement (ARGO): off until placed, off again when freed */
    CHECK(rft_power_init(&p, 4, 8, 1, 0) == 0);
    rft_power_window(&p, 100, 3, 2, 1, 1);      /* entries 3 and 0 (wraps) */
    rft_power_write(&p, 150, 3, 4);
    rft_power_window(&p, 200, 3, 2, 0, 1);
    rft_power_window(&p, 300, 2, 2, 1, 1);      /* entries 2 and 3: 3 woken with every cell */
    /* entry 3: 8 x 50 + 4 x 50 + 8 x 700; entry 0: 8 x 100; entry 2: 8 x 700 */
    CHECK(rft_power_total(&p, 1000) == 400 + 200 + 5600 + 800 + 5600);
    CHECK(p.wakeups == 4);
    rft_power_free(&p);

    /* banks of 2 entries under ARGO: a bank is on while one entry is placed */
    CHECK(rft_power_init(&p, 4, 8, 2, 0) == 0);
    rft_power_window(&p, 0, 1, 1, 1, 1);        /* bank 0 (entries 0, 1) on */
    rft_power_window(&p, 100, 1, 1, 0, 1);      /* off */
    rft_power_window(&p, 200, 2, 1, 1, 1);      /* bank 1 on */
    CHECK(rft_power_total(&p, 300) == 16 * 100 + 16 * 100);
    CHECK(p.wakeups == 4);
    rft_power_free(&p);

    /* banks of 2, first-fit: a bank no window took is off, entry 3 shares
     * its bank with entry 2, taken: both on */
    CHECK(rft_power_init(&p, 5, 8, 2, 0) == 0);
    rft_power_window(&p, 50, 2, 1, 1, 0);
    CHECK(rft_power_total(&p, 100) == 2 * 8 * 100);
    rft_power_free(&p);
}

int main(void)
{
    test_params();
    test_undervolt();
    test_undervolt_errors();
    test_gating();
    test_power();
    printf("test_energy: ok\n");
    return 0;
}
