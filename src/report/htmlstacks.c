/* htmlstacks.c — the HTML reports' section of off-CPU stacks (--why). A recording's: a flame
 * graph (flame.h) of the stacks recorded with each trigger event (the HTMLREP_EVENT_FLAMES
 * longest, in order of time), the stalled tasks side by side, then one of each of the
 * HTMLREP_FLAMES tasks whose stacks add up longest over the window; where the readings carry no
 * stacks, one sentence saying so and how to get them. Command mode's: one flame graph per state
 * of the run's stacks, or one sentence. */
#include "config.h"

#include <stdio.h>

#include "html.h"
#include "htmlrep.h"
#include "i18n.h"

/* The figure of one event's stacks. */
static void event_flame(struct outbuf *o, const struct hr_event *e, size_t i)
{
	char id[48], when[64], caption[512];

	snprintf(id, sizeof(id), "flame-event-%zu", i + 1);
	htmlrep_time_text(when, sizeof(when), e->t);
	snprintf(caption, sizeof(caption), F_(N_("%s, %s%s%s: the stalled tasks' stacks, %.1f ms off the CPU.")),
		 when, e->spec.text, e->spec.cgroup[0] ? " " : "", e->spec.cgroup, flame_ms(e->flame));
	flame_figure(o, e->flame, id, caption);
}

/* The figure of one task's stacks over the window. */
static void task_flame(struct outbuf *o, const struct hr_task *t)
{
	char id[48], name[256], caption[512];

	snprintf(id, sizeof(id), "flame-task-%u", t->tid ? t->tid : t->pid);
	htmlrep_task_name(name, sizeof(name), t->comm, t->pid, t->tid);
	snprintf(caption, sizeof(caption), F_(N_("%s: %.1f ms off the CPU in the stacks recorded.")), name,
		 flame_ms(t->flame));
	flame_figure(o, t->flame, id, caption);
}

void htmlrep_stacks(struct outbuf *o, const struct htmlrep *h)
{
	const struct hr_task *top[HTMLREP_FLAMES];
	size_t n = htmlrep_top_stack_tasks(h, top, HTMLREP_FLAMES), events = 0;
	char text[512];

	html_wrap(o, "<section id=\"stacks\"><h2>", _("Where they waited: off-CPU stacks (--why)"), "</h2>\n");
	if (!h->nstacks) {
		html_wrap(o, "<p class=\"none\" id=\"stacks-none\">",
			  _("These readings carry no off-CPU stacks. A recording keeps them when made with --why "
			    "and --trigger: when a trigger fires, the stacks of the tasks that stalled are recorded "
			    "with the event."),
			  "</p></section>\n");
		return;
	}
	html_wrap(o, "<p>",
		  _("Each bar is a function, as wide as its share of the time off the CPU, with the functions it "
		    "called below it; above the functions, the task and the state it waited in. Hover over a bar "
		    "for its full name and time."),
		  "</p>\n");
	for (size_t i = 0; i < h->nevents; i++)
		events += h->events[i].flame != NULL;
	if (events) {
		html_wrap(o, "<h3>", _("At each trigger event"), "</h3>\n");
		if (h->flames_dropped) {
			snprintf(text, sizeof(text),
				 F_(N_("%llu more events had stacks: drawn are the %d whose stacks add up longest.")),
				 (unsigned long long)h->flames_dropped, HTMLREP_EVENT_FLAMES);
			html_wrap(o, "<p class=\"none\" id=\"flames-dropped\">", text, "</p>\n");
		}
		for (size_t i = 0; i < h->nevents; i++)
			if (h->events[i].flame)
				event_flame(o, &h->events[i], i);
	}
	snprintf(text, sizeof(text), F_(N_("The tasks whose stacks add up longest (at most %d)")), HTMLREP_FLAMES);
	html_wrap(o, "<h3>", text, "</h3>\n");
	for (size_t i = 0; i < n; i++)
		task_flame(o, top[i]);
	out_str(o, "</section>\n");
}

/* ---- command mode ---- */

/* The figure of the run's stacks in one state, when it has any. */
static void state_flame(struct outbuf *o, const struct htmlrep_run *w, uint32_t state)
{
	struct flame f;
	char id[48], caption[512];
	size_t n;

	flame_init(&f, w->command);
	n = flame_add_run(&f, NULL, w->stacks, w->nstacks, state);
	if (n) {
		snprintf(id, sizeof(id), "flame-state-%s", stk_state_name(state));
		snprintf(caption, sizeof(caption),
			 F_(N_("State %s: %.1f ms off the CPU in the command's processes; different stacks: %zu.")),
			 stk_state_name(state), flame_ms(&f), n);
		flame_figure(o, &f, id, caption);
	}
	flame_free(&f);
}

void htmlrep_run_stacks(struct outbuf *o, const struct htmlrep_run *w)
{
	static const uint32_t order[] = { STK_D, STK_S, STK_RUNNABLE }; /* as the text and JSON reports */
	char text[512];

	html_wrap(o, "<section id=\"stacks\"><h2>", _("Where it waited: off-CPU stacks (--why)"), "</h2>\n");
	if (!w->why || w->why_off) {
		html_wrap(o, "<p class=\"none\" id=\"stacks-none\">",
			  !w->why ? _("This run took no off-CPU stacks: run the command with --why to see where it "
				      "waited.")
				  : _("--why could not run here (standard error said why), so this run has no "
				      "off-CPU stacks."),
			  "</p></section>\n");
		return;
	}
	if (!w->nstacks)
		html_wrap(o, "<p class=\"none\" id=\"stacks-none\">",
			  _("The command's processes did not leave a CPU while they were followed: no stacks."),
			  "</p>\n");
	else
		html_wrap(o, "<p>",
			  _("A flame graph for each state the command's processes waited in, each as wide as the page, "
			    "so that a short state is not squeezed beside a long one. Each bar is a function, as wide "
			    "as its share of the state's time off the CPU, with the functions it called below it; on "
			    "top, the command and the state. Hover over a bar for its full name and time."),
			  "</p>\n");
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		state_flame(o, w, order[k]);
	if (w->lost) {
		snprintf(text, sizeof(text),
			 F_(N_("%llu off-CPU times or stacks did not fit (in the kernel's maps, or beyond the run's %d "
			       "different stacks) and are not drawn.")),
			 (unsigned long long)w->lost, STACKRUN_MAX);
		html_wrap(o, "<p class=\"none\" id=\"stacks-lost\">", text, "</p>\n");
	}
	out_str(o, "</section>\n");
}
