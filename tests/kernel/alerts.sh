#!/bin/bash
# alerts.sh — contrib/prometheus's rules and contrib/grafana's dashboard against the real thing:
# delaytop's exporter, a real Prometheus (Debian's package) that scrapes it and evaluates the
# rules every second, and a real Alertmanager (prometheus-alertmanager) it sends alerts to, all
# on loopback ports of their own and stopped by their pids. The rules are a test copy with the
# same expressions but windows of 10 s, `for:` of 2 s and a lower I/O threshold. An O_DIRECT
# writer in a test cgroup waits on block I/O: DelaytopCgroupIOWait reaches Alertmanager naming
# the cgroup, the alerts on the exporter's health stay quiet, every query of the dashboard (its
# variables given concrete values) returns data (the exporter runs with --why, for the wait
# latency panel; where eBPF cannot run, that panel's queries are skipped, saying why), the
# writer's cgroup has a 99th percentile of I/O wait latency from histogram_quantile, and once the
# writer is stopped the alert resolves; once the exporter is stopped, DelaytopExporterDown
# arrives.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd prometheus promtool prometheus-alertmanager curl jq awk python3
require_taskstats

RULES=$top_srcdir/contrib/prometheus/delaytop-rules.yml
DASH=$top_srcdir/contrib/grafana/delaytop.json
require_v2
# O_DIRECT writes need a disk-backed directory
DIR=$(disk_dir)
[ -n "$DIR" ] || skip_all "no disk-backed writable directory (only tmpfs among /var/tmp, builddir, /tmp)"
WDIR=$(mktemp -d "$DIR/delaytop-alerts.XXXXXX") || skip_all "cannot create a directory in $DIR"
EXTRA_DIRS="$EXTRA_DIRS $WDIR"
NAME=delaytop-alerts-$$.service # named as a unit, for delaytop's unit label where it gives one
mkdir "$V2/$NAME" || skip_all "cannot create a cgroup under $V2"
trap 'cleanup; rmdir "$V2/$NAME" 2>/dev/null' EXIT
T=$TMPDIR_TEST

# The test copy of the rules: every window 10 s, every for: 2 s, the I/O threshold 0.02 s per s
# (the writer waits 0.05 to 0.8 s per s on I/O here: less when a loaded machine keeps it waiting
# for a CPU).
sed -E -e 's/\[[0-9]+m\]/[10s]/g' -e 's/^( +for: ).*/\12s/' \
	-e '/alert: DelaytopCgroupIOWait/,/for:/ s/ > 1$/ > 0.02/' "$RULES" >"$T/rules.yml"
[ "$(grep -c 'for: 2s$' "$T/rules.yml")" = "$(grep -c '^ *for: ' "$RULES")" ] &&
	grep -q 'kind="io".* > 0.02$' "$T/rules.yml" && ! grep -q '\[[0-9]*m\]' "$T/rules.yml" &&
	promtool check rules "$T/rules.yml" >"$T/check" 2>&1
tap_ok $? "the test copy of the rules is made (short windows and for:, I/O threshold 0.02) and is valid" \
	"the rules changed shape: this test's sed must follow" "$(tail -3 "$T/check" 2>/dev/null)"

lock_global # the writer loads the disk; the switch is flipped
START=$(date +%s.%N)
enable_delayacct
start_workload odirect "$WDIR/data"; W=$WORKLOAD_PID
echo "$W" >"$V2/$NAME/cgroup.procs" || skip_all "cannot move a task into $V2/$NAME"
sleep 0.2
kill -0 "$W" 2>/dev/null || skip_all "O_DIRECT writes fail on $DIR ($(stat -f -c %T "$DIR"))"

start_exporter -d 0.5 --why
tap_ok $? "the exporter answers" "stderr: $(head -3 "$T/exporter.err")"
# --why's histograms are wanted unless eBPF cannot run here: a reading of -b --why says whether it
# can (the exporter's own stderr says why not)
"$DELAYTOP" -b --why --format json -n 1 -d 0.2 -p 1 2>/dev/null | jq -r 'select(.type == "psi") | .why.state' 2>/dev/null |
	grep -qx on && WHY=1 || WHY=""
