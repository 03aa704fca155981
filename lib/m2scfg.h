/* m2scfg.h - the GPU configuration of a Multi2Sim 4.2 Southern Islands run
 * (its --si-config ini), 4.2's defaults where a key is absent (issue 32).
 * No I/O: the caller gives the file's text. */
#ifndef RFT_M2SCFG_H
#define RFT_M2SCFG_H

#include <stddef.h>
#include <stdint.h>

/* the most keys 4.2 reads that the model does not use (rft_m2scfg.other) */
#define RFT_M2SCFG_OTHERS 64

typedef struct rft_m2scfg {
    uint32_t frequency;         /* [ Device ] Frequency, MHz (925) */
    uint32_t num_cu;            /* [ Device ] NumComputeUnits (32) */
    uint32_t num_pools;         /* [ ComputeUnit ] NumWavefrontPools (4) */
    uint32_t max_wg_per_pool;   /* [ ComputeUnit ] MaxWorkGroupsPerWavefrontPool (10) */
    uint32_t max_wf_per_pool;   /* [ ComputeUnit ] MaxWavefrontsPerWavefrontPool (10) */
    uint32_t rew_latency;       /* [ SIMDUnit ] ReadExecWriteLatency (8) */
    uint32_t rew_buffer;        /* [ SIMDUnit ] ReadExecWriteBufferSize: as 4.2 uses it,
                                   one instruction (bench/m2s-validation/README) */
    uint32_t vm_write_latency;  /* [ VectorMemUnit ] WriteLatency (1) */
    uint32_t vm_write_buffer;   /* [ VectorMemUnit ] WriteBufferSize (1) */
    uint32_t lds_write_latency; /* [ LDSUnit ] WriteLatency (1) */
    uint32_t lds_write_buffer;  /* [ LDSUnit ] WriteBufferSize (1) */
    /* the keys the model does not use (rft_m2scfg_other), as the files
     * read set them: 0 not set, else 1 + a number's value or a hash of a
     * text's (never 0), so that a what-if that changes one can be told from
     * one that does not (rft-replay says so above its table); last: the
     * model compares the fields before it (cumodel.c, col_init) */
    uint32_t other[RFT_M2SCFG_OTHERS];
} rft_m2scfg;

void rft_m2scfg_default(rft_m2scfg *c);
/* Parse text (len bytes) over c (defaults or an earlier file): 0, or -1
 * with why (line number and the section, key or value at fault).  The keys
 * known are those 4.2 reads in [ Device ], [ ComputeUnit ], [ FrontEnd ],
 * [ SIMDUnit ], [ ScalarUnit ], [ BranchUnit ], [ LDSUnit ], [ VectorMemUnit ],
 * [ LocalDataShare ] and [ SISpatialReport ], section by section (those
 * the model does not use are read and their values kept in other[]); any
 * other section or key, which 4.2 would refuse too, is an error that
 * names it. */
int rft_m2scfg_parse(rft_m2scfg *c, const char *text, size_t len, char *why, size_t whylen);
/* Key i of those the model does not use (rft_m2scfg.other), its section
 * in *sec; NULL past the last */
const char *rft_m2scfg_other(unsigned i, const char **sec);
/* A line is refused past RFT_M2SCFG_LINE - 1 bytes; so a why of
 * RFT_M2SCFG_WHY bytes holds any message whole (one line quoted, its
 * section's name, under 64, and the words around them) */
#define RFT_M2SCFG_LINE 512
#define RFT_M2SCFG_WHY (2 * RFT_M2SCFG_LINE)

/* The clocks of the run, in MHz, as its pipeline trace (--trace) counts
 * them: mhz[0] the GPU's ([ Device ] Frequency), mhz[1] the trace's, the
 * fastest clock of the run: the GPU's or 1000, that of 4.2's memory system
 * and network (their own files, which could say otherwise, are not read). */
void rft_m2scfg_clocks(const rft_m2scfg *c, uint32_t mhz[2]);

#endif
