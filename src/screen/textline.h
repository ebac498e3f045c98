/* textline.h — text made a line at a time for whoever writes it: the detail view's lines on the
 * screen (detail.c), its charts (detailchart.c), the stacks pane's list of lines (stackpane.c).
 * Each line goes to a put function with the attributes it is written in. */
#ifndef DELAYTOP_TEXTLINE_H
#define DELAYTOP_TEXTLINE_H

/* Takes one line of display text, in attributes attrs (curses' A_*, or the taker's own flags). */
typedef void textline_put(void *ctx, unsigned attrs, const char *text);

/* Formats one line (cut at 1023 bytes) and hands it to put. */
void textline_printf(textline_put *put, void *ctx, unsigned attrs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
