/* lathist.c — a row's waits (--why) as lines of text for the detail view: see lathist.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "lathist.h"

const char *lathist_kind_title(int kind)
{
	return kind == LAT_BLOCKED ? _("Blocked") : _(delay_kinds[kind].title);
}

const char *lathist_bound_text(double ms, char *buf)
{
	if (isinf(ms))
		snprintf(buf, 16, "inf");
	else if (ms < 1)
		snprintf(buf, 16, "%.0fus", ms * 1000);
	else if (ms < 1000)
		snprintf(buf, 16, "%.3gms", ms);
	else
		snprintf(buf, 16, "%.3gs", ms / 1000);
	return buf;
}

/* A bar of count on a scale of 0..top over width cells into out (size bytes): whole cells and, in
 * UTF-8, an eighth block for the rest; at least one mark for a count above 0. */
static void bar_text(char *out, size_t size, uint64_t count, uint64_t top, int width, enum strip_glyphs g)
{
	static const char *const eighths[8] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
	int steps = g == STRIP_UTF8 ? 8 : 1;
	long units = top ? (long)((double)count * width * steps / (double)top) : 0;
	struct outbuf o = {0};
	int cells = 0;

	if (count && units < 1)
		units = 1;
	for (; units >= steps && cells < width; units -= steps, cells++)
		out_str(&o, g == STRIP_UTF8 ? "█" : "#");
	if (units > 0 && cells < width) {
		out_str(&o, eighths[units]);
		cells++;
	}
	out_printf(&o, "%*s", width - cells, "");
	out_char(&o, '\0');
	str_copy(out, size, o.data);
	out_free(&o);
}

/* One kind's summary line and its slots' bars. */
static void kind_lines(int kind, const struct lat_hist *h, enum strip_glyphs g, int bar_width,
                       lathist_emit_fn *emit, void *ctx)
{
	char line[1024], p50[32], p90[32], p99[32], max[32], bar[512];
	int first = -1, last = -1;
	uint32_t top = 0;

	fmt_cell(p50, lat_percentile_ms(h, 0.50), 3, 8);
	fmt_cell(p90, lat_percentile_ms(h, 0.90), 3, 8);
	fmt_cell(p99, lat_percentile_ms(h, 0.99), 3, 8);
	fmt_cell(max, (double)h->max_ns / 1e6, 3, 8);
	snprintf(line, sizeof(line), F_(N_("%-9.9s waits %llu  p50 %sms  p90 %sms  p99 %sms  max %sms")),
	         lathist_kind_title(kind), (unsigned long long)h->count, p50, p90, p99, max);
	emit(ctx, 0, line);
	for (int i = 0; i < LAT_SLOTS; i++)
		if (h->slot[i]) {
			first = first < 0 ? i : first;
			last = i;
			top = h->slot[i] > top ? h->slot[i] : top;
		}
	for (int i = first; first >= 0 && i <= last; i++) {
		char lo[16], hi[16];

		bar_text(bar, sizeof(bar), h->slot[i], top, bar_width, g);
		snprintf(line, sizeof(line), "  %7s-%-7s |%s| %u",
		         lathist_bound_text(lat_slot_lower_ms(i), lo),
		         lathist_bound_text(lat_slot_le_ms(i), hi), bar, h->slot[i]);
		emit(ctx, 0, line);
	}
}

void lathist_lines(const struct why_header *wh, const struct lat_waits *w, enum strip_glyphs g, int bar_width,
                   lathist_emit_fn *emit, void *ctx)
{
	char line[1024];
	lat_mask kinds;

	if (wh->state == WHY_OFF) {
		emit(ctx, 1, _("Wait latency: not measured (--why; y switches it on in a live screen)"));
		return;
	}
	if (wh->state == WHY_UNAVAILABLE) {
		snprintf(line, sizeof(line), F_(N_("Wait latency: unavailable: %s")),
		         wh->reason ? wh->reason : "-");
		emit(ctx, 1, line);
		return;
	}
	emit(ctx, 1, _("Wait latency in the interval (--why): each wait's length, log2 slots"));
	kinds = lat_row_kinds(wh, w);
	for (int k = 0; k < LAT_KINDS; k++) {
		const struct lat_hist *h = lat_waits_get(w, k);

		if (!(kinds & (1u << k)))
			snprintf(line, sizeof(line), F_(N_("%-9.9s unavailable")), lathist_kind_title(k));
		else if (!h || !h->count)
			snprintf(line, sizeof(line), F_(N_("%-9.9s no waits")), lathist_kind_title(k));
		else {
			kind_lines(k, h, g, bar_width, emit, ctx);
			continue;
		}
		emit(ctx, 0, line);
	}
}
