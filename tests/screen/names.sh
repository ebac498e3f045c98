# names.sh — the screen shows task names with C1 controls and bytes that are not UTF-8 as '?':
# a process named c1<U+009B>2J and one named ff<\xff>x appear as c1?2J and ff?x, in the COMMAND
# column, and the pane (captured with its escapes) holds no clear-screen or other effect of them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

C1N=$'c1\xc2\x9b2J'
FFN=$'ff\xffx'
ln -s "$WORKLOAD" "$TMPDIR_TEST/$C1N"
ln -s "$WORKLOAD" "$TMPDIR_TEST/$FFN"
bg_start P1 "$TMPDIR_TEST/$C1N" sleep 60
bg_start P2 "$TMPDIR_TEST/$FFN" sleep 60
wait_until 5 comm_is "$P1" "$C1N" || skip_all "could not name a process with U+009B"
wait_until 5 comm_is "$P2" "$FFN" || skip_all "could not name a process with a \\xff byte"

start_screen -- -d 0.5 -p "$P1,$P2"
both_rows() { [ -n "$(row_of "$P1")" ] && [ -n "$(row_of "$P2")" ]; }
wait_for_screen_fn both_rows 5
screen_ok $? "the screen comes up with the rows of $P1 and $P2"
cc=$(command_column)
for want in "$P1:c1?2J" "$P2:ff?x"; do
	pid=${want%%:*} name=${want#*:}
	row=$(row_of "$pid")
	at=$(printf '%s\n' "$row" | awk -v n="$name" '{ i = index($0, n); if (i) print i - 1 }')
	[ -n "$cc" ] && [ "$at" = "$cc" ]
	screen_ok $? "the row of $pid shows $name in the COMMAND column ($cc; at ${at:-none})" "row: $row"
done
[ "$(line 1 | cut -c1-2)" != "" ] && line 1 | grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2} up'
screen_ok $? "the header line is still on the first line (no clear-screen or cursor move from a name)"
capture -e
printf '%s\n' "$SCREEN" | LC_ALL=C grep -q -P '\xc2[\x80-\x9f]|\xff|\x9b'
[ $? -ne 0 ]
screen_ok $? "the pane, captured with escapes, holds no C1 control and no \\xff"

done_testing
