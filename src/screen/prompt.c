/* prompt.c — the screen's prompts: the line being typed (whole characters, never cut), and what
 * each answer does: the command, user and pid filters, the interval, the sort menu, the column
 * setup, the question before switching kernel.task_delayacct and a recording's time to go to. */
#include "config.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "acctswitch.h"
#include "format.h"
#include "i18n.h"
#include "prompt.h"

void prompt_open(struct view *v, enum prompt_kind kind, const char *initial)
{
	v->prompt = kind;
	v->input_too_long = 0;
	snprintf(v->input, sizeof(v->input), "%s", initial);
	v->input_offered = v->input[0] != '\0';
}

/* The pid prompt offers the current list to edit, whole or not at all: a list cut in the middle
 * of a pid would quietly select other tasks when accepted. */
void prompt_open_pids(struct view *v)
{
	char list[sizeof(v->input)];
	size_t len = 0;

	list[0] = '\0';
	for (size_t i = 0; i < v->npids; i++) {
		int n = snprintf(list + len, sizeof(list) - len, "%s%u", i ? "," : "", v->pids[i]);

		if (n < 0 || (size_t)n >= sizeof(list) - len) {
			list[0] = '\0';
			break;
		}
		len += (size_t)n;
	}
	prompt_open(v, PROMPT_PID, list);
	v->input_hides_pids = v->npids && !list[0];
}

static void input_append(struct view *v, wint_t wc)
{
	char mb[MB_LEN_MAX];
	mbstate_t st;
	size_t len = strlen(v->input), n;

	memset(&st, 0, sizeof(st));
	n = wcrtomb(mb, (wchar_t)wc, &st);
	if (n == (size_t)-1)
		return;
	if (len + n >= sizeof(v->input)) { /* never cut: a list cut in a number selects other tasks */
		v->input_too_long = 1;
		return;
	}
	memcpy(v->input + len, mb, n);
	v->input[len + n] = '\0';
}

static void input_clear(struct view *v)
{
	v->input[0] = '\0';
	v->input_too_long = 0;
}

/* Removes the last character, which may be several bytes. */
static void input_backspace(struct view *v)
{
	size_t len = strlen(v->input);

	while (len > 0) {
		unsigned char c = (unsigned char)v->input[--len];

		if ((c & 0xc0) != 0x80)
			break;
	}
	v->input[len] = '\0';
}

static void apply_user(struct view *v)
{
	char err[256];
	uint32_t uid;

	if (!v->input[0]) {
		v->spec.filter.by_uid = 0;
		v->user_text[0] = '\0';
		return;
	}
	if (optvalue_parse_user(v->input, &uid, err, sizeof(err)) < 0) {
		view_say(v, "%s", err);
		return;
	}
	v->spec.filter.by_uid = 1;
	v->spec.filter.uid = uid;
	str_copy(v->user_text, sizeof(v->user_text), v->input);
}

/* The pid prompt does what -p does: it restricts both the readings and the rows. */
static void apply_pids(struct view *v)
{
	char err[256];
	uint32_t *pids = NULL;
	size_t n = 0;

	if (v->input[0] && optvalue_parse_pids(v->input, &pids, &n, err, sizeof(err)) < 0) {
		view_say(v, "%s", err);
		free(pids);
		return;
	}
	free(v->pids);
	v->pids = pids;
	v->npids = n;
	v->src->pids(v, pids, n);
}

static void apply_delay(struct view *v, uint64_t *deadline)
{
	char err[256];
	double d;

	if (optvalue_parse_delay(v->input, &d, err, sizeof(err)) < 0) {
		view_say(v, "%s", err);
		return;
	}
	*deadline = *deadline - (uint64_t)(v->delay_s * 1e9) + (uint64_t)(d * 1e9);
	v->delay_s = d;
}

/* Sets the switch to what the question asked, whatever changed it since. */
static void toggle_delayacct(struct view *v)
{
	int on = v->delayacct_target;
	int rc = acctswitch_set(on);

	if (rc < 0)
		view_say(v, F_(N_("cannot switch kernel.task_delayacct: %s")), strerror(-rc));
	else
		view_say(v, on ? F_(N_("kernel.task_delayacct is now on: tasks started from now on report every delay"))
			  : F_(N_("kernel.task_delayacct is now off")));
}

