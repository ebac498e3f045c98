/* i18n.h — the translation macros: _() translates now, N_() marks for later, and F_(N_("...")) is
 * a translated printf format that falls back to the msgid when the translation's conversions do
 * not fit the msgid's arguments. */
#ifndef DELAYTOP_I18N_H
#define DELAYTOP_I18N_H

#include <libintl.h>

#define _(s) gettext(s)
#define N_(s) (s)
#define F_(s) i18n_format(s)

/* The translation of the printf format msgid, or msgid itself when the translation would read
 * its arguments differently (other kinds, count or order, %n): an installed catalog never
 * decides what printf reads. */
const char *i18n_format(const char *msgid) __attribute__((format_arg(1)));
/* Nonzero when printf would read the same arguments, of the same kinds, for formats a and b
 * (numbered arguments such as %2$s may reorder them); 0 when not, or when either cannot be
 * checked. */
int i18n_same_args(const char *a, const char *b);

#endif
