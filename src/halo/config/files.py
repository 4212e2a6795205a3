"""Where HALO's config files are and how they are read: one way for all three (``rl_config.yaml``,
``modes.yaml``, ``demo.yaml``).

- **Where**: an explicit path (``--config``, ``--modes-file``), else an environment variable, else ``configs/`` in
  the working directory (your own files), else the copies shipped inside the package (``halo/configs/``, package
  data of the wheel), else ``configs/`` of the source checkout.
- **Read**: YAML where ``1e-5`` is a number (PyYAML's YAML 1.1 reads it as the string "1e-5"); a file must be a
  mapping. What a text may hold is bounded before anything is built from it: at most ``MAX_CONFIG_BYTES`` read,
  ``MAX_DEPTH`` levels of nesting, and ``MAX_VALUES`` values once its aliases are expanded (``&a``/``*a``, each use
  counted: a "billion laughs" of a few hundred bytes is refused in milliseconds, not expanded), the same for
  ``--set`` values. Each file's schema lives beside what reads it (``halo.rl.config``, ``halo.policy.modes``,
  ``halo.jobs.demo``) and is checked by ``halo.config.settings``; overrides come from ``halo.config.overrides``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from halo.errors import ConfigError

SOURCE_ROOT = Path(__file__).resolve().parents[3]
PACKAGE_CONFIGS = Path(__file__).resolve().parents[1] / "configs"  # in a wheel: the shipped defaults


MAX_CONFIG_BYTES = 1 << 20  # the shipped files are 2-12 KB
MAX_DEPTH = 64  # levels of nesting (rl_config.yaml has 6); deeper, PyYAML's composer would overflow Python's stack
MAX_VALUES = 100_000  # values once aliases are expanded, each use counted (rl_config.yaml: about 600)


class _Loader(yaml.SafeLoader):
    """SafeLoader that reads ``1e-5`` and ``3E+2`` as floats, as YAML 1.2 and every user do, and refuses a text
    nested deeper than ``MAX_DEPTH`` or expanding to more than ``MAX_VALUES`` values (``ConfigError``)."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise ConfigError(f"nested deeper than {MAX_DEPTH} levels (line {mark.line + 1}); a config is a "
                                  f"few levels of mappings and lists")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if node is not None:
            expanded_size(node)
        return node


def expanded_size(root: yaml.Node, limit: int = MAX_VALUES) -> int:
    """How many values ``root`` holds with every alias expanded (each use of an anchor counts its whole subtree
    again), computed without expanding anything (each node once); ``ConfigError`` past ``limit``, for a value
    nested deeper than ``MAX_DEPTH`` once expanded (anchors holding aliases of anchors), or for an alias inside its
    own anchor (a value that would never end)."""
    seen: dict[int, tuple[int, int]] = {}  # node -> (values, levels) expanded
    open_: set[int] = set()

    def walk(node: yaml.Node) -> tuple[int, int]:
        k = id(node)
        if k in seen:
            return seen[k]
        if k in open_:
            raise ConfigError(f"an alias inside its own anchor (line {node.start_mark.line + 1}): the value would "
                              f"never end")
        open_.add(k)
        if isinstance(node, yaml.MappingNode):
            children = [c for pair in node.value for c in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            children = []
        n, levels = 1, 1
        for c in children:
            cn, cl = walk(c)
            n, levels = n + cn, max(levels, cl + 1)
            if n > limit:
                raise ConfigError(f"its aliases expand to more than {limit:,} values (an anchor used again and "
                                  f"again inside others, as in a \"billion laughs\"); write the values out or use "
                                  f"fewer aliases")
            if levels > MAX_DEPTH:
                raise ConfigError(f"nested deeper than {MAX_DEPTH} levels once its aliases are expanded (line "
                                  f"{node.start_mark.line + 1})")
        open_.discard(k)
        seen[k] = (n, levels)
        return n, levels

    return walk(root)[0]


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                    |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


def load_yaml(text: str) -> Any:
    """``text`` as YAML (see the module doc); ``ConfigError`` for a text too large, too deep or whose aliases expand
    past ``MAX_VALUES``, ``yaml.YAMLError`` for one that is not YAML."""
    if len(text) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{len(text):,} characters of YAML, over the {MAX_CONFIG_BYTES:,} a config may hold")
    return yaml.load(text, Loader=_Loader)


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


def require_config_file(relpath: str, path: str | os.PathLike | None, env_var: str, flag: str, what: str) -> Path:
    """The file a command reads, or ``ConfigError`` naming where it looked and how to point at one."""
    found, tried = find_config_file(relpath, path, env_var)
    if found is None:
        raise ConfigError(f"no {what} at {', '.join(map(str, tried))}; pass {flag} or set {env_var}")
    return found


def read_yaml(f: Path) -> dict[str, Any]:
    """A config file's mapping, read safely (``load_yaml``); at most ``MAX_CONFIG_BYTES`` are read, whatever the
    file is (``--config /dev/zero`` too)."""
    try:
        with open(f, "rb") as fh:
            raw = fh.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{f}: over {MAX_CONFIG_BYTES:,} bytes; a config file is a few KB (the shipped ones "
                              f"are 2-12 KB)")
        data = load_yaml(raw.decode("utf-8")) or {}
    except ConfigError as e:
        msg = str(e)
        raise ConfigError(msg if msg.startswith(f"{f}:") else f"{f}: {msg}") from None
    except yaml.YAMLError as e:
        raise ConfigError(f"{f} is not valid YAML: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{f} is not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise ConfigError(f"cannot read {f}: {e.strerror or e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{f} must be a mapping of keys, got {type(data).__name__}")
    return data
