#!/bin/sh
# The Xvfb screenshot test: `chaintwin gui --screenshot` under a virtual X server writes a PNG of
# the requested size whose known regions are drawn (not background). Exit 77 (ctest: skipped,
# with this message) only where xvfb-run is absent; .ci/run installs it, so CI runs the test.
# Usage: screenshot_test.sh CHAINTWIN PNG_PROBE OUT_DIR SOURCE_DIR
set -eu
chaintwin=$1 probe=$2 out=$3 src=$4
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "SKIPPED: xvfb-run is not installed (apt-get install xvfb xauth); the GUI screenshot test did not run"
  exit 77
fi
mkdir -p "$out"
bg=1a1d23
shoot() {  # FILE ARGS...
  file=$1
  shift
  rm -f "$file"
  xvfb-run -a -s "-screen 0 1280x1024x24" "$chaintwin" gui "$@" --screenshot "$file"
}
# Pools at 6 h, 1024x700: the controls strip, the tab bar and the four pool rows are drawn; the
# table's empty lower part is background but for the column lines.
shoot "$out/pools.png" --at 6h --size 1024x700 --panel pools
"$probe" "$out/pools.png" 1024 700 $bg controls:0,2,1024,28:">=0.10" tabs:0,36,560,18:">=0.25" \
  rows:0,100,1024,84:">=0.15" empty:0,400,1024,250:"<=0.05"
# Nodes and cards at 6 h: the Node list on the left and the selected Node's cards on the right.
shoot "$out/nodes.png" --at 6h --size 1280x800 --panel nodes
"$probe" "$out/nodes.png" 1280 800 $bg nodelist:10,62,240,90:">=0.03" details:266,60,1000,270:">=0.05"
# A cluster mid-drain: the drains strip has a coloured span.
shoot "$out/drains.png" "$src/scenarios/regression/finalizing-flavor-moves-partial-pool-workload.yaml" --at 5m \
  --size 1280x800 --panel drains
"$probe" "$out/drains.png" 1280 800 $bg strip:330,76,940,14:">=0.02"
# Holds over time (issue 24): the drained-queue regression at 15 min, its T4 pool selected. On the
# chart's axis (start to now: 0..15 min over the chart's width) the admin's Hold (5-10 min) is shaded
# yellow, the drain to an empty plan (10-15 min) red, nothing before 5 min; the 5m and 10m ticks are labelled.
shoot "$out/credits-holds.png" "$src/scenarios/regression/drained-queue-recovers-admin-policy.yaml" --at 15m \
  --size 1280x800 --panel credits --select gpustack--nvidia-tesla-t4-linux-amd64
"$probe" "$out/credits-holds.png" 1280 800 $bg hold:445,135,380,60:">=0.80:yellow" drain:865,135,380,60:">=0.80:red" \
  before:100,135,300,60:"<=0.01:yellow" before2:100,135,300,60:"<=0.01:red" tick5m:427,206,22,10:">=0.05" \
  tick10m:847,206,26,10:">=0.05"
# The cluster card map of openb at 130 days: every card of the trace's cluster is one solid cell,
# 6,212 of them, whatever their mode or fill (png_probe counts the solid squares).
shoot "$out/cards-openb.png" "$src/scenarios/traces/openb-default.yaml" --at 130d --size 1280x1000 --panel cards
"$probe" "$out/cards-openb.png" 1280 1000 $bg cells:0,90,1280,910:squares=6212 header:0,60,600,40:">=0.02"
# The value axis on openb at 130 days (issue 24): the A100-40GB pool reserves 32 of its 4,392 cards.
# On the nominal scale its line lies on the chart's floor (no blue in the upper part); on the log
# scale (decades of cards) it climbs into the chart's upper part; the "10 cards" and "100 cards"
# labels are drawn on the left.
a100=gpustack--nvidia-a100-sxm4-40gb-linux-amd64
shoot "$out/credits-nominal.png" "$src/scenarios/traces/openb-default.yaml" --at 130d --size 1280x600 --panel credits \
  --select $a100
"$probe" "$out/credits-nominal.png" 1280 600 $bg upper:60,130,1100,280:"<=0.0001:blue"
shoot "$out/credits-log.png" "$src/scenarios/traces/openb-default.yaml" --at 130d --size 1280x600 --panel credits \
  --select $a100 --scale log
"$probe" "$out/credits-log.png" 1280 600 $bg upper:60,130,1100,280:">=0.001:blue" ticks10:8,428,60,12:">=0.05:light" \
  ticks100:8,311,60,12:">=0.05:light" between:8,360,60,30:"<=0.001:light"
