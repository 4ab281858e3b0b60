# The firmware's import graph and its private-name uses, read from the sources with ast (no
# import runs): what host_tests/test_structure.py checks the never-arrows, the cycles and the
# class boundaries with. Every import counts, at module level or inside a function (a lazy
# import is still an arrow).
import ast
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), 'firmware')
VENDORED = ('lib',)         # firmware/lib: third-party packages as published (microdot)


def sources():
    """{module name: path} of every .py under firmware/ but the vendored packages."""
    out = {}
    for dirpath, dirs, files in os.walk(FIRMWARE):
        rel = os.path.relpath(dirpath, FIRMWARE)
        if rel.split(os.sep)[0] in VENDORED:
            continue
        dirs.sort()
        for f in sorted(files):
            if not f.endswith('.py'):
                continue
            parts = [] if rel == '.' else rel.split(os.sep)
            if f != '__init__.py':
                parts.append(f[:-3])
            out['.'.join(parts)] = os.path.join(dirpath, f)
    return out


def _tree(path):
    with open(path) as f:
        return ast.parse(f.read(), path)


def _base(mod, path, level):
    # the package a relative import of `level` dots starts from
    parts = mod.split('.')
    if not path.endswith('__init__.py'):
        parts = parts[:-1]
    return parts[:len(parts) - level + 1] if level > 1 else parts


def imports(mod, path):
    """[(imported module name, line)] of one module; names outside the firmware kept as they
    are (machine, asyncio, ...)."""
    known = sources()
    out = []
    for n in ast.walk(_tree(path)):
        if isinstance(n, ast.Import):
            for a in n.names:
                out.append((a.name, n.lineno))
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                base = _base(mod, path, n.level)
                target = '.'.join(base + ([n.module] if n.module else []))
            else:
                target = n.module
            out.append((target, n.lineno))
            for a in n.names:
                sub = target + '.' + a.name
                if sub in known:
                    out.append((sub, n.lineno))
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id == '__import__' and n.args
              and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)):
            out.append((n.args[0].value, n.lineno))
    return out


def external(mod):
    """{imported name outside the firmware: first line} of one module (machine, asyncio)."""
    src = sources()
    out = {}
    for target, line in imports(mod, src[mod]):
        if target not in src and target.split('.')[0] != 'scoreboard':
            out.setdefault(target, line)
    return out


def graph():
    """{module: {imported firmware module: first line}}, firmware modules only."""
    src = sources()
    g = {}
    for mod, path in src.items():
        g[mod] = {}
        for target, line in imports(mod, path):
            # importing a.b.c runs a and a.b too; the arrow that matters is to a.b.c
            if target in src and target != mod and not mod.startswith(target + '.'):
                # (a module's own packages are loaded before it: no arrow back to them)
                g[mod].setdefault(target, line)
    return g


def cycles(g):
    """Every strongly connected set of more than one module (Tarjan), sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def private_uses():
    """[(path, line, text)]: `x._name` where x is not self or cls, and `from m import _name`,
    in every firmware module (dunder names are not private)."""
    out = []
    for path in sources().values():
        rel = os.path.relpath(path, os.path.dirname(FIRMWARE))
        for n in ast.walk(_tree(path)):
            if isinstance(n, ast.Attribute) and _private(n.attr):
                v = n.value
                if isinstance(v, ast.Name) and v.id in ('self', 'cls'):
                    continue
                out.append((rel, n.lineno, ast.unparse(n)))
            elif isinstance(n, ast.ImportFrom):
                for a in n.names:
                    if _private(a.name):
                        out.append((rel, n.lineno, 'from %s import %s' % (n.module, a.name)))
    return sorted(out)


def _private(name):
    return name.startswith('_') and not name.startswith('__')
