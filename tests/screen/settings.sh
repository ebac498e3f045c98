# settings.sh — W on the screen writes the settings shown (interval, sort, order, rows, a, x and the
# columns) to $XDG_CONFIG_HOME/delaytop/delaytoprc, making the directory, and says where; the
# next start reads them back; where the file cannot be written the footer says why and the
# screen goes on.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

CFG=$TMPDIR_TEST/cfg
FILE=$CFG/delaytop/delaytoprc
start_screen XDG_CONFIG_HOME="$CFG" -- -d 0.7 --columns io,pid,command
wait_for_screen 'IO +PID +COMMAND' 10
screen_ok $? "the screen comes up with the columns given"

# > from TOTAL (not shown) sorts by COMMAND, r reverses it, H shows threads, a hides idle tasks,
# x hides the exited ones
keys '>' r H a x
wait_for_screen 'threads .*sort command.*filter active no exited' 5
screen_ok $? "the header shows threads sorted by command, active, no exited" "header: $(header)"
keys W
wait_for_screen "settings written to $FILE" 5
screen_ok $? "W says the settings were written to $FILE"
[ -f "$FILE" ] && grep -qx 'delay=0.7' "$FILE" && grep -qx 'sort=command' "$FILE" && grep -qx 'reverse=yes' "$FILE" &&
	grep -qx 'group=thread' "$FILE" && grep -qx 'active=yes' "$FILE" && grep -qx 'hide-exited=yes' "$FILE" &&
	grep -qx 'columns=io,pid,command' "$FILE"
tap_ok $? "the file holds delay=0.7, sort=command, reverse=yes, group=thread, active=yes, hide-exited=yes, columns=io,pid,command" \
	"$(cat "$FILE" 2>&1)"
[ "$(stat -c %a "$CFG/delaytop")" = 700 ]
tap_ok $? "the directory it made is the user's alone (0700)" "$(stat -c %a "$CFG/delaytop")"

# The next start, without options, reads them back.
start_screen XDG_CONFIG_HOME="$CFG" --
wait_for_screen 'IO +TID +COMMAND' 10
screen_ok $? "the next start shows threads with the columns IO TID COMMAND"
header | grep -q 'every 0.7s.*sort command.*no exited'
screen_ok $? "and the interval 0.7 s, the sort by command and the exited tasks hidden" "header: $(header)"

# Where no directory can be made (a file is in the way), W says why; the screen goes on.
: >"$TMPDIR_TEST/blocked"
start_screen XDG_CONFIG_HOME="$TMPDIR_TEST/blocked" -- -d 0.5
wait_for_screen 'PID +USER' 10
keys W
wait_for_screen "cannot write the settings to $TMPDIR_TEST/blocked/delaytop/delaytoprc: Not a directory" 5
screen_ok $? "W where a file blocks the directory: the footer says it cannot write, and why"
quit_ok "the screen went on and q ends it with status 0"

done_testing
