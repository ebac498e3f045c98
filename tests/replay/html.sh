# html.sh — the HTML report (--format html) of fixture recordings, as an ordinary user, opened in a
# real browser: headless Chromium loads the page from a file and gives back its DOM, in which the
# pressure and delay charts have the points the readings make (long.rec: 599 readings with an
# interval, one point each), the first task of the CPU table is the one that waited most, the
# trigger events name who stalled (and who waits in D, build.rec), the I/O table of commands
# (build.rec) adds the waits of a name's processes (cc1's four, one waiting less than postgres, all
# of them more) and keeps cc1plus apart, and a process named <img src=x onerror=alert(1)>
# (hostile.rec) is text, in the commands' table too: no element and no event handler comes from a
# name, a command line, a cgroup or a user. stacks.rec's page (off-CPU stacks kept with its trigger
# events) draws a flame graph of each event and of the five tasks whose stacks add up longest, each
# bar's tooltip naming its frame, the bars of a task or event as the JSON of the same recording
# gives its stacks, each bar inside its parent, and, laid out by Chromium, every label inside its
# bar; a recording without stacks has one sentence instead. The page also parses as HTML5 without a
# single error (html5lib, strict), and a screenshot of it is kept in the build directory
# (tests/report.png, for doc/report.png).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/replay/fixture.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip_all "needs Chromium (Debian's chromium package) to open the report in a browser"
# html5lib: Debian's python3-html5lib, for the python3 that has it
PY=$(html5lib_python)

# browser ARGS... FILE: Chromium, headless, with its own profile in this test's directory (its
# configuration and cache too: XDG_CONFIG_HOME is otherwise the suite's directory without settings,
# which must stay absent).
browser() {
	local profile
	profile=$(mktemp -d "$TMPDIR_TEST/chromium.XXXXXX")
	HOME=$profile XDG_CONFIG_HOME=$profile/config XDG_CACHE_HOME=$profile/cache timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$profile" --hide-scrollbars "$@" 2>>"$TMPDIR_TEST/chromium.err"
}

dt -r "$FIX/hostile.rec" --format html -o "$FIX/hostile.html" 2>"$TMPDIR_TEST/err"
status=$?
tap_ok $status "-r hostile.rec --format html -o FILE writes the page" "status $status: $(head -3 "$TMPDIR_TEST/err")"
dt -r "$FIX/long.rec" --format html >"$TMPDIR_TEST/long.html" 2>"$TMPDIR_TEST/err"
tap_ok $? "without -o the page goes to standard output" "$(head -3 "$TMPDIR_TEST/err")"
cp "$FIX/hostile.html" "$TMPDIR_TEST/hostile.html" 2>/dev/null || : >"$TMPDIR_TEST/hostile.html"

browser --dump-dom "file://$TMPDIR_TEST/hostile.html" >"$TMPDIR_TEST/hostile.dom"
if [ ! -s "$TMPDIR_TEST/hostile.dom" ] || ! grep -q '<svg' "$TMPDIR_TEST/hostile.dom"; then
	if [ ! -s "$TMPDIR_TEST/hostile.html" ]; then
		tap_ok 1 "Chromium opens the page" "there is no page"
	else
		skip_all "Chromium cannot run here: $(grep -v -i dbus "$TMPDIR_TEST/chromium.err" | head -2)"
	fi
