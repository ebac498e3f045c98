/* prompt.h — the screen's prompts (prompt.c): the filters, the pids, the interval, the sort menu,
 * the column setup, the Ctrl-T question and a recording's time to go to. */
#ifndef DELAYTOP_PROMPT_H
#define DELAYTOP_PROMPT_H

#include <stdint.h>
#include <wchar.h>

#include "viewstate.h"

/* Opens one with the text to edit; a key while one is open. */
void prompt_open(struct view *v, enum prompt_kind kind, const char *initial);
void prompt_open_pids(struct view *v);
void prompt_key(struct view *v, wint_t c, int is_key, uint64_t *deadline);

#endif
