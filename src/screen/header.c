/* header.c — the screen's header as text (see header.h). */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "header.h"
#include "i18n.h"
#include "timing.h"

static void uptime(char *buf, size_t size)
{
	uint64_t s = timing_boot_ns() / 1000000000u;

	if (s >= 86400)
		snprintf(buf, size, F_(N_("up %llud %02llu:%02llu")), (unsigned long long)(s / 86400),
			 (unsigned long long)(s % 86400 / 3600), (unsigned long long)(s % 3600 / 60));
	else
		snprintf(buf, size, F_(N_("up %02llu:%02llu")), (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
}

static void filter_text(const struct view *v, struct outbuf *o)
{
	size_t start;

	out_str(o, _("filter"));
	start = o->len;
	if (v->command_filter[0])
		out_printf(o, " /%s", v->command_filter);
	if (v->comm_filter[0]) {
		char name[4 * sizeof(v->comm_filter)];

		text_clean(name, sizeof(name), v->comm_filter); /* a name may hold control characters */
		out_printf(o, F_(N_(" command %s")), name);
	}
	if (v->spec.filter.by_uid)
		out_printf(o, F_(N_(" user %s")), v->user_text);
	if (v->npids)
		out_printf(o, ngettext(" %zu pid", " %zu pids", v->npids), v->npids);
	if (v->spec.filter.active)
		out_str(o, _(" active"));
	if (v->spec.filter.hide_exited)
		out_str(o, _(" no exited"));
	if (v->spec.filter.unit) /* --unit's pattern: the bytes of unit names and patterns only */
		out_printf(o, F_(N_(" unit %s")), v->spec.filter.unit);
	if (o->len == start)
		out_str(o, _(" none"));
}

/* The interval as typed: 1, 0.5, 0.25, not rounded to one decimal. */
static void interval_text(struct outbuf *o, double s)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%.2f", s);

	while (n > 0 && buf[n - 1] == '0')
		n--;
	if (n > 0 && buf[n - 1] == '.')
		n--;
	out_mem(o, buf, (size_t)n);
	out_char(o, 's');
}

/* Room for every part there may be: the system's state, each trigger, the view's. */
#define HEADER_PARTS (16 + TRIGGER_MAX)

/* The header's parts, each ending at end[i] in text, in the order shown: the system's state,
 * then from part view on what the screen shows. */
struct header {
	struct outbuf text;
	size_t end[HEADER_PARTS];
	int n, view;
};

/* Ends a part; past the room for them, the text goes on in the last. */
static void part_done(struct header *h)
{
	if (h->n < HEADER_PARTS)
		h->end[h->n++] = h->text.len;
	else
		h->end[HEADER_PARTS - 1] = h->text.len;
}

/* The mark of each --trigger that fired: its spec, how often, and when it last did. */
static void trigger_parts(const struct view *v, struct header *h)
{
	unsigned counts[TRIGGER_MAX];
	time_t last[TRIGGER_MAX];
	uint8_t gone[TRIGGER_MAX];

	if (!v->ntriggers || !v->reader)
		return;
	reader_fired(v->reader, counts, last, gone);
	for (int i = 0; i < v->ntriggers; i++) {
		char when[16];
		struct tm tm;

		if (gone[i]) {
			out_printf(&h->text, F_(N_("TRIGGER %s ended: its cgroup is gone")), v->triggers[i].text);
			part_done(h);
			continue;
		}
		if (!counts[i] || !localtime_r(&last[i], &tm))
			continue;
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
		out_printf(&h->text, F_(N_("TRIGGER %s fired %ux, last %s")), v->triggers[i].text, counts[i], when);
		part_done(h);
	}
}

/* The time of the reading and the uptime; a recording's time, state of play, file and host. */
static void clock_parts(const struct view *v, struct header *h)
{
	char up[32], when[16];
	struct tm tm;
	time_t t = v->snap.wall.tv_sec;

	if (v->replay) {
		v->src->when(v, &h->text);
		part_done(h);
		v->src->state(v, &h->text);
		part_done(h);
		v->src->origin(v, &h->text);
		part_done(h);
		return;
	}
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	uptime(up, sizeof(up));
	out_printf(&h->text, "%s %s", when, up);
	part_done(h);
}

static void system_parts(const struct view *v, struct header *h)
{
	struct outbuf *o = &h->text;

	clock_parts(v, h);
	out_printf(o, F_(N_("%u proc %u thr")), v->snap.nprocs, v->snap.nthreads);
	part_done(h);
	out_printf(o, F_(N_("delayacct %s")),
		   v->snap.delayacct == DELAYACCT_ON ? _("on") : v->snap.delayacct == DELAYACCT_OFF ? _("OFF") : "?");
	part_done(h);
	out_printf(o, F_(N_("privileges %s")), v->snap.limited ? _("limited") : _("full"));
	part_done(h);
	if (v->snap.why.state != WHY_OFF) { /* --why, or y */
		out_printf(o, F_(N_("why %s")), v->snap.why.state == WHY_ON ? _("on") : _("unavailable"));
		part_done(h);
	}
	if (v->snap.limited) {
		out_str(o, _("exited tasks not seen"));
		part_done(h);
	}
	if (v->listening) {
		out_printf(o, F_(N_("exits lost %llu")), (unsigned long long)v->snap.exits_lost);
		part_done(h);
	}
	if (v->snap.tasks_from == TASKS_WALKED) { /* the usual, followed, goes unsaid */
		out_str(o, _("tasks walked"));
		part_done(h);
	}
	trigger_parts(v, h);
}

/* Which cgroup hierarchy is followed, and where (listing_hierarchy_note). */
static void hierarchy_part(const struct view *v, struct header *h)
{
	if (v->have_snap && listing_hierarchy_note(&v->snap, &v->spec.display, 1, &h->text))
		part_done(h);
}

static void view_parts(const struct view *v, struct header *h)
{
	struct outbuf *o = &h->text;

	h->view = h->n;
	if (v->paused && !v->replay)
		out_str(o, _("PAUSED "));
	out_str(o, listing_rows_text(&v->spec.display));
	part_done(h);
	if (v->cgroup_filter[0]) {
		out_printf(o, F_(N_("cgroup %s")), v->cgroup_filter);
		part_done(h);
	}
	if (!v->replay) {
		out_str(o, _("every "));
		interval_text(o, v->delay_s);
	} else if (v->snap.interval_s > 0) { /* a recording's: the reading's own */
		out_str(o, _("interval "));
		interval_text(o, v->snap.interval_s);
	} else {
		out_str(o, _("a first reading: no rates"));
	}
	part_done(h);
	out_printf(o, "%s%s", v->spec.display.accumulate ? _("since start, ") : "",
		   metric_short(v->spec.display.metric, v->spec.display.accumulate));
	part_done(h);
	out_printf(o, F_(N_("sort %s%s")), column_get(v->spec.sort_col, &v->spec.display).key,
		   v->spec.reverse ? _(" reversed") : "");
	part_done(h);
	filter_text(v, o);
	part_done(h);
	hierarchy_part(v, h);
}

int header_layout(const struct view *v, int cols, int max_lines, struct outbuf *out)
{
	struct header h = { 0 };
	int lines = 1, width = 0;

	system_parts(v, &h);
	view_parts(v, &h);
	for (int i = 0; i < h.n; i++) {
		size_t from = i ? h.end[i - 1] : 0;
		int w = text_width_n(h.text.data + from, h.end[i] - from);

		if (width && lines < max_lines && (i == h.view || width + 2 + w > cols)) {
			out_char(out, '\0');
			width = 0;
			lines++;
		}
		if (width) {
			out_str(out, "  ");
			width += 2;
		}
		out_mem(out, h.text.data + from, h.end[i] - from);
		width += w;
	}
	out_char(out, '\0');
	out_free(&h.text);
	return lines;
}
