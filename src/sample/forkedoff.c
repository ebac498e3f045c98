/* forkedoff.c — the periods in which kernel.task_delayacct was off. */
#include "config.h"

#include <string.h>

#include "delayacct.h"
#include "forkedoff.h"

void forkedoff_init(struct forkedoff *f)
{
	memset(f, 0, sizeof(*f));
}

void forkedoff_track(struct forkedoff *f, int state, uint64_t mono, uint64_t boot)
{
	struct off_window *w;

	if (state == DELAYACCT_ON) {
		if (f->open) {
			f->off[f->noff - 1].hi_mono = mono;
			f->off[f->noff - 1].hi_boot = boot;
			f->open = 0;
		}
		f->on_mono = mono;
		f->on_boot = boot;
		return;
	}
	if (state == DELAYACCT_OFF)
		f->off_mono = mono;
	if (state != DELAYACCT_OFF || f->open)
		return;
	if (f->noff == FORKEDOFF_WINDOWS) { /* the two oldest become one, which covers both */
		f->off[1].lo_mono = f->off[0].lo_mono;
		f->off[1].lo_boot = f->off[0].lo_boot;
		memmove(&f->off[0], &f->off[1], (FORKEDOFF_WINDOWS - 1) * sizeof(f->off[0]));
		f->noff--;
	}
	w = &f->off[f->noff++];
	*w = (struct off_window){ f->on_mono, f->on_boot, UINT64_MAX, UINT64_MAX };
	f->open = 1;
}

void forkedoff_since_boot(struct forkedoff *f, uint64_t boot_hi)
{
	f->off[0] = (struct off_window){ 0, 0, boot_hi, boot_hi };
	f->noff = 1;
}

int forkedoff_maybe(const struct forkedoff *f, uint64_t start, int boot, int process)
{
	for (int i = 0; i < f->noff; i++) {
		const struct off_window *w = &f->off[i];

		if (start <= (boot ? w->hi_boot : w->hi_mono) && (process || start >= (boot ? w->lo_boot : w->lo_mono)))
			return 1;
	}
	return 0;
}
