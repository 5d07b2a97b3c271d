#!/usr/bin/env bash
# Installs tfmlir into ./.venv (see setup_env.sh) and runs the end-to-end demo:
# TensorFlow builds a TF1 TPU program (2 replicas, outside compilation, a while
# loop, a variable); tfmlir imports it, runs TF's TPU bridge in stages (printing
# the IR after each), runs it on XLA CPU and compares with plain TensorFlow.
# Arguments go to the demo (e.g. --input model.pb --fetch out --target init).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup_env.sh
# shellcheck disable=SC1091
. .venv/bin/activate
export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2}
python -m tfmlir.demo "$@"
