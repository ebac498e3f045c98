/* secure.c — the one place that asks whether this run is secure (setuid, setgid or file
 * capabilities, such as the cap_net_admin the README suggests) and keeps the environment from
 * choosing files such a run loads. */
#include "config.h"

#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "secure.h"

/* Nonzero when the kernel marks the run secure: setuid, setgid or raised file capabilities. */
static int secure_run(void)
{
	return getauxval(AT_SECURE) != 0;
}

const char *secure_env(const char *name)
{
	return secure_run() ? NULL : getenv(name);
}

int secure_raised_user(void)
{
	return secure_run() && getuid() != 0;
}

/* ncurses refuses TERMINFO and the like only when uid and euid (or gid and egid) differ; a run
 * raised by file capabilities keeps the user's ids, so ncurses 6.4 (checked with Debian's 6.4-4)
 * would still load a terminfo entry from TERMINFO, TERMINFO_DIRS, TERMCAP or $HOME/.terminfo.
 * A crafted entry is what CVE-2023-29491 used to corrupt memory, here in a process with
 * CAP_NET_ADMIN. With them gone, TERM can only name an entry in the system's terminfo
 * directories (ncurses refuses names with a '/'). */
void secure_drop_terminal_env(void)
{
	static const char *const names[] = { "TERMINFO", "TERMINFO_DIRS", "TERMCAP", "HOME" };

	if (!secure_run())
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unsetenv(names[i]);
}
