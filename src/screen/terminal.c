/* terminal.c — the screen's terminal. */
#include "config.h"

#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "format.h"
#include "i18n.h"
#include "secure.h"
#include "terminal.h"

/* Signals that end delaytop without the loop's clean exit. SIGINT, SIGTERM and SIGHUP stop the
 * loop instead (main's handler). */
static const int fatal_signals[] = { SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGSYS,
				     SIGXCPU, SIGXFSZ, SIGUSR1, SIGUSR2, SIGALRM };

/* What puts the terminal back, captured while the screen starts: endwin() cannot be called
 * from a signal handler, write(2) and tcsetattr(3) can. */
static char restore_seq[512];
static size_t restore_len;
static struct termios restore_tio;
static int restore_mouse; /* restore_seq ends the mouse reports */
static int restore_have_tio;

/* Appends a terminfo string without its padding ($<5>), which only a terminal driver delays. */
static void add_restore_cap(const char *name)
{
	const char *cap = tigetstr(name);

	for (; cap && cap != (char *)-1 && *cap; cap++) {
		if (cap[0] == '$' && cap[1] == '<' && strchr(cap, '>')) {
			cap = strchr(cap, '>');
			continue;
		}
		if (restore_len + 1 >= sizeof(restore_seq))
			return;
		restore_seq[restore_len++] = *cap;
	}
}

/* A fatal signal: the terminal as it was, then the signal's own ending (status, core). */
static void on_fatal_signal(int sig)
{
	if (restore_len)
		(void)!write(STDOUT_FILENO, restore_seq, restore_len);
	if (restore_have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &restore_tio);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Catches the fatal signals while the screen is up (on), or gives them back their default; one
 * that delaytop was started with ignored (nohup, a background job) stays ignored. */
static void catch_fatal_signals(int on)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_fatal_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(fatal_signals[i], &sa, NULL);
}

int terminal_start(void)
{
	/* TERM stays trusted in a secure run: secure_drop_terminal_env() leaves it only the
	 * system's terminfo entries to choose from. */
	const char *term = getenv("TERM");
	SCREEN *screen;
	char *cup, shown[64];

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "%s: %s\n", PACKAGE,
			_("the full screen needs a terminal; use -b for batch output"));
		return -1;
	}
	secure_drop_terminal_env();
	restore_have_tio = tcgetattr(STDIN_FILENO, &restore_tio) == 0;
	screen = newterm(NULL, stdout, stdin);
	cup = screen ? tigetstr("cup") : NULL;
	if (!cup || cup == (char *)-1) { /* TERM=dumb and the like cannot place text */
		if (screen) {
			endwin();
			delscreen(screen);
		}
		text_clean(shown, sizeof(shown), term ? term : "");
		fprintf(stderr, "%s: ", PACKAGE);
		fprintf(stderr, F_(N_("cannot use the terminal type '%s'; set TERM, or use -b for batch output")),
			shown);
		fputc('\n', stderr);
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25); /* Esc alone answers at once instead of after a second */
	curs_set(0);
	restore_len = 0;
	restore_mouse = 0;
	add_restore_cap("rmcup");
	add_restore_cap("sgr0");
	add_restore_cap("cnorm");
	add_restore_cap("rmkx");
	catch_fatal_signals(1);
	return 0;
}

int terminal_mouse(int on)
{
	/* what a fatal signal writes ends the terminal's mouse reports too (X10 and SGR modes) */
	static const char mouse_off[] = "\033[?1000l\033[?1006l";
	mmask_t got = mousemask(on ? BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED : 0, NULL);

	mouseinterval(0); /* a press is acted on at once, not after waiting for its release */
	if (got && !restore_mouse && restore_len + sizeof(mouse_off) - 1 < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, mouse_off, sizeof(mouse_off) - 1);
		restore_len += sizeof(mouse_off) - 1;
		restore_mouse = 1;
	}
	return got != 0;
}

int terminal_colors(void)
{
	/* Only switches colour off, so a secure run honours it too. */
	const char *no_color = getenv("NO_COLOR");

	if ((no_color && *no_color) || !has_colors())
		return 0;
	start_color();
	use_default_colors();
	init_pair(1, COLOR_GREEN, -1);
	init_pair(2, COLOR_YELLOW, -1);
	init_pair(3, COLOR_RED, -1);
	init_pair(4, COLOR_CYAN, -1);
	return 1;
}

void terminal_stop(void)
{
	endwin();
	catch_fatal_signals(0);
}
