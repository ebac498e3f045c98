/* secure.h — whether this run holds more privilege than its user, and the environment it trusts. */
#ifndef DELAYTOP_SECURE_H
#define DELAYTOP_SECURE_H

/* getenv(), except that a secure run (setuid, setgid or raised file capabilities: the kernel's
 * AT_SECURE) gets NULL: for variables that name files to load. */
const char *secure_env(const char *name);
/* Nonzero when a user other than root runs with raised privilege (setuid, setgid or file
 * capabilities): such a run must not pass the limits the administrator set for every user. */
int secure_raised_user(void);
/* In a secure run, removes the variables with which ncurses would load a user's terminfo. */
void secure_drop_terminal_env(void);

#endif
