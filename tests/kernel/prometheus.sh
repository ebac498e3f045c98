#!/bin/bash
# prometheus.sh — a real Prometheus server (Debian's package) scrapes delaytop --listen on loopback
# every second: the target is up (Prometheus asks for OpenMetrics and parses what it gets), the
# PromQL rate() of the test cgroup's CPU delay counter, with two spinners sharing one CPU in it,
# is the rate at which the kernel counted them waiting (about 1 second per second on a quiet
# machine), and no delaytop counter reset during the run. With --why (where eBPF runs), the
# cgroup's wait histogram of kind cpu gives histogram_quantile() a p50 no higher than its p99,
# and the rate() of its _sum is that of the CPU delay counter within 20%. Both servers run on
# loopback ports of their own and are stopped by their pids.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd prometheus curl jq awk python3
require_taskstats
lock_global # the spinners load CPU 1

require_v2
NAME=delaytop-prom.$$
mkdir "$V2/$NAME" || skip_all "cannot create a cgroup under $V2"
trap 'cleanup; rmdir "$V2/$NAME" 2>/dev/null' EXIT

PPORT=$(free_port)
T=$TMPDIR_TEST
mkdir "$T/data"

start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
echo "$A" >"$V2/$NAME/cgroup.procs" && echo "$B" >"$V2/$NAME/cgroup.procs" || skip_all "cannot move tasks into $V2/$NAME"

# --why where eBPF runs here (a reading of -b --why says whether it can)
"$DELAYTOP" -b --why --format json -n 1 -d 0.2 -p 1 2>/dev/null | jq -r 'select(.type == "psi") | .why.state' 2>/dev/null |
	grep -qx on && WHY=--why || WHY=""
start_exporter -d 0.5 $WHY
cat >"$T/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: delaytop
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
CONF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" \
	--web.listen-address="127.0.0.1:$PPORT" --log.level=warn >"$T/prom.log" 2>&1 9>&- &
PROM=$!
track_pid "$PROM"
API=http://127.0.0.1:$PPORT/api/v1/query

# query PROMQL: the first result's value, or nothing.
query() { curl -s --data-urlencode "query=$1" "$API" | jq -r '.data.result[0].value[1] // empty' 2>/dev/null; }

