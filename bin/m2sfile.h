/* m2sfile.h - a Multi2Sim 4.2 --si-config file read into an rft_m2scfg
 * (lib/m2scfg.h), for rft-replay --model cu and rft-decode's clocks. */
#ifndef RFT_M2SFILE_H
#define RFT_M2SFILE_H

#include "m2scfg.h"

/* Read path over cfg (4.2's defaults or an earlier file); a file that
 * cannot be read, is over 1 MiB or does not parse: one line naming the
 * file and the line at fault, status 1. */
void m2s_read_config(rft_m2scfg *cfg, const char *path);

#endif
