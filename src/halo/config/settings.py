"""Settings classes whose every field's type and range are declared once, on the field, and checked when the class
is built, whatever builds it (a YAML file, ``--set``, a flag, code).

``@settings`` makes a frozen pydantic dataclass: strict scalars (``lr: fast``, ``rank: 8.0`` and ``group_size: true``
fail), finite numbers, no unknown keys, ranges from ``Annotated`` constraints (``Positive``, ``AtLeast1``, ...), and
cross-field rules in ``__post_init__``. A size a user gives (a group, a parallelism, steps, tokens) also has an upper
bound on its field, with the reason the message gives past it: ``group_size: Annotated[AtLeast1, Field(le=256),
Why("...")]``. A bad value raises ``SettingsError`` (a ``ConfigError``) naming the key; ``build`` adds the file and
the section (``configs/rl_config.yaml: grpo.lr must be a number, got 'fast' (str)``).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Annotated, Any, Callable, TypeVar

from pydantic import ConfigDict, Field, ValidationError
from pydantic.dataclasses import dataclass as pydantic_dataclass

from halo.errors import ConfigError

T = TypeVar("T")

Positive = Annotated[float, Field(gt=0)]
NonNegative = Annotated[float, Field(ge=0)]
AtLeast1 = Annotated[int, Field(ge=1)]
NonNegativeInt = Annotated[int, Field(ge=0)]
PositiveInt = Annotated[int, Field(gt=0)]
Fraction = Annotated[float, Field(ge=0, le=1)]  # a share, 0..1 inclusive

_CONFIG = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


@dataclasses.dataclass(frozen=True)
class Why:
    """``Annotated`` metadata of a bounded field: why the bound is there, said in the message of a value past it."""

    text: str


class SettingsError(ConfigError):
    """A settings class refused its values; ``errors`` are pydantic's, for ``build`` to name the file and section."""

    def __init__(self, message: str, errors: list[dict[str, Any]], cls: type):
        super().__init__(message)
        self.errors = errors
        self.cls = cls


def settings(cls: type[T] | None = None, *, frozen: bool = True) -> Any:
    """Decorate a class as a checked settings dataclass (see the module doc)."""

    def wrap(c: type[T]) -> type[T]:
        pc = pydantic_dataclass(c, frozen=frozen, config=_CONFIG)
        init = pc.__init__

        @functools.wraps(init)
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            try:
                init(self, *args, **kwargs)
            except ValidationError as e:
                errors = e.errors()
                raise SettingsError(describe(errors, pc), errors, pc) from None

        pc.__init__ = __init__  # type: ignore[method-assign]
        return pc

    return wrap(cls) if cls is not None else wrap


def build(cls: Callable[..., T], values: dict[str, Any] | None, where: str = "", prefix: str = "") -> T:
    """``cls(**values)`` with YAML lists as tuples; a refusal names ``where`` (the file) and ``prefix`` + key."""
    tuples = _tuple_fields(cls)
    values = {k: tuple(v) if isinstance(v, list) and k in tuples else v for k, v in (values or {}).items()}
    try:
        return cls(**values)
    except SettingsError as e:
        raise ConfigError(with_where(describe(e.errors, e.cls, prefix), where)) from None


def with_where(message: str, where: str) -> str:
    return f"{where}: {message}" if where else message


