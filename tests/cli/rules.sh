#!/bin/bash
# rules.sh — contrib/'s Prometheus rules and Grafana dashboard, without a server: promtool check
# rules passes on the rules, promtool test rules passes their unit tests
# (contrib/prometheus/delaytop-rules.test.yml), every alert has a test where it fires and one
# where it must not, the recording rules are named level:metric:operations; the dashboard is
# JSON whose every panel has queries, on the dashboard's data source, using only its own
# variables and Grafana's. tests/kernel/alerts.sh runs them against a real Prometheus.
. "$top_srcdir/tests/lib.sh"

require_cmd promtool jq awk
RULES=$top_srcdir/contrib/prometheus/delaytop-rules.yml
TESTS=$top_srcdir/contrib/prometheus/delaytop-rules.test.yml
DASH=$top_srcdir/contrib/grafana/delaytop.json
T=$TMPDIR_TEST

promtool check rules "$RULES" >"$T/check" 2>&1
tap_ok $? "promtool check rules passes" "$(tail -5 "$T/check")"
promtool test rules "$TESTS" >"$T/test" 2>&1
tap_ok $? "promtool test rules passes the rules' unit tests" "$(head -30 "$T/test")"

# The alerts, and the alertnames of the tests that expect them to fire and not to fire.
alerts=$(sed -n 's/^ *- alert: *//p' "$RULES" | sort -u)
awk '/alertname:/ { name = $2 } /exp_alerts: *\[\]/ { print name }' "$TESTS" | sort -u >"$T/quiet"
awk '/alertname:/ { name = $2 } /exp_alerts: *$/ { print name }' "$TESTS" | sort -u >"$T/fire"
[ "$(echo "$alerts" | wc -w)" -ge 7 ] && [ "$alerts" = "$(cat "$T/quiet")" ] && [ "$alerts" = "$(cat "$T/fire")" ]
tap_ok $? "every alert has a test where it fires and one where it must not" \
	"alerts: $(echo $alerts)" "must not fire: $(echo $(cat "$T/quiet"))" "fire: $(echo $(cat "$T/fire"))"
bad=$(sed -n 's/^ *- record: *//p' "$RULES" | grep -v '^[a-z_]*:[a-z_]*:[a-z0-9_]*$')
[ -z "$bad" ] && grep -q 'record: cgroup_kind:delaytop_cgroup_delay_seconds:rate1m$' "$RULES"
tap_ok $? "recording rules are named level:metric:operations" "not so: $bad"

jq -e '.panels | length > 0' "$DASH" >/dev/null 2>&1
tap_ok $? "the dashboard is JSON with panels" "$(jq . "$DASH" 2>&1 >/dev/null | head -3)"
bad=$(jq -r '.. | objects | select(has("gridPos") and .type != "row") | select((.targets // []) | map(.expr // "") | map(select(. != "")) | length == 0) | .title' "$DASH")
[ -z "$bad" ]
tap_ok $? "every panel has a query" "panels without: $bad"
bad=$(jq -r '.. | objects | select(has("datasource")) | .datasource | select(type != "object" or .uid != "${datasource}") | tostring' "$DASH" | sort -u)
[ -z "$bad" ]
tap_ok $? "every panel, query and variable uses the dashboard's data source" "others: $bad"
ids=$(jq -r '[.. | objects | select(has("gridPos")) | .id] | (length|tostring) + " " + (unique|length|tostring)' "$DASH")
[ "${ids% *}" = "${ids#* }" ]
tap_ok $? "panel ids are unique" "panels, unique ids: $ids"
# Every $name and ${name} in a query or title is a variable of the dashboard or one of Grafana's.
known=$(jq -r '.templating.list[].name' "$DASH"; printf '%s\n' __rate_interval __interval __range)
used=$(jq -r '.. | objects | (.expr?, .title?, .definition?) // empty | strings' "$DASH" |
	grep -o '\$[{]\?[A-Za-z_][A-Za-z0-9_]*' | tr -d '${' | sort -u)
unknown=$(comm -23 <(echo "$used") <(echo "$known" | sort -u))
[ -n "$used" ] && [ -z "$unknown" ]
tap_ok $? "queries use only the dashboard's variables and Grafana's" "unknown: $(echo $unknown)"

done_testing