NOWHY="eBPF cannot run here: $(grep -m 1 -e why -e eBPF "$T/exporter.err")"
[ -n "$WHY" ] || diag "$NOWHY"
APORT=$(free_port)
PPORT=$(free_port)
mkdir "$T/am" "$T/prom"
cat >"$T/alertmanager.yml" <<'CONF'
route:
  receiver: none
receivers:
  - name: none
CONF
# --cluster.listen-address=: no gossip port, no peers
prometheus-alertmanager --config.file="$T/alertmanager.yml" --storage.path="$T/am" \
	--web.listen-address="127.0.0.1:$APORT" --cluster.listen-address= --log.level=warn >"$T/am.log" 2>&1 9>&- &
track_pid $!
cat >"$T/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ["$T/rules.yml"]
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["127.0.0.1:$APORT"]
scrape_configs:
  - job_name: delaytop
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
CONF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/prom" \
	--web.listen-address="127.0.0.1:$PPORT" --log.level=warn >"$T/prom.log" 2>&1 9>&- &
track_pid $!
PROM=http://127.0.0.1:$PPORT
AM=http://127.0.0.1:$APORT

# alerts NAME: Alertmanager's active alerts of that name, as JSON lines.
alerts() {
	curl -s -m 2 --get --data-urlencode "filter=alertname=\"$1\"" "$AM/api/v2/alerts" | jq -c '.[]' 2>/dev/null
}
# ours: the alert of alerts() on stdin about the test cgroup.
ours() {
	jq -c --arg cg "/$NAME" 'select(.labels.cgroup == $cg)'
}
# until SECONDS COMMAND...: runs the command every 0.5 s until it succeeds, for SECONDS at most.
until_ok() {
	local end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.5
	done
}
io_alert() { [ -n "$(alerts DelaytopCgroupIOWait | ours)" ]; }
no_io_alert() { [ -z "$(alerts DelaytopCgroupIOWait | ours)" ]; }

# prom_ok STATUS DESCRIPTION: a test point; when it failed, what Prometheus and Alertmanager
# made of it.
prom_ok() {
	tap_ok "$1" "$2"
	[ "$1" = 0 ] && return
	diag "Prometheus's alerts: $(curl -s -m 2 "$PROM/api/v1/alerts" | jq -c '[.data.alerts[]? | [.labels.alertname, .labels.cgroup // .labels.instance, .state]]')"
	diag "the rule's value: $(curl -s -m 2 --data-urlencode "query=cgroup_kind:delaytop_cgroup_delay_seconds:rate1m{kind=\"io\",cgroup=\"/$NAME\"}" "$PROM/api/v1/query" | jq -c '[.data.result[]?.value[1]]')"
	diag "logs: $(tail -n 3 "$T/prom.log" "$T/am.log" | tr '\n' ' ')"
}

until_ok 30 io_alert
prom_ok $? "DelaytopCgroupIOWait reaches Alertmanager for the writer's cgroup /$NAME"
alert=$(alerts DelaytopCgroupIOWait | ours | head -1)
summary=$(jq -r '.annotations.summary // empty' <<<"${alert:-null}")
description=$(jq -r '.annotations.description // empty' <<<"${alert:-null}")
case $summary in *"$NAME on 127.0.0.1:$PORT waits on block I/O"*) true ;; *) false ;; esac &&
	case $description in *"cgroup /$NAME"*) true ;; *) false ;; esac
tap_ok $? "its summary and description name the cgroup and the host" "summary: $summary" "description: $description"

# The exporter's health alerts stay quiet while it is healthy (lost exit records aside: another
# test's fork storm may overrun the listeners).
reply=$(curl -s -m 2 "$AM/api/v2/alerts")
others=$(jq -r '.[].labels.alertname' <<<"$reply" 2>/dev/null |
	grep -x -e DelaytopDelayAccountingOff -e DelaytopExporterDown -e DelaytopExporterAbsent -e DelaytopReadingsStalled)
jq -e 'type == "array"' <<<"$reply" >/dev/null 2>&1 && [ -z "$others" ]
tap_ok $? "no alert on the exporter's health while it is healthy (Alertmanager answered)" "active: $(echo $others)" \
	"reply: $(head -c 200 <<<"$reply")"

