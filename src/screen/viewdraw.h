/* viewdraw.h — drawing the screen from its state (viewdraw.c). */
#ifndef DELAYTOP_VIEWDRAW_H
#define DELAYTOP_VIEWDRAW_H

#include "viewstate.h"

/* Draws everything for the current state. */
void view_draw(struct view *v);

#endif
