/* psi.h — pressure stall information: its types, the resources' names, parsing a pressure file's
 * text and interval percentages. Pure; reading the files is psifile.h's. */
#ifndef DELAYTOP_PSI_H
#define DELAYTOP_PSI_H

#include <stdint.h>

enum psi_resource_id { PSI_CPU, PSI_MEMORY, PSI_IO, PSI_IRQ, PSI_COUNT };

struct psi_line {
	int present;
	double avg10, avg60, avg300; /* percent, as the kernel averages them */
	uint64_t total_us;           /* cumulative stall time */
	double pct;                  /* percent of the last interval; NAN until there are two readings */
};

struct psi_resource {
	int present; /* the file exists and parsed */
	struct psi_line some, full;
};

struct psi_snapshot {
	uint64_t when_ns; /* CLOCK_MONOTONIC time of the reading */
	struct psi_resource res[PSI_COUNT];
};

/* The file name of a resource ("cpu") and its label for people (N_("CPU")). */
const char *psi_name(int res);
const char *psi_label(int res);
/* The columns the widest label takes, translated. */
int psi_label_width(void);

/* Parses the text of one pressure file into *out; a line that is missing or malformed stays not
 * present. Returns 0 when at least one line parsed, -EINVAL otherwise. Pure. */
int psi_parse(const char *text, struct psi_resource *out);

/* Fills the pct of every line of cur from the total deltas since prev. Pure. */
void psi_interval(const struct psi_snapshot *prev, struct psi_snapshot *cur);

#endif
