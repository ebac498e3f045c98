/* psifile.h — reading pressure files (the kernel edge of psi.h). */
#ifndef DELAYTOP_PSIFILE_H
#define DELAYTOP_PSIFILE_H

#include <stdint.h>

#include "psi.h"

/* Reads every pressure file under dir: "cpu" and the others with suffix "" in /proc/pressure,
 * "cpu.pressure" with suffix ".pressure" in a cgroup. Each file is optional on its own. With
 * system set, CPU "full" is dropped: at system level the kernel reports it as always 0. */
void psifile_read(const char *dir, const char *suffix, int system, uint64_t when_ns, struct psi_snapshot *out);

#endif
