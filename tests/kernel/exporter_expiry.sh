#!/bin/bash
# exporter_expiry.sh — the series of a cgroup that is gone go after --series-expiry: five cgroups
# each used by a short process keep their series while they exist (empty or not), still have them
# right after they are removed, and have none once the expiry has passed; a cgroup with a live
# process and the parent of the removed ones keep theirs; the count of the test's cgroups' series
# (any metric) falls back.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd curl python3 awk
require_taskstats

require_v2
P=delaytop-expiry.$$
mkdir "$V2/$P" "$V2/$P/live" || skip_all "cannot create cgroups under $V2"
for i in 1 2 3 4 5; do mkdir "$V2/$P/gone$i"; done
EXPIRY=3
T=$TMPDIR_TEST
finish() {
	cleanup
	rmdir "$V2/$P"/*/ "$V2/$P" 2>/dev/null
}
trap finish EXIT

sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 60' sh "$V2/$P/live" 9>&- &
track_pid $!
start_exporter --series-expiry "$EXPIRY" -d 0.5

# series CGROUP-PREFIX: the number of delay series of that cgroup (exactly) or of its children.
series() { curl -s -m 2 "$URL" | grep -c "^delaytop_cgroup_delay[a-z_]*{cgroup=\"$1"; }
pids=""
for i in 1 2 3 4 5; do
	sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 1.5' sh "$V2/$P/gone$i" 9>&- &
	pids="$pids $!"
done
wait $pids
sleep 1
n_used=$(series "/$P/gone")
sleep $((EXPIRY + 1))
n_empty=$(series "/$P/gone")
[ "$n_used" -ge 5 ] && [ "$n_empty" -eq "$n_used" ]
tap_ok $? "five used cgroups have series, still there when empty for longer than the expiry" \
	"series of /$P/gone*: $n_used after use, $n_empty $((EXPIRY + 1)) s later; $(head -2 "$T/exporter.err")"

# every series of the test's cgroups, any metric (the machine's other series come and go with
# whatever else runs)
ours() { curl -s -m 2 "$URL" | grep -v '^#' | grep -c "cgroup=\"/$P[/\"]"; }
total1=$(ours)
rmdir "$V2/$P"/gone[1-5]
sleep 0.6
n_gone=$(series "/$P/gone")
[ "$n_gone" -eq "$n_used" ]
tap_ok $? "right after they are removed, their series are still there" "$n_gone of $n_used"

sleep $((EXPIRY + 2))
n_after=$(series "/$P/gone")
total2=$(ours)
[ "$n_after" -eq 0 ] && [ "$total2" -le $((total1 - n_used)) ]
tap_ok $? "after --series-expiry $EXPIRY s they are gone and the series count fell" \
	"$n_after series left; $total1 samples of /$P before, $total2 after" \
	"$(curl -s -m 2 "$URL" | grep "cgroup=\"/$P/gone" | head -3)"
[ "$(series "/$P/live\"")" -gt 0 ] && [ "$(series "/$P\"")" -gt 0 ]
tap_ok $? "a cgroup with a live process and the parent keep their series" \
	"live: $(series "/$P/live\""), parent: $(series "/$P\"")"

"$DELAYTOP" --series-expiry 86401 -n 1 >/dev/null 2>"$T/bad"
rc=$?
[ "$rc" -eq 2 ] && grep -q "invalid --series-expiry '86401': expected seconds from 0 to 86400" "$T/bad"
tap_ok $? "a bad --series-expiry: status 2, named" "status $rc: $(cat "$T/bad")"
done_testing
