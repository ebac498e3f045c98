# tree.sh — --tree and --tree-sums in batch mode: a shell with two spinners on one CPU comes out as
# a root with two children (ppid, depth), in tree order; with sums the shell's CPU delay and CPU
# time are its children's added to its own, and its totals since the start too.
. "$top_srcdir/tests/lib.sh"

require_taskstats
require_cpus 2
require_cmd jq
lock_global
enable_delayacct

T=$TMPDIR_TEST
wait_cpu_quiet 1
start_family 1
parent=$FAMILY_PARENT kid1=$FAMILY_KID1 kid2=$FAMILY_KID2

"$DELAYTOP" -b --tree --format=json -p "$parent,$kid1,$kid2" -d 0.5 -n 2 >"$T/tree.json" 2>"$T/err"
tap_ok $? "--tree --format=json exits 0" "$(head -3 "$T/err")"
last() { jq -c -s '[.[] | select(.type == "task")] | .[-3:] | .[]' "$1"; }
got=$(last "$T/tree.json" | jq -r '"\(.pid):\(.ppid // 0):\(.depth)"' | tr '\n' ' ')
want="$parent:$(awk '{ print $4 }' "/proc/$parent/stat"):0 $kid1:$parent:1 $kid2:$parent:1 "
want2="$parent:$(awk '{ print $4 }' "/proc/$parent/stat"):0 $kid2:$parent:1 $kid1:$parent:1 "
[ "$got" = "$want" ] || [ "$got" = "$want2" ]
tap_ok $? "the shell first (depth 0), its two spinners after it (ppid the shell, depth 1)" "got '$got', want '$want'"

"$DELAYTOP" -b --tree-sums --accumulate --format=json -p "$parent,$kid1,$kid2" -d 0.5 -n 2 >"$T/sums.json" 2>"$T/err"
tap_ok $? "--tree-sums --accumulate --format=json exits 0" "$(head -3 "$T/err")"
rows=$(last "$T/sums.json")
p=$(jq -r "select(.pid == $parent) | .delay.cpu.total_s" <<<"$rows")
k=$(jq -s -r "[.[] | select(.pid != $parent) | .delay.cpu.total_s] | add" <<<"$rows")
awk -v p="$p" -v k="$k" 'BEGIN { exit !(k > 0.2 && p >= k - 0.002 && p <= k + 0.05) }'
tap_ok $? "summed, the shell's CPU delay since the start is its spinners' (and its own, about 0)" \
	"shell $p s, spinners $k s"
p=$(jq -r "select(.pid == $parent) | .run_s" <<<"$rows")
k=$(jq -s -r "[.[] | select(.pid != $parent) | .run_s] | add" <<<"$rows")
# (the spinners ran: 0.5 s each on a quiet machine, a part of that beside other load)
awk -v p="$p" -v k="$k" 'BEGIN { exit !(k > 0.005 && p >= k - 0.002 && p <= k + 0.05) }'
tap_ok $? "and its CPU time is theirs too" "shell $p s, spinners $k s"

"$DELAYTOP" -b --tree -H -n 1 >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q -- '--tree' "$T/err"
tap_ok $? "--tree with -H: status 2 and a message naming --tree" "$(cat "$T/err")"
kill "$kid1" "$kid2" 2>/dev/null
stop_pid "$parent"
done_testing