def field_names(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


_KINDS = {"float_type": "a number", "float_parsing": "a number", "int_type": "an integer",
          "int_parsing": "an integer", "int_from_float": "an integer", "bool_type": "true or false",
          "bool_parsing": "true or false", "string_type": "a string", "list_type": "a list", "tuple_type": "a list",
          "dict_type": "a mapping", "model_type": "a mapping", "dataclass_type": "a mapping",
          "finite_number": "a finite number"}
_BOUNDS = {"greater_than": ">", "greater_than_equal": ">=", "less_than": "<", "less_than_equal": "<="}
_SKIP = ("str", "int", "float", "bool", "list", "tuple", "constrained-float", "constrained-int")


@functools.lru_cache(maxsize=None)
def _tuple_fields(cls: type) -> frozenset[str]:
    """The fields typed as tuples (YAML gives lists)."""
    def is_tuple(t: Any) -> bool:
        while typing.get_origin(t) is Annotated:
            t = typing.get_args(t)[0]
        if typing.get_origin(t) in (typing.Union, types.UnionType):
            return any(is_tuple(a) for a in typing.get_args(t))
        return t is tuple or typing.get_origin(t) is tuple

    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except Exception:  # noqa: BLE001 - no hints, no conversion
        return frozenset()
    return frozenset(k for k, t in hints.items() if is_tuple(t))


def _hint(cls: type | None, field: str) -> Any:
    """A field's type hint with its ``Annotated`` metadata; None where there is none to read."""
    if cls is None:
        return None
    try:
        return typing.get_type_hints(cls, include_extras=True).get(field)
    except Exception:  # noqa: BLE001 - a hint that does not resolve: nothing to tell from it
        return None


def _tuple_size(cls: type | None, field: str) -> int | None:
    """How many values a fixed-size tuple field takes (``betas: tuple[float, float]``: 2), else None."""
    t = _hint(cls, field)
    while typing.get_origin(t) is Annotated:
        t = typing.get_args(t)[0]
    args = typing.get_args(t) if typing.get_origin(t) is tuple else ()
    return len(args) if args and args[-1] is not Ellipsis else None


def _why(cls: type | None, field: str) -> str | None:
    """The reason a field's upper bound gives (its ``Why`` metadata), if it has one."""
    meta = getattr(_hint(cls, field), "__metadata__", ())
    return next((m.text for m in meta if isinstance(m, Why)), None)


def describe(errors: list[dict[str, Any]], cls: type | None = None, prefix: str = "") -> str:
    """pydantic's errors as one line per key: ``grpo.lr must be a number, got 'fast' (str)``, ``grpo: unknown key
    'lrr'``, ``grpo.lr must be > 0, got -1``; a union reports its first member's error only."""
    lines: list[str] = []
    seen_keys: set[str] = set()
    for err in errors:
        raw_loc = [str(x) for x in err["loc"]]
        loc = [x for x in raw_loc if not x.startswith(("function-", "tagged-union", "literal[")) and x not in _SKIP]
        v, t = err.get("input"), err["type"]
        key = prefix + ".".join(f"[{x}]" if x.isdigit() else x for x in loc).replace(".[", "[")
        if key in seen_keys and t not in ("extra_forbidden", "unexpected_keyword_argument"):
            continue  # one message per key (a union's second member would repeat it)
        seen_keys.add(key)
        if t in ("extra_forbidden", "unexpected_keyword_argument"):
            parent, _, name = key.rpartition(".")
            lines.append(f"{parent or (prefix.rstrip('.') or 'top level')}: unknown key {name!r}")
        elif t == "value_error":
            inner = err.get("ctx", {}).get("error")
            msg = str(inner) if inner is not None else err["msg"]
            lines.append(f"{key}: {msg}" if key and key != prefix else
                         (f"{prefix.rstrip('.')}: {msg}" if prefix else msg))
        elif t in _KINDS:
            lines.append(f"{key} must be {_KINDS[t]}, got {v!r} ({type(v).__name__})")
        elif t in _BOUNDS:
            bound = next(iter(err.get("ctx", {}).values()), "?")
            bound = int(bound) if isinstance(bound, float) and bound.is_integer() else bound
            why = _why(cls, loc[0]) if t in ("less_than", "less_than_equal") and len(loc) == 1 else None
            lines.append(f"{key} must be {_BOUNDS[t]} {bound}, got {v!r}" + (f" ({why})" if why else ""))
        elif t == "literal_error":
            lines.append(f"{key} must be {err.get('ctx', {}).get('expected', '')}, got {v!r}")
        elif t in ("too_short", "too_long") or (t == "missing" and loc and loc[-1].isdigit()):
            field = loc[0] if loc else ""
            n = _tuple_size(cls, field)
            lines.append(f"{(prefix + field) or key} must be a list of "
                         f"{f'{n} values' if n else 'the right length'}, got {v!r}")
        else:
            lines.append(f"{key}: {err['msg']} (got {v!r})")
    uniq = list(dict.fromkeys(lines))
    return "; ".join(uniq) if len(uniq) <= 1 else "\n  " + "\n  ".join(uniq)
