#!/bin/sh
# Regenerates the GUI screenshots in docs/images/ with `chaintwin gui --screenshot` on the embedded
# default scenario (and one regression scenario in the middle of a drain). Needs an X display;
# headless it uses xvfb-run. Usage (from the repository root): sh docs/images/make-screenshots.sh [build/chaintwin]
set -eu
bin=${1:-build/chaintwin}
out=docs/images
run() {
  if [ -n "${DISPLAY:-}" ]; then "$bin" gui "$@"; else xvfb-run -a -s "-screen 0 1280x1024x24" "$bin" gui "$@"; fi
}
for panel in pools credits workloads events; do
  run --screenshot "$out/gui-$panel.png" --at 6h --panel "$panel"
done
run --screenshot "$out/gui-nodes.png" --at 6h --panel nodes --node h100-0
run --screenshot "$out/gui-workload-explained.png" --at 24h --size 1280x900 --panel workloads \
  --workload team-a/h100-training-15
run --screenshot "$out/gui-chain.png" --at 6h --panel chain --select gpustack--nvidia-h100-80gb-hbm3-linux-amd64
run scenarios/regression/drained-queue-recovers-admin-policy.yaml --screenshot "$out/gui-drains.png" --at 30m \
  --panel drains
run scenarios/regression/drained-queue-recovers-admin-policy.yaml --screenshot "$out/gui-credits-holds.png" --at 30m \
  --panel credits --select gpustack--nvidia-tesla-t4-linux-amd64 --size 1280x400
# The cluster card map, the value scales and the pools on openb at 130 days.
openb=scenarios/traces/openb-default.yaml
run "$openb" --screenshot "$out/gui-cards-openb.png" --at 130d --panel cards --size 1280x1000
run "$openb" --screenshot "$out/gui-credits-log.png" --at 130d --panel credits --size 1280x500 \
  --select gpustack--nvidia-a100-sxm4-40gb-linux-amd64 --scale log
run "$openb" --screenshot "$out/gui-pools-openb.png" --at 130d --panel pools --size 1280x400
# Pending work, grouped by reason; a MIG card's profiles and holders; a flip awaiting re-detection.
run --screenshot "$out/gui-pending.png" --at 24h --panel pending
run --screenshot "$out/gui-mig.png" --at 6h --panel nodes --node h100-0 --size 1280x1000
run scenarios/walkthroughs/h100-mig.scenario.yaml --screenshot "$out/gui-mig-flip.png" --at 61m --panel nodes \
  --size 1280x600
# Two runs compared.
runs=$(mktemp -d)
"$bin" run --until 12h --db "$runs/a.sqlite" >/dev/null || true
"$bin" run --until 12h --seed 99 --db "$runs/b.sqlite" >/dev/null || true
run --db "$runs/a.sqlite" --db "$runs/b.sqlite" --screenshot "$out/gui-compare.png" --size 1280x900
# The Plan panel over a real plan's file.
plan_db=$(mktemp -d)/plan.db
"$bin" plan scenarios/plans/h100-nodes-for-the-default-mix.plan.yaml --db "$plan_db" >/dev/null
run --plan "$plan_db" --screenshot "$out/gui-plan.png" --size 1280x900
