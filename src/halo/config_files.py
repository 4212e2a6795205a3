"""HALO's config files, one way for all three (``rl_config.yaml``, ``modes.yaml``, ``demo.yaml``).

- **Where**: an explicit path (``--config``, ``--modes-file``), else an environment variable, else ``configs/`` in
  the working directory (your own files), else the copies shipped inside the package (``halo/configs/``, package
  data of the wheel), else ``configs/`` of the source checkout.
- **Read**: YAML where ``1e-5`` is a number (``halo.validate.load_yaml``).
- **Override**: ``--set key.path=value`` on every command that reads a file; the value is YAML (``1e-5``,
  ``[q_proj, v_proj]``, ``true``). The first key names what it changes: an ``rl_config.yaml`` section (``grpo``,
  ``lora``, ...), ``mode`` (the mode the command runs), ``modes`` (``modes.yaml`` itself) or ``demo``.
- **Check**: each file has a pydantic schema beside its consumer (``halo.rl.config.RLConfigFile``,
  ``halo.policy.modes.ModeConfig``, ``halo.demo.DemoConfig``), built from the library's own settings classes so that
  there is one list of keys; unknown keys and wrong types fail naming the file and the key.
"""

from __future__ import annotations

import dataclasses
import os
import types
import typing
from pathlib import Path
from typing import Any, Iterable, Sequence

from halo.errors import ConfigError

SOURCE_ROOT = Path(__file__).resolve().parents[2]
PACKAGE_CONFIGS = Path(__file__).resolve().parent / "configs"  # in a wheel: the shipped defaults
RL_SECTIONS = ("policy", "episode", "grpo", "lora", "rewards", "mcts")
SET_TARGETS = (*RL_SECTIONS, "mode", "modes", "demo")


def config_candidates(relpath: str, path: str | os.PathLike | None = None, env_var: str | None = None) -> list[Path]:
    if path:
        return [Path(path)]
    if env_var and os.environ.get(env_var):
        return [Path(os.environ[env_var])]
    return [Path.cwd() / relpath, PACKAGE_CONFIGS / Path(relpath).name, SOURCE_ROOT / relpath]


def find_config_file(relpath: str, path: str | os.PathLike | None = None,
                     env_var: str | None = None) -> tuple[Path | None, list[Path]]:
    """The first existing candidate (or None) and the candidates tried, for the error message."""
    cands = config_candidates(relpath, path, env_var)
    return next((c for c in cands if c.is_file()), None), cands


def read_yaml(f: Path) -> dict[str, Any]:
    import yaml

    from halo.validate import load_yaml

    try:
        data = load_yaml(f.read_text()) or {}
    except yaml.YAMLError as e:
        raise ConfigError(f"{f} is not valid YAML: {e}") from None
    except OSError as e:
        raise ConfigError(f"cannot read {f}: {e.strerror or e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{f} must be a mapping of keys, got {type(data).__name__}")
    return data


# ---------------------------------------------------------------- --set key.path=value
def parse_set(item: str) -> tuple[list[str], Any]:
    from halo.validate import load_yaml

    key, eq, raw = item.partition("=")
    path = [p for p in key.strip().split(".")]
    if not eq or not key.strip() or any(not p for p in path):
        raise ConfigError(f"--set {item!r}: write key.path=value (grpo.lr=1e-5, mode.decoding.temperature=0.5)")
    if path[0] not in SET_TARGETS:
        raise ConfigError(f"--set {item!r}: {path[0]!r} is not a config; the first key is one of "
                          f"{', '.join(SET_TARGETS)}")
    try:
        value = load_yaml(raw) if raw.strip() else ""
    except Exception as e:  # noqa: BLE001 - any YAML error is the user's value
        raise ConfigError(f"--set {item!r}: the value is not YAML ({e})") from None
    return path, value


def check_sets(sets: Sequence[str], allowed: Iterable[str], command: str) -> None:
    """Each ``--set`` parses and names a config this command reads (at the door, before anything starts)."""
    allowed = tuple(allowed)
    for item in sets:
        path, _ = parse_set(item)
        if path[0] not in allowed:
            raise ConfigError(f"--set {item!r}: `{command}` does not read {path[0]!r}; it reads "
                              f"{', '.join(allowed)}")