fi
browser --dump-dom "file://$TMPDIR_TEST/long.html" >"$TMPDIR_TEST/long.dom"
dt -r "$FIX/build.rec" --format html >"$TMPDIR_TEST/build.html" 2>"$TMPDIR_TEST/err"
tap_ok $? "-r build.rec --format html writes the page" "$(head -3 "$TMPDIR_TEST/err")"
browser --dump-dom "file://$TMPDIR_TEST/build.html" >"$TMPDIR_TEST/build.dom"
# why.rec: recorded with --why (cpu, io and blocked waits by log2 slot); its JSON is the truth the
# heat maps are checked against
dt -r "$FIX/why.rec" --format html >"$TMPDIR_TEST/why.html" 2>"$TMPDIR_TEST/err"
tap_ok $? "-r why.rec --format html writes the page" "$(head -3 "$TMPDIR_TEST/err")"
dt -r "$FIX/why.rec" --format json >"$TMPDIR_TEST/why.json" 2>>"$TMPDIR_TEST/err"
browser --dump-dom "file://$TMPDIR_TEST/why.html" >"$TMPDIR_TEST/why.dom"
export WHY_JSON=$TMPDIR_TEST/why.json
# stacks.rec: the stalled tasks' off-CPU stacks kept with its three trigger events; its JSON (each
# event's tasks with their stacks) is the truth of the flame graphs
dt -r "$FIX/stacks.rec" --format html >"$TMPDIR_TEST/stacks.html" 2>"$TMPDIR_TEST/err"
tap_ok $? "-r stacks.rec --format html writes the page" "$(head -3 "$TMPDIR_TEST/err")"
dt -r "$FIX/stacks.rec" --format json >"$TMPDIR_TEST/stacks.json" 2>>"$TMPDIR_TEST/err"
browser --dump-dom "file://$TMPDIR_TEST/stacks.html" >"$TMPDIR_TEST/stacks.dom"
export STACKS_JSON=$TMPDIR_TEST/stacks.json

# dom_check FILE CHECK: the DOM Chromium made, read by html5lib (as the browser serialized it);
# CHECK is Python over `doc` (an ElementTree root, namespaces stripped) that prints what is wrong.
# Prints what is wrong with the page $1 as script $2 finds it; a check that cannot run (a missing
# element, a page that does not parse) says so too, so that it never passes by printing nothing.
dom_check() {
	local out rc
	out=$("$PY" - "$1" "$2" 2>&1 <<'PYEOF'
import sys, html5lib
doc = html5lib.parse(open(sys.argv[1], 'rb').read(), namespaceHTMLElements=False)
for e in doc.iter():
    if isinstance(e.tag, str) and '}' in e.tag:
        e.tag = e.tag.split('}', 1)[1]
def text(e):
    return ''.join(e.itertext())
def by_id(i):
    for e in doc.iter():
        if e.get('id') == i:
            return e
    return None
exec(sys.argv[2])
PYEOF
	)
	rc=$?
	[ -z "$out" ] || printf '%s\n' "$out"
	[ "$rc" -eq 0 ] || echo "the check failed to run (status $rc)"
}

if [ -z "$PY" ]; then
	tap_skip "the DOM's checks" "needs python3-html5lib"