static void finish_prompt(struct view *v, uint64_t *deadline)
{
	enum prompt_kind kind = v->prompt;

	v->prompt = PROMPT_NONE;
	if (v->input_too_long && kind != PROMPT_SORT) {
		view_say(v, F_(N_("input longer than %zu bytes: not applied")), sizeof(v->input) - 1);
		return;
	}
	v->message[0] = '\0'; /* an error about an earlier answer no longer holds */
	switch (kind) {
	case PROMPT_COMMAND: str_copy(v->command_filter, sizeof(v->command_filter), v->input); break;
	case PROMPT_USER: apply_user(v); break;
	case PROMPT_PID: apply_pids(v); break;
	case PROMPT_DELAY: apply_delay(v, deadline); break;
	case PROMPT_TIME: v->src->jump(v, v->input, deadline); break;
	case PROMPT_SORT: v->spec.sort_col = v->menu; break;
	default: break;
	}
	view_rebuild(v);
}

static int is_enter(wint_t c, int is_key)
{
	return (!is_key && (c == '\n' || c == '\r')) || (is_key && c == KEY_ENTER);
}

/* The column setup (F2): Up/Down (k/j) choose, Space shows or hides, [ and ] (F7, F8) move the
 * column, s sorts by it, W writes the settings, Enter, Esc, q or F2 close. */
static void columns_key(struct view *v, wint_t c, int is_key)
{
	int ids[COL_COUNT], n, at = colset_menu(&v->cols, &v->spec.display, v->menu, ids, &n);

	if ((is_key && c == KEY_UP) || (!is_key && c == 'k'))
		v->menu = ids[at > 0 ? at - 1 : 0];
	else if ((is_key && c == KEY_DOWN) || (!is_key && c == 'j'))
		v->menu = ids[at + 1 < n ? at + 1 : at];
	else if (!is_key && c == ' ')
		colset_toggle(&v->cols, v->menu, &v->spec.display);
	else if ((!is_key && c == '[') || (is_key && c == KEY_F(7)))
		colset_move(&v->cols, v->menu, -1, &v->spec.display);
	else if ((!is_key && c == ']') || (is_key && c == KEY_F(8)))
		colset_move(&v->cols, v->menu, 1, &v->spec.display);
	else if (!is_key && c == 's')
		v->spec.sort_col = v->menu;
	else if (!is_key && c == 'W')
		view_write_settings(v);
	else if (is_enter(c, is_key) || (!is_key && (c == KEY_ESC || c == 'q')) || (is_key && c == KEY_F(2)))
		v->prompt = PROMPT_NONE;
	v->spec.display.nchosen = v->cols.n;
	view_rebuild(v);
}

/* A key while a prompt is open. */
void prompt_key(struct view *v, wint_t c, int is_key, uint64_t *deadline)
{
	if (v->prompt == PROMPT_COLUMNS) {
		columns_key(v, c, is_key);
		return;
	}
	if (v->prompt == PROMPT_DELAYACCT) {
		char answer[2] = { (char)c, '\0' };

		v->prompt = PROMPT_NONE;
		if (!is_key && c < 0x80 && rpmatch(answer) == 1) /* the locale's yes: y, or j in German */
			toggle_delayacct(v);
		return;
	}
	if (v->prompt == PROMPT_SORT) {
		if (is_key && (c == KEY_UP || c == KEY_LEFT))
			v->menu = column_step(v->menu, -1, &v->spec.display);
		else if (is_key && (c == KEY_DOWN || c == KEY_RIGHT))
			v->menu = column_step(v->menu, 1, &v->spec.display);
		else if (is_enter(c, is_key))
			finish_prompt(v, deadline);
		else if (!is_key && (c == KEY_ESC || c == 'q'))
			v->prompt = PROMPT_NONE;
		return;
	}
	if (is_enter(c, is_key)) {
		finish_prompt(v, deadline);
	} else if (!is_key && c == KEY_ESC) {
		if (v->prompt == PROMPT_COMMAND) { /* Esc clears the command filter */
			v->command_filter[0] = '\0';
			view_rebuild(v);
		}
		v->prompt = PROMPT_NONE;
	} else if ((is_key && c == KEY_BACKSPACE) || (!is_key && (c == 127 || c == 8))) {
		if (v->input_offered) /* the offered value goes whole, as a selected text does */
			input_clear(v);
		else
			input_backspace(v);
	} else if (!is_key && c == ('U' & 0x1f)) {
		input_clear(v);
	} else if (!is_key && c >= ' ' && c != 127) {
		if (v->input_offered) /* typing replaces the offered value */
			input_clear(v);
		input_append(v, c);
	}
	v->input_offered = 0; /* any key but Enter and Esc: what is there now is being edited (Right or
				 End keep the offered value to edit at its end) */
	if (v->prompt == PROMPT_COMMAND) { /* the command filter follows the typing */
		str_copy(v->command_filter, sizeof(v->command_filter), v->input);
		view_rebuild(v);
	}
}
