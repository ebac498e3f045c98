/* detailchart.c — the detail view's strip charts (see detailchart.h). */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cgtree.h"
#include "detailchart.h"
#include "format.h"
#include "i18n.h"
#include "psi.h"
#include "strip.h"

static void clock_text(double epoch_s, char *buf, size_t size)
{
	time_t t = (time_t)epoch_s;
	struct tm tm;

	if (isnan(epoch_s) || epoch_s <= 0 || !localtime_r(&t, &tm))
		str_copy(buf, size, "-");
	else
		strftime(buf, size, "%H:%M:%S", &tm);
}

/* The time axis under the charts: the first reading's time at the left, the last's at the right;
 * in a recording's window a mark under the reading shown. */
static void time_axis(const struct chart_span *c, textline_put *put, void *ctx, int indent, int width)
{
	char a[16], b[16], buf[1024];
	int gap;
	long at = c->windowed ? history_column(c->h, c->shown, (size_t)width) : -1;

	if (at >= 0 && at < 1000) {
		snprintf(buf, sizeof(buf), "%*s^ %s", indent + (int)at, "", _("shown"));
		put(ctx, A_NORMAL, buf);
	}

	clock_text(history_since(c->h), a, sizeof(a));
	clock_text(c->h->last, b, sizeof(b));
	gap = width - (int)strlen(a) - (int)strlen(b);
	if (gap < 1)
		gap = 1;
	snprintf(buf, sizeof(buf), "%*s%s%*s%s", indent, "", a, gap, "", b);
	put(ctx, A_NORMAL, buf);
}

/* The width of the charts when the text beside them takes tail columns: what is left, a reading
 * a character while they are fewer. */
static int chart_width(const struct history *h, int indent, int tail)
{
	int width = COLS - indent - 1 - tail;

	if (width > 1024)
		width = 1024;
	if (width < 8)
		width = 8;
	if (history_readings(h) < (uint32_t)width)
		width = (int)history_readings(h);
	return width;
}

/* A chart's place for a kind that is unavailable: the word, centred in width cells (cut when
 * narrower). */
static void unavailable_strip(char *buf, size_t size, int width)
{
	const char *word = _("unavailable");
	struct outbuf o = { 0 };
	int w = text_width(word), pad = width > w ? (width - w) / 2 : 0;

	out_printf(&o, "%*s", pad, "");
	out_padded(&o, word, width - pad, 0);
	out_char(&o, '\0');
	str_copy(buf, size, o.data);
	out_free(&o);
}

/* Whether kind k is unavailable for the row (the table's '-': limited mode, or delay accounting
 * off when the task started): its rates say so, or in a first reading (no rates) its totals. */
static int kind_unavailable(const struct row *r, int k)
{
	if (!r)
		return 0;
	if (!r->fresh)
		return isnan(r->r.kind[k].pct);
	return r->acc && !(r->acc->kinds & (kind_mask)(1u << k));
}

/* One chart per delay kind over the readings kept: the share of the interval it waited, on a
 * fixed scale of 0 to 100%, with its latest share, its peak and the kernel's longest wait; a kind
 * unavailable for the task says so in place of its chart, never a line at zero. */
void detailchart_kinds(const struct chart_span *c, const struct task_history *t, const struct row *r,
		       textline_put *put, void *ctx)
{
	int indent = 11, width = chart_width(c->h, indent, 44);
	double vals[1024];
	char strip[1024 * 3 + 1];

	/* xgettext:no-c-format */
	put(ctx, A_BOLD, _("Delays: % of the time waiting in each reading, on a scale of 0 to 100%"));
	for (int k = 0; k < DK_COUNT; k++) {
		char now[32], peak[32], longest[32], at[16];
		double top;

		history_kind_series(c->h, t, r, k, vals, (size_t)width);
		top = strip_max(vals, (size_t)width);
		if (kind_unavailable(r, k) && !(top > 0)) {
			unavailable_strip(strip, sizeof(strip), width);
			top = NAN;
		} else {
			strip_render(strip, sizeof(strip), vals, (size_t)width, 100, strip_glyphs_for_locale());
		}
		fmt_cell(now, r && !r->fresh ? r->r.kind[k].pct : NAN, 1, 6);
		fmt_cell(peak, t ? top : NAN, 1, 6);
		fmt_cell(longest, r ? r->r.kind[k].max_ms : NAN, 1, 7);
		clock_text(r && r->acc && (r->acc->kinds_max & (1u << k)) ? r->acc->max_at_ns[k] / 1e9 : NAN, at,
			   sizeof(at));
		textline_printf(put, ctx, A_NORMAL, F_(N_("%-9.9s |%s| now %5s peak %5s max %6sms %s")),
				_(delay_kinds[k].title), strip, now, peak, longest, at);
	}
	time_axis(c, put, ctx, indent, width);
}

/* A chart per pressure line of the cgroup over the readings kept, on 0 to 100%. */
void detailchart_pressure(const struct chart_span *c, const struct task_history *t, const struct row *cg,
			  textline_put *put, void *ctx)
{
	int indent = psi_label_width() + 7, width = chart_width(c->h, indent, 24);
	double vals[1024];
	char strip[1024 * 3 + 1];

	if (!cg || !cg->cg || !cg->cg->facts)
		return;
	/* xgettext:no-c-format */
	put(ctx, A_BOLD, _("Pressure: % of the time stalled in each reading, on a scale of 0 to 100%"));
	for (int res = 0; res < PSI_COUNT; res++) {
		const struct psi_resource *p = &cg->cg->facts->psi.res[res];

		for (int full = 0; p->present && full < 2; full++) {
			char now[32], peak[32];

			if (!(full ? p->full.present : p->some.present))
				continue;
			history_kind_series(c->h, t, NULL, history_psi_line(res, full), vals, (size_t)width);
			strip_render(strip, sizeof(strip), vals, (size_t)width, 100, strip_glyphs_for_locale());
			fmt_cell(now, full ? p->full.pct : p->some.pct, 1, 6);
			fmt_cell(peak, t ? strip_max(vals, (size_t)width) : NAN, 1, 6);
			struct outbuf label = { 0 };

			out_padded(&label, _(psi_label(res)), psi_label_width(), 0);
			out_char(&label, '\0');
			textline_printf(put, ctx, A_NORMAL, F_(N_("%s %-4s |%s| now %5s peak %5s")), label.data,
					full ? "full" : "some", strip, now, peak);
			out_free(&label);
		}
	}
	time_axis(c, put, ctx, indent, width);
}
