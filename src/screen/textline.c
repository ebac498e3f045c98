/* textline.c — text made a line at a time (see textline.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "textline.h"

void textline_printf(textline_put *put, void *ctx, unsigned attrs, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(ctx, attrs, buf);
}
