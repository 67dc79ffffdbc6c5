"""The turn's fast form, generated from the one written turn: calls to small methods inlined.

The engine's hottest loop (:meth:`deckgen.rules.engine.Game._play_turns`) calls a chain of
methods every turn (``take_turn``, ``play``, ``op_play``, ``pass_on``, ``op_turn``), each a
Python call. :func:`inline` makes a new function from the loop's own source in which each
statement ``self.m(args)`` naming one of those methods is replaced by the method's body, with its
parameters bound to the arguments and its locals renamed, and a ``return`` inside it turned into
leaving a one-pass loop around the body. Nothing is written twice: an edit to any of these
methods is in the generated loop the next time the module is imported, and
``tests/test_engine_inline.py`` plays games both ways and compares them.

A method is inlined only when its form allows it (checked here, else :class:`InlineError`): a
statement call, never an expression's part; no ``return`` inside a loop of its own; no
``yield``, ``nonlocal``, ``global``, nested function or class; positional or keyword arguments
only (no ``*args``). A global name of a method from another module is bound under a private
alias in the generated function's globals.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import linecache
import textwrap
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any


class InlineError(Exception):
    """A method that cannot be inlined (its form is outside what :func:`inline` handles)."""


def _function_def(fn: Callable[..., Any]) -> ast.FunctionDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise InlineError(f"{fn.__qualname__} is not a plain function")
    return node


def _stored_names(fn: ast.FunctionDef) -> set[str]:
    """The names the function's body binds (its parameters only where it rebinds them)."""
    names: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Lambda, ast.FunctionDef,
                               ast.AsyncFunctionDef, ast.ClassDef)) and node is not fn:
            raise InlineError(f"{fn.name}: {type(node).__name__} cannot be inlined")
    return names


def _check_returns(fn: ast.FunctionDef) -> None:
    def visit(node: ast.AST, in_loop: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Return) and in_loop:
                raise InlineError(f"{fn.name}: a return inside a loop cannot be inlined")
            visit(child, in_loop or isinstance(child, (ast.For, ast.While)))
    visit(fn, False)


class _Rename(ast.NodeTransformer):
    """The callee's locals renamed; its parameters replaced by the caller's values where bound
    directly; its foreign globals renamed to their aliases; ``return`` to leaving the body."""

    def __init__(self, names: Mapping[str, ast.expr], wrapped: bool):
        self.names = names
        self.wrapped = wrapped

    def visit_Name(self, node: ast.Name) -> ast.AST:
        new = self.names.get(node.id)
        if new is None:
            return node
        if isinstance(new, ast.Name):
            return ast.copy_location(ast.Name(new.id, node.ctx), node)
        return ast.copy_location(_copy(new), node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        self.generic_visit(node)
        if node.name and node.name in self.names:
            new = self.names[node.name]
            assert isinstance(new, ast.Name)
            node.name = new.id
        return node

    def visit_Return(self, node: ast.Return) -> Any:
        self.generic_visit(node)
        out: list[ast.stmt] = []
        value = node.value
        if value is not None and not isinstance(value, (ast.Constant, ast.Name)):
            out.append(ast.copy_location(ast.Expr(value), node))     # its value is not used
        if self.wrapped:
            out.append(ast.copy_location(ast.Break(), node))
        return out or ast.copy_location(ast.Pass(), node)


def _copy(node: ast.expr) -> ast.expr:
    copied = ast.parse(ast.unparse(node), mode="eval").body
    return copied


class _Inliner(ast.NodeTransformer):
    def __init__(self, methods: Mapping[str, Callable[..., Any]], host_globals: dict[str, Any],
                 aliases: dict[str, Any]):
        self.methods = methods
        self.defs = {name: _function_def(fn) for name, fn in methods.items()}
        for d in self.defs.values():
            _check_returns(d)
        self.host_globals = host_globals
        self.aliases = aliases
        self.counter = itertools.count(1)
        self.inlined: list[str] = []

    def _target(self, stmt: ast.stmt) -> tuple[str, ast.Call] | None:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
                    and func.attr in self.defs):
                return func.attr, stmt.value
        return None

    def _body(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Constant):
                out.extend(self._body((stmt.body if stmt.test.value else stmt.orelse) or [ast.Pass()]))
                continue                              # a parameter given as a constant decides it
            target = self._target(stmt)
            if target is None:
                out.append(self.visit(stmt))
            else:
                out.extend(self._expand(*target, stmt))
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, self._body(block))
        for handler in getattr(node, "handlers", []):
            handler.body = self._body(handler.body)
        return node

    def _expand(self, name: str, call: ast.Call, stmt: ast.stmt) -> list[ast.stmt]:
        fn = self.methods[name]
        d = self.defs[name]
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            raise InlineError(f"self.{name}(...) with * or ** arguments cannot be inlined")
        params = [a.arg for a in d.args.args]
        if params[0] != "self" or d.args.vararg or d.args.kwarg or d.args.kwonlyargs or d.args.posonlyargs:
            raise InlineError(f"{name}: only (self, positional-or-keyword ...) signatures are inlined")
        params = params[1:]
        defaults = dict(zip(params[len(params) - len(d.args.defaults):], d.args.defaults, strict=True))
        given: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
        for k in call.keywords:
            assert k.arg is not None
            given[k.arg] = k.value
        stored = _stored_names(d)
        n = next(self.counter)
        names: dict[str, ast.expr] = {}
        prelude: list[ast.stmt] = []
        for p in params:
            value = given.get(p, defaults.get(p))
            if value is None:
                raise InlineError(f"self.{name}(...) does not give '{p}'")
            if p not in stored and isinstance(value, (ast.Name, ast.Constant)):
                names[p] = value                      # used as it is (a variable it never rebinds, a constant)
                continue
            local = f"_{name}{n}_{p}"
            names[p] = ast.Name(local, ast.Load())
            prelude.append(ast.Assign([ast.Name(local, ast.Store())], _copy(value), lineno=0))
        if "self" in stored:
            raise InlineError(f"{name} rebinds self")
        for local in stored - set(params):
            names[local] = ast.Name(f"_{name}{n}_{local}", ast.Load())
        names.update(self._foreign_globals(fn, d, stored | {"self", *params}))
        body = [ast.parse(ast.unparse(s)).body[0] for s in d.body]     # a fresh copy
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]                          # the docstring
        # a return anywhere but as the body's last statement: the body becomes a one-pass loop
        # that the return leaves (no return is inside a loop of the method's own: checked)
        last = body[-1] if body else None
        wrapped = any(isinstance(x, ast.Return) and x is not last for s in body for x in ast.walk(s))
        renamer = _Rename(names, wrapped)
        new: list[ast.stmt] = []
        for s in body:
            r = renamer.visit(s)
            new.extend(r if isinstance(r, list) else [r])
        new = self._body(new)                        # what it calls, inlined in turn
        self.inlined.append(name)
        if wrapped:
            loop = ast.While(ast.Constant(True), [*new, ast.Break()], [])
            return [*prelude, ast.copy_location(loop, stmt)]
        return [*prelude, *new] or [ast.Pass()]

    def _foreign_globals(self, fn: Callable[..., Any], d: ast.FunctionDef, local: set[str]) -> dict[str, ast.expr]:
        """The callee's global names that mean something else (or nothing) in the host module,
        each bound under a private alias."""
        out: dict[str, ast.expr] = {}
        fglobals = fn.__globals__
        if fglobals is self.host_globals:
            return out
        for node in ast.walk(d):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in local:
                name = node.id
                if name not in fglobals:
                    continue                          # a builtin
                value = fglobals[name]
                if self.host_globals.get(name, _MISSING) is value:
                    continue
                alias = f"_{fn.__module__.rsplit('.', 1)[-1]}_{name}"
                self.aliases[alias] = value
                out[name] = ast.Name(alias, ast.Load())
        return out


