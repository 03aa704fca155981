/* m2sfile.c - a Multi2Sim 4.2 --si-config file read (m2sfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "m2sfile.h"

void m2s_read_config(rft_m2scfg *cfg, const char *path)
{
    size_t n;
    char *buf = cli_read_file(path, 1u << 20, &n);
    if (!buf)
        die("%s: %s", path, errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
    char why[RFT_M2SCFG_WHY];
    if (rft_m2scfg_parse(cfg, buf, n, why, sizeof why))
        die("%s: %s", path, why);
    free(buf);
}
