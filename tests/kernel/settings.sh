#!/bin/bash
# settings.sh — the settings file ($XDG_CONFIG_HOME/delaytop/delaytoprc, else ~/.config/...):
# its settings apply to batch reports, the command line wins, a line that cannot be used is
# reported with the file's name and the line's number and the rest still apply (exit 0), a
# symlink on the way or a file that belongs to another user is not read, and command mode takes no
# settings.
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
# Off, delaytop warns on stderr, which the checks below want empty (a passing run used to depend
# on another test holding the switch on).
lock_global
enable_delayacct
id nobody >/dev/null 2>&1 || skip_all "needs the user nobody"

T=$TMPDIR_TEST
# report [VAR=VALUE...] -- ARG...: one report of this shell's process, stdout to $T/out and
# stderr to $T/err; returns delaytop's status.
report() {
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	env "${envs[@]}" "$DELAYTOP" -b -n 1 -d 0.2 -p $$ "$@" >"$T/out" 2>"$T/err"
}
# sorted: what the report's first line says it is sorted by; titles: its table's titles.
sorted() { sed -n '1s/.*sorted by \([a-z_]*\).*/\1/p' "$T/out"; }
titles() { grep -m1 -E ' COMMAND *$' "$T/out" | tr -s ' ' | sed 's/^ //; s/ $//'; }

mkdir -p "$T/cfg/delaytop"
printf '# mine\nsort = pid\ncolumns=pid,io,command\n' >"$T/cfg/delaytop/delaytoprc"
report XDG_CONFIG_HOME="$T/cfg" --
st=$?
[ "$st" -eq 0 ] && [ "$(sorted)" = pid ] && [ "$(titles)" = "PID IO COMMAND" ] && [ ! -s "$T/err" ]
tap_ok $? "the file's sort and columns apply to the report" \
	"status $st, sorted by '$(sorted)', titles '$(titles)', stderr: $(head -2 "$T/err")"

report XDG_CONFIG_HOME="$T/cfg" -- -s io --columns io,command
[ "$(sorted)" = io ] && [ "$(titles)" = "IO COMMAND" ]
tap_ok $? "the command line wins: -s io --columns io,command" "sorted by '$(sorted)', titles '$(titles)'"

mkdir -p "$T/home/.config/delaytop"
printf 'sort=user\n' >"$T/home/.config/delaytop/delaytoprc"
report -u XDG_CONFIG_HOME HOME="$T/home" --
[ "$(sorted)" = user ]
tap_ok $? "without XDG_CONFIG_HOME the file is HOME/.config/delaytop/delaytoprc" "sorted by '$(sorted)'"

printf 'sort=pid\ncolour=blue\ndelay=abc\ncolumns=io,nosuch\nreverse=maybe\n' >"$T/cfg/delaytop/delaytoprc"
report XDG_CONFIG_HOME="$T/cfg" --
st=$?
f=$T/cfg/delaytop/delaytoprc
[ "$st" -eq 0 ] && [ "$(sorted)" = pid ] &&
	grep -qx "delaytop: $f:2: unknown setting 'colour'" "$T/err" &&
	grep -q "^delaytop: $f:3: invalid delay 'abc'" "$T/err" &&
	grep -q "^delaytop: $f:4: unknown column 'nosuch'" "$T/err" &&
	grep -qx "delaytop: $f:5: reverse must be yes or no, not 'maybe'" "$T/err" && [ "$(wc -l <"$T/err")" -eq 4 ]
tap_ok $? "bad lines are named by file and line on stderr, the good one applies, status 0" \
	"status $st, sorted by '$(sorted)', stderr: $(cat "$T/err")"

# A symlink on the way that belongs to another user is not followed; one of root's is.
mkdir -p "$T/real/delaytop"
printf 'sort=pid\n' >"$T/real/delaytop/delaytoprc"
mkdir -p "$T/cfg2" "$T/cfg3"
ln -s "$T/real/delaytop" "$T/cfg2/delaytop"
chown -h nobody "$T/cfg2/delaytop"
report XDG_CONFIG_HOME="$T/cfg2" --
st=$?
[ "$st" -eq 0 ] && [ "$(sorted)" = total ] &&
	grep -qx "delaytop: $T/cfg2/delaytop/delaytoprc: not read: a symlink on the way belongs to another user" "$T/err"
tap_ok $? "a symlink of nobody's on the way: not read, and said so" \
	"status $st, sorted by '$(sorted)', stderr: $(cat "$T/err")"
ln -s "$T/real/delaytop" "$T/cfg3/delaytop"
report XDG_CONFIG_HOME="$T/cfg3" --
[ "$(sorted)" = pid ] && [ ! -s "$T/err" ]
tap_ok $? "the same symlink of root's (the user's own) is followed" "sorted by '$(sorted)', stderr: $(cat "$T/err")"

chown nobody "$T/real/delaytop/delaytoprc"
report XDG_CONFIG_HOME="$T/cfg3" --
[ "$(sorted)" = total ] && grep -q "delaytoprc: not read: not a regular file of yours" "$T/err"
tap_ok $? "a file of nobody's is not read, and said so" "sorted by '$(sorted)', stderr: $(cat "$T/err")"

printf 'sort=pid\ndelay=abc\n' >"$T/cfg/delaytop/delaytoprc"
XDG_CONFIG_HOME="$T/cfg" "$DELAYTOP" -- true >/dev/null 2>"$T/err"
st=$?
[ "$st" -eq 0 ] && ! grep -q delaytoprc "$T/err"
tap_ok $? "command mode takes no settings and says nothing of the file" "status $st, stderr: $(cat "$T/err")"

done_testing
