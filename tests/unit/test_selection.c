/* test_selection.c — -p: thread ids resolve to their process, each id counts once, and thread mode
 * shows a thread listed alone without its siblings. */
#include "config.h"

#include "selection.h"
#include "tap.h"

/* 10 is a process with threads 11 and 12; 99 is gone. */
static uint32_t tgid_of(void *arg, uint32_t id)
{
	(void)arg;
	return id == 10 || id == 11 || id == 12 ? 10 : id == 20 ? 20 : 0;
}

int main(void)
{
	struct selection sel;
	static const uint32_t ids[] = { 11, 20, 11, 99 };
	static const uint32_t both[] = { 10, 11 };

	selection_init(&sel);
	ok(selection_has(&sel, 1, 1, 0) && selection_has(&sel, 1, 2, 1), "an empty selection has every task");
	selection_set(&sel, ids, 4, 0, tgid_of, NULL);
	is_int(sel.npids, 3, "three processes: 10 (through thread 11), 20 and 99 (gone, kept as it is)");
	ok(sel.pids[0] == 10 && sel.pids[1] == 20 && sel.pids[2] == 99, "in the order given, each once");
	is_str(sel.notice, "11 is a thread of process 10: showing the process", "process mode says what it made of 11");
	ok(selection_has(&sel, 10, 10, 0) && !selection_has(&sel, 30, 30, 0), "process mode: the process is selected");
	selection_set(&sel, ids, 4, 1, tgid_of, NULL);
	is_str(sel.notice, "", "thread mode needs no notice");
	ok(selection_has(&sel, 10, 11, 1) && !selection_has(&sel, 10, 12, 1) && selection_has(&sel, 20, 21, 1),
	   "thread mode: thread 11 alone, but every thread of a process listed itself");
	selection_set(&sel, both, 2, 1, tgid_of, NULL);
	ok(selection_has(&sel, 10, 12, 1), "a process listed too gives all its threads");
	selection_free(&sel);
	return tap_done();
}
