#!/bin/bash
# stop_signal.sh — a stop signal ends batch mode and the exporter at once, whatever -d is: SIGTERM
# after the first reading, at a random moment between readings, and in the gap between the last
# look at whether to stop and the wait (tests/waitgap.c holds the main thread there until the
# signal comes), each ends `-d 3600` within 100 ms with status 0; SIGINT and SIGHUP too. In the
# gap, a wait that only a handler's flag would end sleeps on until something else wakes it: as
# root, the exit record of any task that ends on the machine; run by nobody, which has no exit
# listener (taskstats needs CAP_NET_ADMIN), nothing but the interval.
. "$top_srcdir/tests/lib.sh"

stop_signal_setup
setup_nobody
NOTES=$(mktemp -d /tmp/delaytop-stop.XXXXXX) || skip_all "cannot make a temp dir"
EXTRA_DIRS="$EXTRA_DIRS $NOTES"
chmod 0777 "$NOTES" # the shim writes its note as nobody too
NOTE=$NOTES/note
"${NOBODY[@]}" test -r "$WAITGAP" || skip_all "nobody cannot read $WAITGAP"

# stopped "what" SIGNAL [--when random | --gap | --gap-nobody] -- DELAYTOP-ARGS...: one test
# point: SIGNAL ends delaytop within LIMIT_MS with status 0.
stopped() {
	local what=$1 sig=$2 opts=() pre=() bin=$DELAYTOP out ms st
	shift 2
	case $1 in
	--when) opts=(--when "$2"); shift 2 ;;
	--gap | --gap-nobody)
		rm -f "$NOTE"
		opts=(--gap "$NOTE")
		[ "$1" = --gap-nobody ] && pre=("${NOBODY[@]}") && bin=$DT
		# an ASan build wants its runtime first; the shim only wraps poll and ppoll
		pre+=(env LD_PRELOAD="$WAITGAP" WAITGAP_NOTE="$NOTE"
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
		shift ;;
	esac
	[ "$1" = -- ] && shift
	out=$(python3 "$STOPWATCH" "${opts[@]}" "$sig" -- "${pre[@]}" "$bin" "$@")
	read -r ms st <<<"$out"
	[ "$st" = 0 ] && [[ $ms =~ ^[0-9.]+$ ]] && within "$ms" 0 "$LIMIT_MS"
	tap_ok $? "$what: SIG$sig ends it within $LIMIT_MS ms with status 0" "got '$out' (ms status)"
	diag "$what, SIG$sig: $out"
}

PORT=$(python3 "$STOPWATCH" --free-port)

for sig in TERM INT HUP; do
	stopped "-b -d 3600 after the first reading" "$sig" -- -b -d 3600
done
stopped "-b -d 3600 at a random moment" TERM --when random -- -b -d 3600
stopped "-b -d 3600 in the gap before the wait" TERM --gap -- -b -d 3600
stopped "-b -d 3600 run by nobody, in the gap before the wait" TERM --gap-nobody -- -b -d 3600
stopped "-b -d 3600 --trigger in the gap before the wait" TERM --gap -- -b -d 3600 --trigger 'cpu some 500ms 2s'

for sig in TERM INT HUP; do
	stopped "--listen -d 3600 after the first reading" "$sig" -- --listen "127.0.0.1:$PORT" -d 3600
done
stopped "--listen -d 3600 at a random moment" TERM --when random -- --listen "127.0.0.1:$PORT" -d 3600
stopped "--listen -d 3600 in the gap before the wait" TERM --gap -- --listen "127.0.0.1:$PORT" -d 3600
stopped "--listen -d 3600 run by nobody, in the gap before the wait" TERM --gap-nobody -- \
	--listen "127.0.0.1:$PORT" -d 3600

done_testing