for _ in $(seq 60); do
	[ "$(query "up{job=\"delaytop\"}")" = 1 ] && break
	sleep 0.5
done
[ "$(query "up{job=\"delaytop\"}")" = 1 ]
tap_ok $? "Prometheus scrapes delaytop: up is 1" "$(tail -5 "$T/prom.log")"
# samples for a rate over 10 s, the spinners' waits marked as they go
for i in $(seq 0 48); do
	mark "P$i" "$A" "$B"
	sleep 0.25
done
mark P49 "$A" "$B"
q=${MARK_T[P49]}
rate=$(curl -s --data-urlencode "query=rate(delaytop_cgroup_delay_seconds_total{cgroup=\"/$NAME\",kind=\"cpu\"}[10s])" \
	--data-urlencode "time=$(awk -v q="$q" 'BEGIN { printf "%.6f", q / 1e6 }')" "$API" | jq -r '.data.result[0].value[1] // empty' 2>/dev/null)
# rate() divides what a counter grew between its first and last samples of the 10 s by the time
# between them (8 to 10 s, less if scrapes were late): growths between readings up to 1.5 s before
# a sample (the reading's 0.5 s, its lateness and the scrape's). The kernel's rates over every
# such stretch between the marks bound it; 5% more for the extrapolation to the range's ends.
range=$(for ((i = 0; i <= 49; i++)); do
	ti=${MARK_T[P$i]} wi=$((${MARK_WAIT[P$i:$A]} + ${MARK_WAIT[P$i:$B]}))
	for ((j = i + 1; j <= 49; j++)); do
		w=$(((${MARK_T[P$j]} - ti) / 1000))
		[ "$ti" -ge $((q - 11500000)) ] && [ "$w" -ge 6000 ] && [ "$w" -le 10500 ] &&
			echo "$(((${MARK_WAIT[P$j:$A]} + ${MARK_WAIT[P$j:$B]} - wi) / 1000)) $w"
	done
done | awk 'NR == 1 || $1 / $2 < lo { lo = $1 / $2 } NR == 1 || $1 / $2 > hi { hi = $1 / $2 } END { if (NR) printf "%.3f %.3f", lo / 1000, hi / 1000 }')
read -r want_lo want_hi <<<"$range"
awk -v r="$rate" -v lo="$want_lo" -v hi="$want_hi" 'BEGIN { exit !(r != "" && lo != "" && r >= lo * 0.95 - 0.02 && r <= hi * 1.05 + 0.02) }'
tap_ok $? "PromQL rate() of the cgroup's CPU delay is the rate the kernel counted the spinners waiting (schedstat)" \
	"rate: ${rate:-none}; the kernel: ${want_lo:-?}..${want_hi:-?} s per s over the stretches it can cover"
diag "PromQL rate ${rate:-none}; the kernel ${want_lo:-?}..${want_hi:-?} s per s"
# the histograms of --why, over the same 10 s
at="time=$(awk -v q="$q" 'BEGIN { printf "%.6f", q / 1e6 }')"
# at_q PROMQL: its first value at the last mark.
at_q() { curl -s --data-urlencode "query=$1" --data-urlencode "$at" "$API" | jq -r '.data.result[0].value[1] // empty' 2>/dev/null; }
hist=""
if [ -n "$WHY" ]; then
	b="rate(delaytop_cgroup_wait_seconds_bucket{cgroup=\"/$NAME\",kind=\"cpu\"}[10s])"
	p50=$(at_q "histogram_quantile(0.5, $b)")
	p99=$(at_q "histogram_quantile(0.99, $b)")
	within "${p50:-x}" 0.000001 10 && within "${p99:-x}" "${p50:-x}" 10
	tap_ok $? "histogram_quantile() of the spinners' cgroup's run-queue latency: p50 $p50 s <= p99 $p99 s" \
		"p50 ${p50:-none}, p99 ${p99:-none}"
	sum=$(at_q "rate(delaytop_cgroup_wait_seconds_sum{cgroup=\"/$NAME\",kind=\"cpu\"}[10s])")
	within "${sum:-x}" "$(awk -v r="$rate" 'BEGIN { print r * 0.8 - 0.02 }')" "$(awk -v r="$rate" 'BEGIN { print r * 1.2 + 0.02 }')"
	tap_ok $? "rate() of its _sum is that of the CPU delay counter within 20% (${sum:-none} and ${rate:-none} s per s)"
	hist="delaytop_cgroup_wait_seconds_bucket delaytop_cgroup_wait_seconds_sum delaytop_cgroup_wait_seconds_count"
else
	tap_skip "histogram_quantile() of the spinners' cgroup's run-queue latency" "eBPF cannot run here (--why)"
	tap_skip "rate() of its _sum is that of the CPU delay counter" "eBPF cannot run here (--why)"
fi
resets=""
for f in delaytop_cgroup_delay_seconds_total delaytop_cgroup_delays_total delaytop_command_delay_seconds_total \
	delaytop_command_delays_total delaytop_readings_total $hist; do
	resets="$resets $f=$(query "sum(resets($f[1m]))")"
done
[ -z "$(tr ' ' '\n' <<<"$resets" | grep -v -e '=0$' -e '^$')" ]
tap_ok $? "no delaytop counter went down during the run (resets() is 0 for each family)" "resets:$resets"
fmt=$(curl -s "http://127.0.0.1:$PPORT/api/v1/targets" | jq -r '.data.activeTargets[0].health')
[ "$fmt" = up ]
tap_ok $? "the target is healthy in Prometheus's own view" "health: $fmt"

done_testing