def sets_for(sets: Sequence[str], targets: Iterable[str], strip: bool = False) -> list[tuple[list[str], Any]]:
    """The parsed ``--set`` items whose first key is one of ``targets`` (without it when ``strip``)."""
    targets = set(targets)
    out = []
    for item in sets:
        path, value = parse_set(item)
        if path[0] in targets:
            out.append((path[1:] if strip else path, value))
    return out


def apply_sets(data: dict[str, Any], items: Sequence[tuple[list[str], Any]], where: str) -> dict[str, Any]:
    """A copy of ``data`` with each (key path, value) set, creating mappings on the way."""
    import copy

    out = copy.deepcopy(data)
    for path, value in items:
        node = out
        for i, k in enumerate(path[:-1]):
            nxt = node.get(k)
            if nxt is None:
                nxt = node[k] = {}
            if not isinstance(nxt, dict):
                raise ConfigError(f"--set {'.'.join(path)}: {where} {'.'.join(path[:i + 1])} is {nxt!r}, not a "
                                  "mapping")
            node = nxt
        if not path:
            raise ConfigError(f"--set: a key path is needed after {where}")
        node[path[-1]] = value
    return out


# ---------------------------------------------------------------- pydantic schemas from settings classes
def strict(t: Any) -> Any:
    """``t`` with its scalars strict (``lr: fast`` and ``rank: 8.5`` fail; lists stay lists)."""
    from pydantic import StrictBool, StrictFloat, StrictInt, StrictStr

    origin, args = typing.get_origin(t), typing.get_args(t)
    if t is bool:
        return StrictBool
    if t is int:
        return StrictInt
    if t is float:
        return StrictFloat
    if t is str:
        return StrictStr
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(strict(a) for a in args)]
    if origin is tuple:
        return tuple[tuple(a if a is Ellipsis else strict(a) for a in args)] if args else tuple
    if origin is list:
        return list[strict(args[0])] if args else list
    return t


def schema_from(name: str, *classes: type, exclude: Iterable[str] = ()) -> Any:
    """A pydantic model accepting any subset of the dataclasses' fields (unknown keys refused, types strict);
    ``model_dump(exclude_unset=True)`` gives back what the file said."""
    from pydantic import ConfigDict, create_model

    fields: dict[str, Any] = {}
    for cls in classes:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if f.name not in exclude:
                fields[f.name] = (typing.Optional[strict(hints[f.name])], None)
    return create_model(name, __config__=ConfigDict(extra="forbid"), **fields)


_KINDS = {"float_type": "a number", "float_parsing": "a number", "int_type": "an integer",
          "int_parsing": "an integer", "int_from_float": "an integer", "bool_type": "true or false",
          "bool_parsing": "true or false", "string_type": "a string", "list_type": "a list", "tuple_type": "a list",
          "dict_type": "a mapping", "model_type": "a mapping", "finite_number": "a finite number"}


def describe_errors(e: Any, where: str, prefix: str = "") -> str:
    """A pydantic ``ValidationError`` as lines naming the file and each key: ``grpo.lr must be a number, got
    'fast' (str)``, ``grpo: unknown key 'lrr'``."""
    lines = []
    for err in e.errors():
        loc = [str(x) for x in err["loc"] if not str(x).startswith(("function-", "tagged-union"))]
        loc = [x for x in loc if x not in ("str", "int", "float", "bool", "list", "tuple", "constrained-float")]
        v, t = err.get("input"), err["type"]
        key = prefix + ".".join(f"[{x}]" if x.isdigit() else x for x in loc).replace(".[", "[")
        if t == "extra_forbidden":
            parent, _, name = key.rpartition(".")
            lines.append(f"{parent or 'top level'}: unknown key {name!r}")
        elif t in _KINDS:
            lines.append(f"{key} must be {_KINDS[t]}, got {v!r} ({type(v).__name__})")
        elif t == "literal_error":
            lines.append(f"{key} {err['msg'].replace('Input should be', 'must be')}, got {v!r}")
        elif t in ("too_short", "too_long"):
            lines.append(f"{key} must be a list of {err.get('ctx', {}).get('max_length', '')} values, got {v!r}"
                         .replace("list of  values", "list of the right length"))
        else:
            lines.append(f"{key}: {err['msg']} (got {v!r})")
    head = f"{where}: " if where else ""
    uniq = list(dict.fromkeys(lines))
    return head + ("; ".join(uniq) if len(uniq) <= 1 else "\n  " + "\n  ".join(uniq))