# The dashboard's queries, with its variables given values as Grafana would: each returns data.
# The test's cgroup is named like a service, so that the unit panels have a unit to show.
declare -A VALUE=([job]=delaytop [instance]="127.0.0.1:$PORT" [kind]=io [__rate_interval]=10s)
subst() {
	local e=$1 v
	for v in "${!VALUE[@]}"; do
		e=${e//"\${$v}"/${VALUE[$v]}}
		e=${e//"\$$v"/${VALUE[$v]}}
	done
	printf '%s' "$e"
}
# results PROMQL: how many series the query returns now.
results() {
	curl -s -m 5 --data-urlencode "query=$1" "$PROM/api/v1/query" | jq -r 'if .status == "success" then (.data.result | length) else "error: \(.error)" end' 2>&1
}
n=0
while IFS=$'\t' read -r title expr; do
	n=$((n + 1))
	q=$(subst "$expr")
	if [ -z "$WHY" ] && [[ $q == *delaytop_cgroup_wait_seconds* ]]; then
		tap_skip "dashboard panel \"$title\" returns data: $q" "$NOWHY"
		continue
	fi
	got=$(results "$q")
	# a variable left unsubstituted ($name, ${name}) is a miss; $1 is label_replace's own
	[[ ! $q =~ \$\{?[A-Za-z_] ]] && [[ $got =~ ^[1-9][0-9]*$ ]]
	tap_ok $? "dashboard panel \"$title\" returns data: $q" "series returned: ${got:-nothing}"
done < <(jq -r '.. | objects | select(has("targets")) | .title as $t | .targets[] | [$t, .expr] | @tsv' "$DASH")
[ "$n" -ge 20 ]
tap_ok $? "the dashboard's queries were found ($n)" "expected at least 20 targets with expr in $DASH"
while IFS=$'\t' read -r var query; do
	label=$(sed -E 's/^label_values\((.*), *([a-z_]+)\)$/\2/' <<<"$query")
	match=$(sed -E 's/^label_values\((.*), *([a-z_]+)\)$/\1/' <<<"$query")
	match=$(subst "$match")
	values=$(curl -s -m 5 --get --data-urlencode "match[]=$match" "$PROM/api/v1/label/$label/values" | jq -r '.data[]?' 2>/dev/null)
	grep -qxF "${VALUE[$var]}" <<<"$values"
	tap_ok $? "dashboard variable \$$var has values, among them ${VALUE[$var]}" "label_values($match, $label): $(echo $values)"
done < <(jq -r '.templating.list[] | select(.type == "query") | [.name, .definition] | @tsv' "$DASH")

# The issue's check of the histograms: a percentile for the test cgroup, a number of seconds.
if [ -n "$WHY" ]; then
	p99=$(curl -s -m 5 --data-urlencode "query=histogram_quantile(0.99, rate(delaytop_cgroup_wait_seconds_bucket{cgroup=\"/$NAME\",kind=\"io\"}[10s]))" \
		"$PROM/api/v1/query" | jq -r '.data.result[0].value[1] // empty' 2>/dev/null)
	within "${p99:-x}" 0.000001 10
	tap_ok $? "histogram_quantile(0.99) of the writer's cgroup's I/O waits is a number of seconds ($p99)" \
		"got: ${p99:-nothing} (NaN: no wait in the last 10 s)"
else
	tap_skip "histogram_quantile(0.99) of the writer's cgroup's I/O waits is a number of seconds" "$NOWHY"
fi

io_alert
prom_ok $? "the alert is still active after the queries, while the writer waits on I/O"
stop_pid "$W"
until_ok 30 no_io_alert
tap_ok $? "once the writer is stopped, the alert resolves in Alertmanager" "still active: $(alerts DelaytopCgroupIOWait | ours)"

kill -KILL "$EXPORTER_PID" # at once: a reading in progress would delay a clean stop
wait "$EXPORTER_PID" 2>/dev/null
down() { [ -n "$(alerts DelaytopExporterDown | jq -c --arg i "127.0.0.1:$PORT" 'select(.labels.instance == $i)')" ]; }
until_ok 20 down
prom_ok $? "once the exporter is stopped, DelaytopExporterDown arrives for its instance"
diag "took $(awk -v s="$START" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"

done_testing