_MISSING = object()


class _Fixed(ast.NodeTransformer):
    """``self.a`` read through a local bound once, for each attribute ``a`` that is fixed."""

    def __init__(self, fixed: Sequence[str]):
        self.fixed = set(fixed)
        self.used: set[str] = set()

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id == "self" and node.attr in self.fixed:
            if not isinstance(node.ctx, ast.Load):
                raise InlineError(f"self.{node.attr} is written in the loop, so it cannot be fixed")
            self.used.add(node.attr)
            return ast.copy_location(ast.Name(f"_self_{node.attr}", ast.Load()), node)
        return node


def inline(host: Callable[..., Any], methods: Mapping[str, Callable[..., Any]], name: str | None = None,
           fixed: Sequence[str] = ()) -> Callable[..., Any]:
    """``host`` with every statement ``self.m(...)`` for m in ``methods`` replaced by m's body
    (recursively: what m calls of ``methods`` too), compiled in ``host``'s module. The source is
    kept in :mod:`linecache`, so a traceback through the generated function shows its lines.

    ``fixed``: attributes of ``self`` that nothing assigns while ``host`` runs (the caller answers
    for it; the engine's test checks its list against every assignment in the rules package):
    each is read once, into a local, when ``host`` starts."""
    d = _function_def(host)
    host_globals = host.__globals__
    aliases: dict[str, Any] = {}
    inliner = _Inliner(methods, host_globals, aliases)
    d.body = inliner._body(d.body)
    if fixed:
        fixer = _Fixed(fixed)
        d.body = [fixer.visit(stmt) for stmt in d.body]
        doc = d.body[:1] if d.body and isinstance(d.body[0], ast.Expr) and isinstance(d.body[0].value, ast.Constant) \
            else []
        reads = [ast.parse(f"_self_{a} = self.{a}").body[0] for a in sorted(fixer.used)]
        d.body = [*doc, *reads, *d.body[len(doc):]]
    d.decorator_list = []
    d.name = name or host.__name__
    missing = set(methods) - set(inliner.inlined)
    if missing:
        raise InlineError(f"{host.__qualname__} never calls {sorted(missing)} as a statement")
    module = ast.Module([d], type_ignores=[])
    ast.fix_missing_locations(module)
    source = ast.unparse(module)
    filename = f"<deckgen.rules.inline {host.__qualname__}>"
    linecache.cache[filename] = (len(source), None, [line + "\n" for line in source.splitlines()], filename)
    code = compile(source, filename, "exec")
    for alias, value in aliases.items():
        if host_globals.get(alias, value) is not value:
            raise InlineError(f"the alias {alias} is taken in {host.__module__}")
        host_globals[alias] = value
    space: dict[str, Any] = {}
    exec(code, host_globals, space)
    fn = space[d.name]
    assert isinstance(fn, types.FunctionType)
    fn.__qualname__ = f"{host.__qualname__.rsplit('.', 1)[0]}.{d.name}"
    fn.__module__ = host.__module__
    fn.__doc__ = host.__doc__
    fn.__dict__["inline_source"] = source
    return fn


__all__ = ["InlineError", "inline"]