# The drains history at two times (issue 24): on the drained-queue regression at 15 min the admin's
# Hold (5-10 min) has ended and both queues are in HoldAndDrain (red badges) "(still held)"; at
# 30 min the same three rows are still listed, the drains now ended at 20 min (the "(still held)"
# text, wider than a time, is gone from the third row), and a fourth row (Hold restored) follows.
drained="$src/scenarios/regression/drained-queue-recovers-admin-policy.yaml"
shoot "$out/drains-15m.png" "$drained" --at 15m --size 1280x800 --panel drains
"$probe" "$out/drains-15m.png" 1280 800 $bg hold:533,139,32,11:">=0.5" drain2:533,184,85,11:">=0.5:red" \
  drain3:533,229,85,11:">=0.5:red" open3:498,229,14,12:">=0.05" row4:0,275,1280,40:"<=0.01"
shoot "$out/drains-30m.png" "$drained" --at 30m --size 1280x800 --panel drains
"$probe" "$out/drains-30m.png" 1280 800 $bg hold:533,139,32,11:">=0.5" drain2:533,184,85,11:">=0.5:red" \
  drain3:533,229,85,11:">=0.5:red" ended3:498,229,14,12:"<=0.01" to3:425,229,70,12:">=0.05" \
  row4:533,274,32,11:">=0.5" row4notred:533,274,32,11:"<=0.01:red" row5:0,320,1280,40:"<=0.01"
# Pending work on the default scenario at 24 h, grouped by reason: the largest group (topology
# doesn't fit) open with its table, the three others collapsed below it, nothing after them.
shoot "$out/pending.png" --at 24h --size 1280x800 --panel pending
"$probe" "$out/pending.png" 1280 800 $bg open:10,85,1260,12:">=0.9" table:0,125,1260,280:">=0.3" \
  closed1:10,413,1260,12:">=0.9" closed2:10,436,1260,12:">=0.9" closed3:10,459,1260,12:">=0.9" \
  below:0,480,1280,310:"<=0.005"
# The Workloads panel with a Workload preselected: beside its history, why it waits (the gate, the
# quota, who holds it) fills the lower right.
shoot "$out/workload-explained.png" --at 24h --size 1280x900 --panel workloads --workload team-a/h100-training-15
"$probe" "$out/workload-explained.png" 1280 900 $bg history:10,600,540,280:">=0.05" why:590,600,680,280:">=0.05"
# A finished run read back from its results file: the credits charts are drawn.
rm -f "$out/run.sqlite"
"$chaintwin" run --until 6h --db "$out/run.sqlite" >/dev/null
shoot "$out/credits-from-db.png" --db "$out/run.sqlite" --at 6h --size 1280x800 --panel credits
"$probe" "$out/credits-from-db.png" 1280 800 $bg charts:8,100,1260,400:">=0.30"
# Two run files compared (gui --db A --db B): the two runs named on top, the pools' table and the
# GPU models' table drawn.
rm -f "$out/run7.sqlite"
"$chaintwin" run --until 6h --seed 7 --db "$out/run7.sqlite" >/dev/null || true  # exit 1: expectations of seed 42
shoot "$out/compare.png" --db "$out/run.sqlite" --db "$out/run7.sqlite" --size 1280x800
"$probe" "$out/compare.png" 1280 800 $bg runs:0,4,600,30:">=0.05:light" pools:0,100,1260,250:">=0.01:light" \
  models:0,460,1260,250:">=0.01:light"
# The live mode's window over `chaintwin serve`: the LIVE strip and the Drift tab are drawn.
: >"$out/serve.out"  # the background job opens it only once it runs; sed must find it before that
"$chaintwin" serve --listen 127.0.0.1:0 --at 1h >"$out/serve.out" 2>&1 &
spid=$!
port=""
for _ in $(seq 1 300); do
  port=$(sed -n 's|^serving .* on http://127.0.0.1:\([0-9]*\)$|\1|p' "$out/serve.out")
  [ -n "$port" ] && break
  sleep 0.1
done
printf 'current-context: t\nclusters: [{name: t, cluster: {server: "http://127.0.0.1:%s"}}]\ncontexts: [{name: t, context: {cluster: t}}]\n' "$port" >"$out/kc.yaml"
rm -f "$out/live.png"
xvfb-run -a -s "-screen 0 1280x1024x24" "$chaintwin" live --kubeconfig "$out/kc.yaml" --gui --screenshot "$out/live.png" || { kill $spid; exit 1; }
kill $spid
"$probe" "$out/live.png" 1280 800 $bg strip:0,4,700,20:">=0.04" tabs:0,30,650,18:">=0.25" verdict:0,52,500,14:">=0.05"
# A capacity plan's window over its SQLite file: the report's lines on top, the plots below (the
# plot images are white, far from the background).
rm -f "$out/plan.db"
"$chaintwin" plan "$src/tests/sim/plan/data/constant-demand.plan.yaml" --db "$out/plan.db" >/dev/null 2>&1
shoot "$out/plan.png" --plan "$out/plan.db" --size 1280x900
"$probe" "$out/plan.png" 1280 900 $bg summary:0,0,700,120:">=0.03" plots:8,450,1260,300:">=0.50"
echo "screenshots in $out"
