"""Installed into the vLLM environment on CPU machines (scripts/install_vllm.sh), loaded at start-up by a .pth file.

The registry's torchvision wheel is CUDA-linked: its ``_C`` extension does not load next to CPU torch, and
torchvision then calls ``register_fake("torchvision::nms")`` unguarded, so ``import torchvision`` fails ("operator
torchvision::nms does not exist") and vLLM's Qwen3-VL processor with it. This hook runs just before torchvision is
first imported: if its extension cannot load, it declares the two op schemas, so the import succeeds (vLLM's image
path is pure torch and never calls nms). Nothing is imported before then: other programs in the venv pay nothing.
"""

import importlib.abc
import sys


class _BeforeTorchvision(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torchvision":
            sys.meta_path.remove(self)
            _declare_ops()
        return None  # the ordinary finders import it


def _declare_ops():
    import glob
    import importlib.util
    import os

    import torch

    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        return
    libs = glob.glob(os.path.join(list(spec.submodule_search_locations)[0], "_C*.so"))
    try:
        for lib in libs:
            torch.ops.load_library(lib)
        torch.ops.torchvision.nms  # noqa: B018 - loaded: torchvision works as it is
        return
    except (OSError, RuntimeError, AttributeError):
        pass
    global _lib
    _lib = torch.library.Library("torchvision", "DEF")
    _lib.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    _lib.define("qnms(Tensor qdets, Tensor scores, float iou_threshold) -> Tensor")


sys.meta_path.insert(0, _BeforeTorchvision())