else
	out=$(dom_check "$TMPDIR_TEST/long.dom" '
for fig in ("psi-cpu", "psi-io", "tasks-cpu"):
    f = by_id(fig)
    paths = [p for p in f.iter("path") if "series" in (p.get("class") or "")] if f is not None else []
    if not paths:
        print(fig, "has no series")
    for p in paths:
        n = p.get("d").count("M") + p.get("d").count("L")
        if n != 599 or p.get("data-points") != "599":
            print(fig, "draws", n, "points, says", p.get("data-points"), "(599 expected)")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) "long.rec in the browser: each chart draws 599 points, one a reading" "$out"

	out=$(dom_check "$TMPDIR_TEST/hostile.dom" '
rows = by_id("top-tasks-cpu").findall("./tbody/tr")
first = text(rows[0].find("td")) if rows else None
if first != "cc1":
    print("the first row of the CPU table is", repr(first), "not cc1")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) "the CPU table starts with the task that waited most (cc1)" "$out"

	out=$(dom_check "$TMPDIR_TEST/build.dom" '
def table(i):
    t = by_id(i)
    return [[text(td) for td in tr.findall("td")] for tr in t.findall("./tbody/tr")] if t is not None else []
tasks, cmds = table("top-tasks-io"), table("top-commands-io")
heads = [text(th) for th in by_id("top-commands-io").iter("th")] if by_id("top-commands-io") is not None else []
cc1 = [r for r in cmds if r[0] == "cc1"]
waited = sum(float(r[4]) for r in tasks if r[0] == "cc1")
if heads[:3] != ["Command", "Processes", "Waited (s)"]:
    print("the titles:", heads)
elif not tasks or tasks[0][0] != "postgres":
    print("the I/O table of tasks does not start with postgres:", tasks[:1])
elif not cmds or cmds[0][0] != "cc1" or cc1[0][1] != "4":
    print("the I/O table of commands does not start with cc1 of 4 processes:", cmds[:2])
elif abs(float(cc1[0][2]) - waited) > 0.003:
    print("cc1 waited", cc1[0][2], "s, its processes", waited)
elif [r[1] for r in cmds if r[0] == "cc1plus"] != ["1"]:
    print("cc1plus is not a row of its own:", cmds)
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) \
		"build.rec: the I/O table of commands starts with cc1, its 4 processes' waits added; the tasks' with postgres" "$out"

	out=$(dom_check "$TMPDIR_TEST/hostile.dom" '
ev = [r for r in by_id("event-list").iter("tr") if r.get("class") == "event"] if by_id("event-list") is not None else []
if len(ev) != 2:
    print(len(ev), "events, 2 expected")
else:
    trig = text(ev[0].findall("td")[1])
    who = [text(s) for s in ev[0].iter("span") if s.get("class") == "staller"]
    if trig != "memory some 150ms 1s" or "postgres" not in who:
        print("first event:", repr(trig), "stalled:", who)
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) "the trigger events, the memory one with postgres among who stalled" "$out"

	out=$(dom_check "$TMPDIR_TEST/build.dom" '
ev = [r for r in by_id("event-list").iter("tr") if r.get("class") == "event"] if by_id("event-list") is not None else []
cell = " ".join(text(ev[0].findall("td")[3]).split()) if ev else ""
if cell != "postgres (900) waiting now (D)":
    print("build.rec, the memory event (nobody stalled, postgres in D): " + repr(cell))
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) "build.rec: an event names a task in D as waiting now, with no share" "$out"

	out=$(dom_check "$TMPDIR_TEST/hostile.dom" '
bad = [e.tag for e in doc.iter() if e.tag in ("img", "script", "b", "iframe", "object", "embed", "link")]
bad += [e.tag + " " + a for e in doc.iter() if isinstance(e.tag, str) for a in e.attrib if a.lower().startswith("on")]
if bad:
    print("elements or handlers from names:", bad)
names = [text(td) for td in doc.iter("td") if td.get("class") == "comm"]
want = "<img src=x onerror=alert(1)>\ufffd"
if want not in names:
    print("the name is not shown as text:", names)
cmds = [text(tr.find("td")) for tr in by_id("top-commands-cpu").findall("./tbody/tr")] if by_id("top-commands-cpu") is not None else []
if want not in cmds:
    print("the name is not text in the commands table:", cmds)
titles = [td.get("title") for td in doc.iter("td") if td.get("class") == "comm"]
if "\"\x27><script>alert(2)</script>" not in titles:
    print("the command line is not the cell title as text:", titles[-3:])
alltext = text(doc.find("body"))
for s in ("/evil.slice/<svg onload=alert(3)>&amp;", "<b>mallory</b>\""):
    if s not in alltext:
        print("missing as text:", s)
legend = [text(t) for t in doc.iter("title")]
if not any(t.startswith("/evil.slice/<svg") for t in legend):
    print("the cgroup is not a chart line title as text")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) \
		"a task named <img src=x onerror=alert(1)> is text: no element or handler from a name, command line, cgroup or user" "$out"

	# the heat maps of why.rec: per kind, each task's and cgroup's cells hold, reading by reading and
	# slot by slot, the waits the JSON of the same recording gives (its tasks' added for a cgroup),
	# the rows are the slots from the shortest wait to the longest, each labelled with its range
	out=$(dom_check "$TMPDIR_TEST/why.dom" '
import json, math, os, re
truth = {}  # (kind, "task", id) or (kind, "cgroup", path) -> {(HH:MM:SS, slot): count}
for line in open(os.environ["WHY_JSON"]):
    r = json.loads(line)
    if r.get("type") != "task" or not r.get("why"):
        continue
    when = r["time"][11:19]
    for kind, v in r["why"]["latency"].items():
        for le, n in (v or {}).get("buckets", []):
            slot = round(math.log2(le * 1000)) - 1
            for key in ((kind, "task", str(r["tid"] or r["pid"])), (kind, "cgroup", r["cgroup"])):
                cells = truth.setdefault(key, {})
                cells[(when, slot)] = cells.get((when, slot), 0) + n
def bound_ms(t):
    m = re.fullmatch(r"([0-9.]+)(us|ms|s)", t)
    return float(m.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(2)] if m else None
sec = by_id("latency")
figs = [f for f in sec.iter("figure") if f.get("class") == "heat"] if sec is not None else []
kinds = sorted({f.get("id").split("-")[2] for f in figs})
if kinds != ["blocked", "cpu", "io"]:
    print("heat maps of kinds", kinds, "not blocked, cpu and io")
for f in figs:
    _, what, kind, who = f.get("id").split("-", 3)
    if what == "cgroup":
        who = text(f.find(".//span"))
    want = truth.get((kind, what, who))
    labels = [text(t) for t in f.iter("text") if "slot" in (t.get("class") or "")]
    slots = sorted({s for (_, s) in want}) if want else []
    if not want or len(labels) != slots[-1] - slots[0] + 1:
        print(f.get("id"), "has", len(labels), "rows, the JSON slots", slots)
        continue
    for i, l in enumerate(labels):
        hi = bound_ms(l.split("\u2013")[-1])
        le = 2 ** (slots[0] + i + 1) / 1000
        if hi is None or abs(hi - le) > le * 0.01:
            print(f.get("id"), "row", i, "is labelled", repr(l), "for a slot up to", le, "ms")
    got = {}
    for rect in f.iter("rect"):
        if rect.get("class") != "cell":
            continue
        m = re.fullmatch(r"(\d\d:\d\d:\d\d), (\S+); waits: (\d+)", text(rect.find("title")))
        if not m or m.group(2) not in labels:
            print(f.get("id"), "a cell titled", repr(text(rect.find("title"))))
            continue
        key = (m.group(1), slots[0] + labels.index(m.group(2)))
        got[key] = got.get(key, 0) + int(m.group(3))
    if got != want:
        print(f.get("id"), "cells", sorted(got.items())[:4], "the JSON", sorted(want.items())[:4])
    if f.get("data-waits") != str(sum(got.values())):
        print(f.get("id"), "says", f.get("data-waits"), "waits, its cells hold", sum(got.values()))
if len(figs) < 12:
    print(len(figs), "heat maps, 12 or more expected")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) \
		"why.rec: the heat maps of cpu, io and blocked hold each reading's waits by slot as the JSON, rows labelled with their ranges" "$out"

	out=$(dom_check "$TMPDIR_TEST/why.dom" '
bad = [e.tag for e in doc.iter() if e.tag in ("img", "script", "b", "iframe", "object", "embed", "link")]
bad += [e.tag + " " + a for e in doc.iter() if isinstance(e.tag, str) for a in e.attrib if a.lower().startswith("on")]
if bad:
    print("elements or handlers from names:", bad)
who = [text(s) for s in doc.iter("span") if s.get("class") == "who"]
for want in ("<img src=x onerror=alert(1)>\ufffd (1601)", "/evil.slice/<svg onload=alert(3)>&amp;"):
    if want not in who:
        print("not a heat map caption as text:", repr(want), who[:6])
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) "why.rec: the heat maps name a task <img src=x onerror=alert(1)> and its cgroup as text" "$out"

	out=$(dom_check "$TMPDIR_TEST/hostile.dom" '
none = by_id("latency-none")
if none is None or "without --why" not in text(none):
    print("no sentence saying the recording was made without --why:", None if none is None else text(none))
if [f for f in doc.iter("figure") if f.get("class") == "heat"] or [s for s in doc.iter("svg") if s.get("class") == "heatmap"]:
    print("a heat map drawn for a recording without --why")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) "hostile.rec (without --why): one sentence says so, no heat map" "$out"

	# the flame graphs of stacks.rec: per event (in the order of the JSON's events) a bar per task
	# it names with stacks, as long as their ms added; per task (the five longest, longest first)
	# its stacks of every reading with events added once; every frame of the JSON a bar's
	# tooltip; each bar inside the bar above it, the bars below one no wider together
	out=$(dom_check "$TMPDIR_TEST/stacks.dom" '
import json, os, re
events, tasks, seen = [], {}, set()
for line in open(os.environ["STACKS_JSON"]):
    r = json.loads(line)
    if r.get("type") != "event":
        continue
    ev = {}
    for t in r["tasks"] + r["waiting"]:
        if t.get("stacks"):
            name = "%s (%d)" % (t["command"], t["tid"] or t["pid"])
            ev[name] = t["stacks"]
            if (r["time"], name) not in seen:
                seen.add((r["time"], name))
                tasks.setdefault(name, []).extend(t["stacks"])
    events.append(ev)
def bars(fig):
    out = []
    for g in fig.iter("g"):
        rect, title = g.find("rect"), g.find("title")
        if rect is None or title is None:
            continue
        name, nums = text(title).rsplit("\n", 1)
        out.append(dict(name=name, x=float(rect.get("x")), w=float(rect.get("width")),
                        d=int(rect.get("y")) // 17, ms=float(rect.get("data-ms"))))
    return out
def geometry(fid, bs):
    for b in bs:
        if b["d"] == 0:
            if abs(b["x"]) > 0.005 or abs(b["w"] - 1000) > 0.005:
                print(fid, "the root is not 1000 wide:", b)
            continue
        up = [p for p in bs if p["d"] == b["d"] - 1 and p["x"] - 0.005 <= b["x"] and b["x"] + b["w"] <= p["x"] + p["w"] + 0.005]
        if len(up) != 1:
            print(fid, "bar", repr(b["name"]), "is inside", len(up), "bars above it")
            return
        b["up"] = id(up[0])
    for p in bs:
        kids = [b for b in bs if b.get("up") == id(p)]
        if sum(b["w"] for b in kids) > p["w"] + 0.005 or sum(b["ms"] for b in kids) > p["ms"] + 0.005:
            print(fid, "the bars below", repr(p["name"]), "are wider or longer together than it")
figs = {f.get("id"): f for f in doc.iter("figure") if f.get("class") == "flame"}
for i, ev in enumerate(events):
    fid = "flame-event-%d" % (i + 1)
    f = figs.get(fid)
    if not ev:
        if f is not None:
            print(fid, "drawn for an event without stacks")
        continue
    if f is None:
        print(fid, "missing")
        continue
    bs = bars(f)
    geometry(fid, bs)
    got = {b["name"]: b["ms"] for b in bs if b["d"] == 1}
    want = {n: sum(s["ms"] for s in st) for n, st in ev.items()}
    if set(got) != set(want) or any(abs(got[n] - want[n]) > 0.01 for n in want):
        print(fid, "has the task bars", got, "the JSON", want)
    names = {b["name"] for b in bs}
    for st in ev.values():
        for s in st:
            for fr in s["frames"]:
                if fr.replace("\xff", "\ufffd") not in names:
                    print(fid, "no bar for the frame", repr(fr))
top = sorted(tasks, key=lambda n: -sum(s["ms"] for s in tasks[n]))[:5]
order = [f.get("id") for f in figs.values() if f.get("id").startswith("flame-task-")]
if order != ["flame-task-" + re.search(r"\((\d+)\)$", n).group(1) for n in top]:
    print("the tasks drawn", order, "the five longest of the JSON", top)
for n in top:
    fid = "flame-task-" + re.search(r"\((\d+)\)$", n).group(1)
    f = figs.get(fid)
    bs = bars(f) if f is not None else []
    geometry(fid, bs)
    root = [b for b in bs if b["d"] == 0]
    want = sum(s["ms"] for s in tasks[n])
    if not root or root[0]["name"] != n.replace("\xff", "\ufffd") or abs(root[0]["ms"] - want) > 0.01:
        print(fid, "root", root[:1], "for", repr(n), want, "ms")
if len(figs) != sum(1 for e in events if e) + len(top) or len(top) != 5:
    print(len(figs), "flame graphs for", sum(1 for e in events if e), "events with stacks and", len(top), "tasks")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) \
		"stacks.rec: a flame graph per event and per top task, bars as the JSON's stacks, each inside the one above" "$out"

	out=$(dom_check "$TMPDIR_TEST/stacks.dom" '
bad = [e.tag for e in doc.iter() if e.tag in ("img", "script", "b", "iframe", "object", "embed", "link")]
bad += [e.tag + " " + a for e in doc.iter() if isinstance(e.tag, str) for a in e.attrib if a.lower().startswith("on")]
if bad:
    print("elements or handlers from names:", bad)
titles = [text(t).split("\n")[0] for t in doc.iter("title")]
for want in ("<script>alert(4)</script>+0x10", "main\ufffd&amp;\"+0x20", "<img src=x onerror=alert(1)>\ufffd (1600)"):
    if want not in titles:
        print("not a tooltip as text:", repr(want))
labels = [text(t) for s in doc.iter("svg") if s.get("class") == "flame" for t in s.iter("text")]
if "<script>alert(4)</script>+0x10" not in labels:
    print("the hostile frame is no label in full:", [l for l in labels if "script" in l][:3])
if by_id("stacks-none") is not None:
    print("the sentence of a recording without stacks")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) \
		"stacks.rec: frames named <script>alert(4)</script> and not UTF-8, and the task <img ...>, are text in the flame graphs" "$out"

	out=$(dom_check "$TMPDIR_TEST/hostile.dom" '
none = by_id("stacks-none")
if none is None or "--why and --trigger" not in text(none):
    print("no sentence saying how to get stacks:", None if none is None else text(none))
if [s for s in doc.iter("svg") if s.get("class") == "flame"]:
    print("a flame graph drawn for a recording without stacks")
')
	tap_ok $([ -z "$out" ] && echo 0 || echo 1) "hostile.rec (without stacks): one sentence says how to get them, no flame graph" "$out"

	for f in hostile long build why stacks; do
		err=$(html5_errors "$PY" "$TMPDIR_TEST/$f.html")
		tap_ok $([ -z "$err" ] && echo 0 || echo 1) "$f.rec's page parses as HTML5 without an error (html5lib, strict)" "$err"
	done
fi

bad=$(cat "$TMPDIR_TEST/hostile.html" "$TMPDIR_TEST/stacks.html" |
	grep -o -i -E '<(script|link|img|iframe|object|embed|audio|video)\b|@import|url\(| (src|href)="|https?://[^ "]*' |
	grep -v -x 'http://www.w3.org/2000/svg')
tap_ok $([ -z "$bad" ] && echo 0 || echo 1) "the pages (hostile.rec's, stacks.rec's) fetch nothing and run nothing: no script, link, image, url() or src" \
	"found: $(echo $bad | head -c 300)"

# ---- the layout, as Chromium lays it out at 1200 pixels: a script added to a copy of the page
# (the page itself runs none) writes what it measures into the page, which --dump-dom shows ----
layout_check() {
	local page=$1 copy=$TMPDIR_TEST/layout-$(basename "$1")
	{
		cat "$page"
		cat <<'JSEOF'
<script>
var errors = [];
window.addEventListener('error', function (e) { errors.push('script error: ' + e.message); });
window.addEventListener('load', function () {
	var out = [], root = document.documentElement;
	if (root.scrollWidth > root.clientWidth)
		out.push('the page is ' + root.scrollWidth + ' px wide in a window of ' + root.clientWidth);
	var charts = document.querySelectorAll('svg.chart');
	if (!charts.length)
		out.push('no chart');
	charts.forEach(function (svg, c) {
		var rows = {};
		svg.querySelectorAll('text.tick').forEach(function (t) {
			var b = t.getBoundingClientRect();
			if (t.getAttribute('text-anchor') === 'end' && !/:/.test(t.textContent) && !/-/.test(t.textContent))
				return; /* the value axis */
			var y = Math.round(b.top);
			(rows[y] = rows[y] || []).push({ l: b.left, r: b.right, s: t.textContent });
		});
		Object.keys(rows).forEach(function (y) {
			var r = rows[y].sort(function (a, b) { return a.l - b.l; });
			for (var i = 1; i < r.length; i++)
				if (r[i].l < r[i - 1].r)
					out.push('chart ' + c + ': "' + r[i - 1].s + '" runs into "' + r[i].s + '"');
		});
	});
	/* each flame graph's label inside its bar, as laid out (the SVG's own units) */
	var labels = 0;
	document.querySelectorAll('svg.flame g').forEach(function (g) {
		var r = g.querySelector('rect'), t = g.querySelector('text');
		if (!r || !t)
			return;
		var x = r.x.baseVal.value, w = r.width.baseVal.value, b = t.getBBox();
		var len = t.getComputedTextLength();
		labels++;
		if (b.x < x - 0.01 || b.x + b.width > x + w + 0.01 || len > w)
			out.push('the label "' + t.textContent + '" (' + b.x.toFixed(2) + ' to ' +
				 (b.x + b.width).toFixed(2) + ') leaves its bar (' + x + ' to ' + (x + w) + ')');
	});
	if (document.querySelector('svg.flame') && !labels)
		out.push('flame graphs without a label');
	var pre = document.createElement('pre');
	pre.id = 'layout-check';
	pre.textContent = out.concat(errors).length ? out.concat(errors).join('\n') : 'ok';
	pre.setAttribute('data-labels', labels);
	document.body.appendChild(pre);
});
</script>
JSEOF
	} >"$copy"
	browser --window-size=${LAYOUT_WIDTH:-1200},2000 --dump-dom "file://$copy" >"$copy.dom"
	"$PY" - "$copy.dom" <<'PYEOF'
import sys, html5lib
doc = html5lib.parse(open(sys.argv[1], 'rb').read(), namespaceHTMLElements=False)
found = [e for e in doc.iter() if e.get('id') == 'layout-check']
print(''.join(found[0].itertext()) if found else 'the layout check did not run')
if found and found[0].get('data-labels', '0') != '0':
    print('labels', found[0].get('data-labels'), file=sys.stderr)
PYEOF
}
# 35 s of long.rec from 00:01:04: ticks every 5 s, 130 units apart, the first near the left edge
# (anchored at its start) and with seconds (where a date beside
# its time ran into the next label)
dt -r "$FIX/long.rec" --format html --begin @1767225664 --end @1767225699 >"$TMPDIR_TEST/short.html" 2>/dev/null
for f in hostile long short why; do
	got=$(layout_check "$TMPDIR_TEST/$f.html" 2>/dev/null)
	[ "$got" = ok ]
	tap_ok $? "$f's page at 1200 px: no sideways scroll (a cgroup of 240 letters breaks), no time label runs into the next" "$got"
done
# stacks.rec's flame graphs at 1200 px, and at 500 (the SVG scaled down: the labels with it)
for width in 1200 500; do
	got=$(LAYOUT_WIDTH=$width layout_check "$TMPDIR_TEST/stacks.html" 2>"$TMPDIR_TEST/labels")
	n=$(sed -n 's/^labels //p' "$TMPDIR_TEST/labels")
	[ "$got" = ok ] && [ "${n:-0}" -gt 100 ]
	tap_ok $? "stacks.rec's page at $width px: every flame graph's label inside its bar (${n:-no} labels), no script error" "$got"
done

shot=${top_builddir:-.}/tests/report.png
rm -f "$shot"
browser --screenshot="$shot" --window-size=1200,2000 "file://$TMPDIR_TEST/hostile.html" >/dev/null
size=$(stat -c %s "$shot" 2>/dev/null || echo 0)
[ "$size" -gt 10000 ] && [ "$size" -lt 400000 ] && head -c 8 "$shot" | od -c | grep -q 'P   N   G'
tap_ok $? "a screenshot of the page, a PNG of 10 to 400 KB, is kept at tests/report.png" "size $size"

done_testing
