# options.sh — bad input gets one line naming the bad value and exit status 2; --help and
# --version work. Needs nothing but the binary.
. "$top_srcdir/tests/lib.sh"

# bad_input "description" ARGS...: expects status 2 and one stderr line containing the last
# word of the description (the value that must be named).
bad_input() {
	local want=$1
	shift
	local err="$TMPDIR_TEST/err" status lines
	"$DELAYTOP" "$@" >"$TMPDIR_TEST/out" 2>"$err"
	status=$?
	lines=$(wc -l <"$err")
	tap_ok "$([ "$status" -eq 2 ] && echo 0 || echo 1)" "'$*' exits with status 2" "got status $status"
	tap_ok "$([ "$lines" -eq 1 ] && grep -qF -- "$want" "$err" && echo 0 || echo 1)" \
		"'$*' says what is wrong in one line naming '$want'" "stderr was: $(cat "$err")"
	tap_ok "$([ -s "$TMPDIR_TEST/out" ] && echo 1 || echo 0)" "'$*' prints nothing on stdout"
}

bad_input "abc" -b -n abc
bad_input "'0'" -b -n 0
bad_input "'0'" -b -d 0
bad_input "'-1'" -b -d -1
bad_input "abc" -b -d abc
bad_input "0.05" -b -d 0.05
bad_input "nan" -b -d nan
bad_input "nosuch" -b -s nosuch
bad_input "'x'" -b -p x
bad_input "'x'" -b -p 1,x
bad_input "'-q'" -b -q
bad_input "--no-such-option" -b --no-such-option
bad_input "--format" -b --format
bad_input "'--delay'" -b --delay
bad_input "'-d'" -b -d
bad_input "'-x'" --batch -xb
bad_input "xml" --format xml
# html is a page of a window of readings: a recording's (-r) or a command's run
bad_input "--format 'html' makes one page of a window of readings: it needs -r FILE or -- COMMAND" --format html
bad_input "--format 'html' makes one page" -b -n 1 --format html
bad_input "--output is for command mode: add -- COMMAND (or -r with --format html)" -r /dev/null -o out.html
bad_input "(or -r with --format html)" -r /dev/null --format json -o out.json
bad_input "no_such_user_xyz" -b -u no_such_user_xyz
bad_input "extra" -b extra
bad_input "' 0'" -b -n 1 -u ' 0'
bad_input "'+0'" -b -n 1 -u +0
bad_input "--web-config is for --listen" -b --web-config web.yml
bad_input "no-such-web.yml: No such file" --listen 127.0.0.1:9 --web-config no-such-web.yml
bad_input "'86401'" -b --series-expiry 86401
bad_input "'-1'" -b --series-expiry -1
bad_input "'1e3'" -b --series-expiry 1e3
bad_input "'nan'" -b --series-expiry nan
bad_input "is ambiguous (possible: --active, --accumulate)" -b --a
bad_input "'--ac' is ambiguous" -b --ac=1
# Untrusted values: a cgroup path that climbs out of the hierarchy, times that would wrap.
bad_input "'/../etc'" -b -c /../etc
bad_input "'/a/../..'" -b -c /a/../..
bad_input "'web/x.service'" -b --unit web/x.service
bad_input "'nginx service'" -b --unit 'nginx service'
bad_input "empty unit" -b --unit ''
bad_input "'--unit' does not apply to command mode" --unit nginx.service -- true
bad_input "'cpu some 100ms 2s /../..'" -b --trigger 'cpu some 100ms 2s /../..'
bad_input "'10000000 days ago'" -r /dev/null --begin '10000000 days ago'
bad_input "'0000-01-01'" -r /dev/null --begin 0000-01-01
bad_input "'1000-01-01 00:00'" -r /dev/null --end '1000-01-01 00:00'
bad_input "'@99999999999'" -r /dev/null --end @99999999999

# A value that echoes back is display text: escapes, C1 controls and bad bytes become '?'.
inert_echo() {
	local want=$1
	shift
	"$DELAYTOP" "$@" >/dev/null 2>"$TMPDIR_TEST/err"
	LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f-\x9f]|\xc2[\x80-\x9f]|\xff' "$TMPDIR_TEST/err"
	tap_ok "$([ $? -ne 0 ] && grep -qF -- "$want" "$TMPDIR_TEST/err" && echo 0 || echo 1)" \
		"the message for '$*' holds no control character or bad byte and names the value as $want" \
		"stderr: $(od -c "$TMPDIR_TEST/err" | head -6)"
}
inert_echo "'?[31mred'" -b -s $'\e[31mred'
inert_echo "'?2J'" -b -d $'\xc2\x9b2J'
inert_echo "'?x'" -b -u $'\xffx'
inert_echo "'--?[1m'" -b $'--\e[1m'
inert_echo "'x?'" -b $'x\x9b'
inert_echo "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'" -b --format "$(printf 'a%.0s' {1..300})"

"$DELAYTOP" --help >"$TMPDIR_TEST/help" 2>&1
tap_ok $? "--help exits with status 0"
grep -q -- "--iterations" "$TMPDIR_TEST/help"
tap_ok $? "--help describes the options"

version=$("$DELAYTOP" --version | head -1)
[ "$version" = "delaytop ${PACKAGE_VERSION:-}" ]
tap_ok $? "--version prints the version configure set" "expected 'delaytop ${PACKAGE_VERSION:-}', got '$version'"

done_testing
