/* m2sfile.c - a Multi2Sim 4.2 --si-config file read (m2sfile.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "m2sfile.h"

void m2s_read_config(rft_m2scfg *cfg, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("%s: cannot open", path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            if (cap > (1u << 20))
                die("%s: larger than 1 MiB", path);
            cap = cap ? 2 * cap : 4096;
            buf = xrealloc(buf, cap);
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    if (ferror(f))
        die("%s: read error", path);
    fclose(f);
    char why[1024];     /* holds a whole line of the ini (m2scfg.c: under 512) quoted */
    if (rft_m2scfg_parse(cfg, buf, n, why, sizeof why))
        die("%s: %s", path, why);
    free(buf);
}
