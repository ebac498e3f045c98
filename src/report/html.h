/* html.h — text made safe for an HTML page or an SVG drawing inside one: what a task controls
 * (its command name and line, its cgroup path, its user's name) may hold markup, quotes and bytes
 * that are not UTF-8. Pure code. */
#ifndef DELAYTOP_HTML_H
#define DELAYTOP_HTML_H

#include "format.h"

/* s as HTML text, fit for an element's content and for a quoted attribute's value alike (also
 * inside SVG <text> and <title>): & < > " ' as character references; a byte that is not UTF-8,
 * a control character other than tab and newline, a noncharacter and a format control (a bidi
 * override such as U+202E, format_control) as U+FFFD, so that the page parses cleanly, no task
 * name adds an element or an attribute, and none reorders the text around it. */
void html_text(struct outbuf *o, const char *s);
/* Writes before and after as they are (markup) and text between them escaped (a translation). */
void html_wrap(struct outbuf *o, const char *before, const char *text, const char *after);
/* The first n bytes of s, as html_text writes them. */
void html_text_n(struct outbuf *o, const char *s, size_t n);

#endif
