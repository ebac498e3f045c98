#!/bin/bash
# stop_signal.sh — a stop signal ends the screen at once, whatever -d is, though no key comes:
# SIGTERM once the first reading is shown, at a random moment after, and in the gap between the
# key loop's last look at whether to stop and its wait (tests/waitgap.c holds it there until the
# signal comes), each ends `-d 3600` within 100 ms with status 0 and the terminal restored;
# SIGINT and SIGHUP too.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

stop_signal_setup
NOTE=$TMPDIR_TEST/note
ARM=$TMPDIR_TEST/arm

ended() {
	[ -n "$(screen_status)" ]
}

# stopped "what" SIGNAL [--when random | --gap]: the screen at -d 3600, the signal once the first
# reading is shown; test points: it ends within LIMIT_MS, with status 0, out of the alternate
# screen.
stopped() {
	local what=$1 sig=$2 opts=() envs=() out ms
	case ${3:-} in
	--when) opts=(--when "$4") ;;
	--gap)
		rm -f "$NOTE" "$ARM"
		opts=(--gap "$NOTE")
		# held only once armed: after the first reading is shown; an ASan build wants its runtime first
		envs=(LD_PRELOAD="$WAITGAP" WAITGAP_NOTE="$NOTE" WAITGAP_ARM="$ARM"
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0") ;;
	esac
	start_screen "${envs[@]}" -- -d 3600
	wait_for_screen '^ +PID .*TOTAL' 10
	screen_ok $? "$what: the screen comes up"
	if [ "${3:-}" = --gap ]; then
		touch "$ARM"
		keys C-l # the key loop goes round and into its wait again, held there
	fi
	out=$(python3 "$STOPWATCH" --pid "$SCREEN_PID" "${opts[@]}" "$sig")
	read -r ms _ <<<"$out"
	wait_until 3 ended
	capture
	[[ $ms =~ ^[0-9.]+$ ]] && within "$ms" 0 "$LIMIT_MS"
	screen_ok $? "$what: SIG$sig ends it within $LIMIT_MS ms" "got '$out' (ms)"
	[ "$(screen_status)" = 0 ]
	screen_ok $? "$what: SIG$sig: status 0" "status '$(screen_status)'"
	[ "$(tm display-message -p -t dt '#{alternate_on}')" = 0 ]
	screen_ok $? "$what: SIG$sig: the terminal left the alternate screen"
	diag "$what, SIG$sig: $out"
}

for sig in TERM INT HUP; do
	stopped "-d 3600 after the first reading" "$sig"
done
stopped "-d 3600 at a random moment" TERM --when random
stopped "-d 3600 in the gap before the key loop's wait" TERM --gap

done_testing
