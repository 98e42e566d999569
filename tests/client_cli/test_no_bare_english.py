"""No English sentence in the terminal client escapes the catalogs (docs/i18n.md, issue 28).

The catalog completeness test (tests/test_i18n_catalogs.py) only sees what is wrapped in ``_()``,
``phrase()``, ``spoken()`` or ``told()``. This guard walks the syntax tree of ``client_cli/`` and
fails on a string of two or more English words that a person could read and that is not wrapped.
``client_cli/drill/`` and ``client_cli/cli.py`` are another change's (issue 28): they are left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client_cli"
LEFT_OUT = (CLIENT / "drill", CLIENT / "cli.py")

# A call whose string arguments are said in the reader's language (or are the message id of one).
_SAYS = frozenset({"_", "phrase", "spoken", "told", "tr", "heard", "heard_lines"})
# A call whose string arguments no person reads: logs, regexes, the standard library's plumbing.
_PLUMBING = frozenset({
    "debug", "info", "warning", "exception", "critical",  # logging (its lines are for the operator)
    "compile", "match", "fullmatch", "search", "sub", "findall", "finditer",  # regexes
    "getenv", "environ", "Popen", "run",  # processes and the environment
    "writerow", "writerows",  # CSV columns, for a spreadsheet or a program (docs/i18n.md: not yet translated)
})
# The words of a rich style ("bold magenta", "bold red on white"): a colour, not a sentence.
_STYLE_WORDS = frozenset({
    "bold", "dim", "italic", "underline", "reverse", "blink", "strike", "not", "on", "default",
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey50", "grey70",
    "bright_black", "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta",
    "bright_cyan", "bright_white",
})
_WORD = re.compile(r"[A-Za-z][a-z']*[a-z]|[Aa]|I")
# Never translated, by design (docs/i18n.md): what the player types, and the games' names.
ALLOWED = frozenset({
    "bank on", "bank off", "bank on / bank off", "sitout / back",  # commands as typed, in a "Now you may" line
    "High Card Flush", "Caribbean Stud", "6 Card Poker",  # the games' names: never translated, by design
})


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _text(node: ast.Constant | ast.JoinedStr) -> str:
    if isinstance(node, ast.Constant):
        return str(node.value)
    return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                   for v in node.values)


def _is_sentence(text: str) -> bool:
    """Two or more English words, not a style, a code (``snake_case``), a path or a command as typed."""
    if text.strip() in ALLOWED:
        return False
    words = [w for w in re.split(r"\s+", text) if w]
    english = [w for w in words if _WORD.fullmatch(w.strip(".,:;!?()'\"·-"))]
    if len(english) < 2:
        return False
    return not all(w.lower() in _STYLE_WORDS for w in words)


def _allowed_place(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.Call) and child is not parent.func:
            name = _call_name(parent)
            if name in _PLUMBING or (name in _SAYS and any(a is child for a in parent.args)):
                return True  # a said call's fields (its keywords) are checked as any other text
            if any(k.arg == "style" and k.value is child for k in parent.keywords):
                return True
        if isinstance(parent, ast.Compare):  # compared with what was typed or received: a code
            return True
        if isinstance(parent, ast.Subscript) and child is parent.slice:  # a key
            return True
        if isinstance(parent, ast.Dict) and any(k is child for k in parent.keys):  # a key: a code
            return True
        if isinstance(parent, ast.stmt):
            return isinstance(parent, ast.Expr) and parent.value is node  # a bare string: a comment, unread
        child, parent = parent, parents.get(id(parent))
    return False


def bare_english(path: Path, root: Path = ROOT) -> Iterator[str]:
    """Each string of two or more English words in ``path`` that is neither wrapped nor in an allowed place."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant | ast.JoinedStr) or id(node) in docs:
            continue
        if isinstance(node, ast.Constant) and (not isinstance(node.value, str)
                                               or isinstance(parents.get(id(node)), ast.JoinedStr)):
            continue
        if _is_sentence(_text(node)) and not _allowed_place(node, parents):
            yield f"{path.relative_to(root)}:{node.lineno}: {_text(node)[:80]!r}"


def _files() -> list[Path]:
    return [p for p in sorted(CLIENT.rglob("*.py"))
            if not any(p == out or out in p.parents for out in LEFT_OUT)]


def test_every_sentence_of_the_terminal_client_is_wrapped() -> None:
    found = [hit for path in _files() for hit in bare_english(path)]
    assert not found, "English a person reads, not in the catalogs (wrap it in _() or phrase()):\n" \
        + "\n".join(found)


def test_the_guard_finds_a_bare_sentence_and_lets_a_wrapped_one_pass(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('def f(x):\n    """Docstrings are for developers."""\n'
                      '    say(f"{x} is away")\n    say(_("you pass this hand"))\n'
                      '    Text("a", style="bold yellow")\n    return {"not a key": x}["not a key"]\n',
                      encoding="utf-8")
    assert [hit.split(": ", 1)[1] for hit in bare_english(sample, tmp_path)] == ["'{} is away'"]

