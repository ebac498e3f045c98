/* terminal.h — the screen's terminal: starting ncurses safely (a secure run loads no user
 * terminfo), colours, and putting the terminal back, also from a fatal signal. */
#ifndef DELAYTOP_TERMINAL_H
#define DELAYTOP_TERMINAL_H

/* Starts the full screen on standard input and output. Returns 0, or -1 after a message when
 * there is no terminal or it cannot place text (TERM=dumb). */
int terminal_start(void);

/* Sets up the colour pairs; returns whether colours are used (not with NO_COLOR set). */
int terminal_colors(void);

/* Ends the screen and gives the fatal signals back their defaults. */
void terminal_stop(void);

/* Asks the terminal for mouse presses (on) or stops (off); returns whether it now reports them. */
int terminal_mouse(int on);

#endif
