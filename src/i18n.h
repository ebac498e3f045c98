/* i18n.h — the translation macros: _() translates now, N_() marks for later. */
#ifndef DELAYTOP_I18N_H
#define DELAYTOP_I18N_H

#include <libintl.h>

#define _(s) gettext(s)
#define N_(s) (s)

#endif
