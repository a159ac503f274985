"""Strategy trees as plain data, their networkx form, and an independent replay.

Data types, stated once:

- a :class:`Tree` node plays ``guess`` to the ``answers`` answers that reach it; ``children`` maps a
  feedback pattern code (see :mod:`exact.feedback`) to the subtree for the answers giving that
  pattern. The all-green pattern has no child: those answers are won here. A pattern with no child
  means the answers giving it are lost (normal at the last allowed guess);
- the *step* of a node is its depth counted from 1 at the root: an answer won at a node of step k
  took k guesses;
- the networkx form is a ``DiGraph`` with node ids ``"n0", "n1", ...`` in preorder (children in
  increasing pattern code); every node has attributes ``guess`` (str) and ``answers`` (int, how many
  answers reach it); every edge has ``feedback``, the pattern as digits 0 gray / 1 yellow / 2 green
  from the first letter to the last (a string such as ``"02110"``); ``G.graph["root"]`` names the root.
  A node may also have ``counts`` (the claim ``Tree.claims["counts"]`` as numbers separated by spaces).

>>> from exact.feedback import feedback
>>> t = Tree("abbey", 3, {feedback("abbey", "cabin"): Tree("cabin", 2, {feedback("cabin", "cable"): Tree("cable", 1, {})})})
>>> tree_depth(t), count_nodes(t)
(3, 3)
>>> from_networkx(to_networkx(t)) == t
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern, is_word, parse_pattern  # noqa: F401 (feedback: doctests)
from exact.fileio import is_decimal
from exact.game.hard import is_allowed
from exact.game.position import position_answers, word_classes
from exact.words import WordList, describe_lists, lists_record, shorten

if TYPE_CHECKING:  # networkx is imported where a graph is made or read
    import networkx as nx


@dataclass
class Tree:
    guess: str  # the word played at this node
    answers: int  # how many answers reach this node
    children: dict[int, "Tree"] = field(default_factory=dict)  # feedback pattern code -> subtree; no child for all-green (won here); a missing pattern means those answers are lost
    # What the file it was read from claims about this node's subtree (not part of the strategy, so
    # not compared): ``counts``, a tuple whose entry k - 1 is how many of the answers reaching the
    # node are won with the k-th guess counted from this node (the node's own guess is the first;
    # Olson's ``ranking.counts``). :func:`replay` checks it.
    claims: dict | None = field(default=None, compare=False, repr=False)


def tree_depth(tree: Tree) -> int:
    """The most guesses any path plays: 1 for a lone node.

    >>> tree_depth(Tree("abbey", 1, {}))
    1
    """
    return 1 + max((tree_depth(c) for c in tree.children.values()), default=0)


def count_nodes(tree: Tree) -> int:
    """How many decision nodes the tree has.

    >>> count_nodes(Tree("abbey", 2, {0: Tree("cabin", 1, {})}))
    2
    """
    return 1 + sum(count_nodes(c) for c in tree.children.values())


def preorder(tree: Tree) -> Iterator[tuple[tuple[tuple[str, int], ...], Tree]]:
    """Every node with its history ``((guess, pattern), ...)`` from the root, children by pattern code.

    >>> [(h, t.guess) for h, t in preorder(Tree("abbey", 2, {0: Tree("cabin", 1, {})}))]
    [((), 'abbey'), ((('abbey', 0),), 'cabin')]
    """
    stack = [((), tree)]
    while stack:
        history, node = stack.pop()
        yield history, node
        for pattern in sorted(node.children, reverse=True):
            stack.append((history + ((node.guess, pattern),), node.children[pattern]))


def path_text(history, length: int) -> str:
    """A history as ``guess pattern guess pattern ...`` with patterns as digits ('' for the root).

    >>> path_text((("salet", 0), ("courd", 19)), 5)
    'salet 00000 courd 10200'
    """
    return " ".join(f"{g} {format_pattern(p, length)}" for g, p in history)


# --- networkx ---------------------------------------------------------------------------------


def to_networkx(tree: Tree) -> nx.DiGraph:
    """The tree as a DiGraph in the schema above (node ids ``n0, n1, ...`` in preorder).

    >>> G = to_networkx(Tree("abbey", 2, {19: Tree("cabin", 1, {})}))
    >>> G.graph["root"], dict(G.nodes["n1"]), G.edges["n0", "n1"]["feedback"]
    ('n0', {'guess': 'cabin', 'answers': 1}, '10200')
    """
    import networkx as nx  # lazy: start-up (measured 0.14 s)
    length = len(tree.guess)
    G = nx.DiGraph(root="n0")
    ids: dict[tuple, str] = {}
    for history, node in preorder(tree):
        node_id = ids[history] = f"n{len(ids)}"
        G.add_node(node_id, guess=node.guess, answers=node.answers)
        if node.claims and "counts" in node.claims:
            G.nodes[node_id]["counts"] = " ".join(map(str, node.claims["counts"]))
        if history:
            G.add_edge(ids[history[:-1]], node_id, feedback=format_pattern(history[-1][1], length))
    G.graph.update({k: v for k, v in (tree_lists(tree) or {}).items() if v is not None})
    return G


def _shown(value) -> str:
    """A value from a file, quoted and cut short for a one-line error."""
    return shorten(repr(value), 60)


def from_networkx(G: nx.DiGraph) -> Tree:
    """The tree a DiGraph in the schema above describes; anything else is an ExactError.

    >>> import networkx as nx
    >>> G = nx.DiGraph(root="a")
    >>> G.add_node("a", guess="abbey", answers=2); G.add_node("b", guess="cabin", answers=1)
    >>> G.add_edge("a", "b", feedback="10200")
    >>> from_networkx(G)
    Tree(guess='abbey', answers=2, children={19: Tree(guess='cabin', answers=1, children={})})
    """
    import networkx as nx  # lazy: start-up (measured 0.14 s)

    if not G.is_directed():
        raise ExactError("the graph is not directed")
    root = G.graph.get("root")
    if root is None:
        raise ExactError("the graph has no 'root' attribute")
    if root not in G:
        raise ExactError(f"the root {_shown(root)} is not a node of the graph")
    if G.in_degree(root):
        raise ExactError(f"the root {_shown(root)} has a parent")
    for node, degree in G.in_degree():
        if degree > 1:
            raise ExactError(f"node {_shown(node)} has {degree} parents; a strategy is a tree")
    reached = nx.descendants(G, root) | {root}
    if len(reached) != len(G):
        stray = sorted(map(str, set(G) - reached))[0]
        raise ExactError(f"node {_shown(stray)} is not reachable from the root {_shown(root)}")
    tree = _tree_at(G, root, _node_guess(G, root))
    if isinstance(G.graph.get("answers_sha256"), str):
        record = {k: G.graph.get(k) for k in LIST_KEYS}
        tree.claims = {**(tree.claims or {}), "lists": record}
    return tree


def _node_guess(G: nx.DiGraph, node) -> str:
    guess = G.nodes[node].get("guess")
    if not isinstance(guess, str) or not is_word(guess):
        raise ExactError(f"node {_shown(node)} has no valid 'guess' attribute (got {_shown(guess)})")
    return guess


def _tree_at(G: nx.DiGraph, node, guess: str) -> Tree:
    length = len(guess)
    answers = G.nodes[node].get("answers")
    if isinstance(answers, str) and is_decimal(answers) and len(answers) < 10:
        answers = int(answers)
    if isinstance(answers, bool) or not isinstance(answers, int) or answers < 0:
        raise ExactError(f"node {_shown(node)} has no valid 'answers' attribute (got {_shown(answers)})")
    children: dict[int, Tree] = {}
    for child in G.successors(node):
        text = G.edges[node, child].get("feedback")
        if not isinstance(text, str) or len(text) != length or set(text) - set("012"):
            raise ExactError(f"edge {_shown(node)} -> {_shown(child)} has no valid 'feedback' attribute "
                             f"(got {text!r}; want {length} digits 0/1/2)")
        pattern = parse_pattern(text, length, "digits")
        if pattern == all_green(length):
            raise ExactError(f"edge {_shown(node)} -> {_shown(child)} follows the all-green feedback {text}")
        if pattern in children:
            raise ExactError(f"node {_shown(node)} has two edges with feedback {text}")
        child_guess = _node_guess(G, child)
        if len(child_guess) != length:
            raise ExactError(f"node {_shown(child)} guesses {child_guess!r} but its parent guesses {_shown(guess)}")
        children[pattern] = _tree_at(G, child, child_guess)
    claims = None
    counts = G.nodes[node].get("counts")
    if counts is not None:
        try:
            claims = {"counts": tuple(int(c) for c in str(counts).split())}
        except ValueError:
            raise ExactError(f"node {_shown(node)} has a 'counts' attribute that is not whole numbers (got {_shown(counts)})") from None
    return Tree(guess, answers, dict(sorted(children.items())), claims)


# --- the lists a tree was made on ---------------------------------------------------------------

#: The graph attributes (and keys of ``Tree.claims["lists"]`` at the root) that record the lists a
#: tree was made on (:func:`exact.words.lists_record`).
LIST_KEYS = ("list", "answers_count", "answers_sha256", "guesses_count", "guesses_sha256")


def record_lists(tree: Tree, answers: WordList, guesses: WordList) -> Tree:
    """Record on the tree's root the lists it was made on (written by the graph formats)."""
    tree.claims = {**(tree.claims or {}), "lists": lists_record(answers, guesses)}
    return tree


def tree_lists(tree: Tree) -> dict | None:
    """The lists recorded on the tree's root, or None (a file that records none)."""
    return (tree.claims or {}).get("lists")


def answer_leaves(tree: Tree) -> list[str]:
    """The words a tree names as answers: the guess of every node that one answer reaches and that
    has no child (it can only be that answer, won there), in preorder. A tree records the list it
    was made on in these words even where its file format has no room for the lists' sha256.

    >>> answer_leaves(Tree("abbey", 3, {1: Tree("cabin", 2, {7: Tree("cable", 1, {})}), 5: Tree("zonal", 1, {})}))
    ['cable', 'zonal']
    """
    return [node.guess for _, node in preorder(tree) if not node.children and node.answers == 1]


def check_tree_lists(tree: Tree, answers: WordList, guesses: WordList | None, name: str = "the tree") -> None:
    """A one-line error when the tree records lists other than these (by sha256), or, for a tree that
    records none, when it names an answer (:func:`answer_leaves`) that is not on these answers.

    >>> from exact.words import named_lists
    >>> t = record_lists(Tree("tarse", 3158, {}), *named_lists("nyt2023"))
    >>> check_tree_lists(t, *named_lists("nyt2023"))
    >>> check_tree_lists(t, *named_lists("original"), name="t.graphml")
    Traceback (most recent call last):
    exact.errors.ExactError: t.graphml was made on list nyt2023 (3158 answers, 14855 guesses), not on list original (2315 answers, 12972 guesses): choose its lists (--list nyt2023)
    """
    made = tree_lists(tree)
    if guesses is not None:
        here, keys = lists_record(answers, guesses), ("answers_sha256", "guesses_sha256")
    else:
        here = {"answers_count": len(answers), "answers_sha256": answers.sha256, "guesses_count": "?"}
        keys = ("answers_sha256",)
    if made is None:  # a format with no room for the lists (Selby's text, emoji, Olson's map): its answers
        strangers = [w for w in answer_leaves(tree) if w not in answers.index]
        if strangers:
            shown = ", ".join(strangers[:3]) + (", ..." if len(strangers) > 3 else "")
            raise ExactError(f"{name} solves answers not on {describe_lists(here)} ({len(strangers)}: {shown}): "
                             f"it was made on other lists; choose them (--list, or --answers and --guesses)")
        return
    if all(str(made.get(k)) == here[k] for k in keys):
        return
    hint = f"--list {made['list']}" if made.get("list") else "--answers and --guesses"
    raise ExactError(f"{name} was made on {describe_lists(made)}, not on {describe_lists(here)}: "
                     f"choose its lists ({hint})")


# --- replay -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """A node worth reporting. Invalid nodes: ``kind`` not-allowed, hard-mode, missing-branch,
    green-child, or claim (the file's own statistics for the node are wrong). Notes: count (the
    recorded answer count differs), depth (answers reach the node only after the depth), or claim
    (the file's statistics differ, at a node that other answers reach: a tree for another list)."""

    kind: str
    path: str  # the history leading to the node, "guess pattern guess pattern ..."
    guess: str
    message: str

    def to_json(self) -> dict:
        return asdict(self)


class WinsWithin:
    """What every result of "the most answers won within ``depth`` guesses" states first (the replay of
    a tree, the depth-k DP's result, the search over every first guess): ``wins`` of ``n``, their
    probability, the depth and the mode. A mixin of records that have those four attributes; a record with
    answer weights has ``weight`` too (the total weight: ``wins`` is then the weight won)."""

    @property
    def probability(self) -> float:
        per = getattr(self, "weight", None) or self.n  # weighted: weight won / total weight
        return self.wins / per if per else 0.0

    def wins_fields(self) -> dict:
        """The leading fields of the record's JSON, in their order."""
        return {"wins": self.wins, "n": self.n, "probability": self.probability, "depth": self.depth,
                "hard": self.hard}


@dataclass(frozen=True)
class Replay(WinsWithin):
    """What every command reports about a tree: the result of :func:`replay`.

    ``histogram[k - 1]`` is how many answers the tree solves with exactly ``k`` guesses, at any
    depth; an answer is solved when the node it reaches plays it and every guess on its way there is
    allowed. ``depth`` is the number of guesses the game allows: ``wins`` counts the answers solved
    within it and ``lost`` lists the others (in list order), of which ``unsolved`` the tree never
    solves and ``beyond`` it solves only after the depth (a note, not an error).
    """

    n: int
    depth: int
    hard: bool
    histogram: tuple[int, ...]  # no trailing zeros
    lost: tuple[str, ...]
    unsolved: tuple[str, ...]
    invalid: tuple[Problem, ...]  # invalid nodes, in preorder
    notes: tuple[Problem, ...]  # count, depth and claim notes, in preorder
    claims_checked: int = 0  # nodes whose own claimed statistics were checked

    @property
    def wins(self) -> int:
        return sum(self.histogram[: self.depth])

    @property
    def valid(self) -> bool:
        return not self.invalid

    @property
    def wins_at(self) -> tuple[int, ...]:
        """``wins_at[k - 1]``: answers won with exactly k guesses, k = 1..depth."""
        return tuple(self.histogram[k] if k < len(self.histogram) else 0 for k in range(self.depth))

    @property
    def wins_within(self) -> tuple[int, ...]:
        """``wins_within[k - 1]``: answers won within k guesses, k = 1..max(depth, worst)."""
        out, total = [], 0
        for k in range(max(self.depth, len(self.histogram))):
            total += self.histogram[k] if k < len(self.histogram) else 0
            out.append(total)
        return tuple(out)

    @property
    def solved(self) -> int:
        return sum(self.histogram)

    @property
    def complete(self) -> bool:
        """Every answer solved (at some depth)."""
        return self.solved == self.n

    @property
    def total_guesses(self) -> int:
        """Guesses used over the solved answers (the field's objective when the tree is complete)."""
        return sum(k * c for k, c in enumerate(self.histogram, start=1))

    @property
    def mean_guesses(self) -> float | None:
        """Mean guesses over the solved answers (None when none is solved)."""
        return self.total_guesses / self.solved if self.solved else None

    @property
    def worst(self) -> int | None:
        """The most guesses a solved answer takes (None when none is solved)."""
        return len(self.histogram) or None

    @property
    def beyond(self) -> tuple[str, ...]:
        unsolved = set(self.unsolved)
        return tuple(a for a in self.lost if a not in unsolved)

    def to_json(self) -> dict:
        return {
            **self.wins_fields(),
            "valid": self.valid,
            "histogram": list(self.histogram),
            "total_guesses": self.total_guesses,
            "mean_guesses": self.mean_guesses,
            "worst": self.worst,
            "solved": self.solved,
            "complete": self.complete,
            "wins_at": list(self.wins_at),
            "wins_within": list(self.wins_within),
            "lost": list(self.lost),
            "unsolved": list(self.unsolved),
            "beyond_depth": list(self.beyond),
            "claims_checked": self.claims_checked,
            "invalid": [p.to_json() for p in self.invalid],
            "notes": [p.to_json() for p in self.notes],
        }


HardRule = Callable[[str, tuple[tuple[str, int], ...]], bool]


def replay(tree: Tree, answers: WordList, guesses: WordList | None = None, depth: int = 3,
           hard: bool = False) -> Replay:
    """Play every answer through the tree from scratch with :func:`exact.feedback.feedback`.

    An answer is solved with k guesses when the node it reaches at step k plays it and every guess
    on its way (that one included) is allowed; it is won when k <= ``depth``. Invalid nodes: a
    guess not in ``guesses`` (when given), a hard-mode violation (with ``hard``), a non-green
    pattern that answers give with guesses left but that has no child (*missing-branch*), a child
    under the all-green pattern, a claimed statistic that is wrong for the answers that reach the
    node. The answers below a guess that is not allowed are never solved, whatever the tree plays
    later. Notes, not errors: a recorded ``answers`` count that differs from the answers that reach
    the node, or a claim at such a node (the tree may have been made for another answer list), and
    nodes answers reach only after ``depth`` guesses (deeper than the game allows: their answers are
    lost within the depth, and the histogram still counts them).

    >>> from exact.words import words_from_lines
    >>> A = words_from_lines(["caber", "cabin", "cable"])
    >>> t = Tree("cabin", 3, {feedback("cabin", "cable"): Tree("cable", 2, {})})
    >>> r = replay(t, A, depth=2)
    >>> r.wins, r.n, r.lost, r.histogram, r.total_guesses, r.worst, [p.kind for p in r.invalid]
    (2, 3, ('caber',), (1, 1), 3, 2, [])
    >>> [p.kind for p in replay(t, A, depth=3).invalid]
    ['missing-branch']
    """
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    if len(answers) and len(tree.guess) != answers.length:
        raise ExactError(f"the tree guesses {len(tree.guess)}-letter words but {answers.source} "
                         f"has {answers.length}-letter words")
    replayer = _Replayer(len(tree.guess), depth, hard, None if guesses is None else guesses.index)
    replayer.visit(tree, list(answers.words), (), 1, True)
    solved_at = replayer.solved_at
    deepest = max(solved_at.values(), default=0)
    histogram = [0] * deepest
    for k in solved_at.values():
        histogram[k - 1] += 1
    return Replay(
        n=len(answers),
        depth=depth,
        hard=hard,
        histogram=tuple(histogram),
        lost=tuple(a for a in answers.words if solved_at.get(a, depth + 1) > depth),
        unsolved=tuple(a for a in answers.words if a not in solved_at),
        invalid=tuple(replayer.problems),
        notes=tuple(replayer.notes),
        claims_checked=replayer.checked,
    )


@dataclass
class _Replayer:
    """One replay (:func:`replay`): the word length, the depth, the mode, the allowed guesses (None:
    any word), and what it found: the step each answer is solved at, the problems, the notes, the
    number of claims checked."""

    length: int
    depth: int
    hard: bool
    allowed: dict | None
    solved_at: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    checked: int = 0

    def problem(self, kind, history, node, message, note=False):
        (self.notes if note else self.problems).append(Problem(kind, path_text(history, self.length), node.guess,
                                                               message))

    def visit(self, node: Tree, reaching: list[str], history: tuple, step: int, playable: bool) -> list[int]:
        """Replay the answers reaching ``node``; return the histogram of their wins counted from it."""
        counted = node.answers == len(reaching)
        if not counted:
            self.problem("count", history, node, f"records {node.answers} answers but {len(reaching)} reach it",
                         note=True)
        if not reaching:
            return []
        playable = self.check_guess(node, reaching, history, step, playable)
        split = word_classes(node.guess, reaching)
        below = [0]
        green = all_green(self.length)
        if green in split and playable:
            self.solved_at[node.guess] = step
            below[0] = 1
        if green in node.children:
            self.problem("green-child", history, node, "has a child under the all-green pattern")
        for pattern in sorted(set(split) | set(node.children)):
            if pattern == green:
                continue
            child = node.children.get(pattern)
            members = split.get(pattern, ())
            if child is not None:
                sub = self.visit(child, members, history + ((node.guess, pattern),), step + 1, playable)
                below.extend([0] * (len(sub) + 1 - len(below)))
                for k, c in enumerate(sub, start=1):
                    below[k] += c
            elif step < self.depth:
                self.problem("missing-branch", history, node, f"no child for feedback "
                             f"{format_pattern(pattern, self.length)} given by {len(members)} answers")
        while below and not below[-1]:
            below.pop()
        self.check_claim(node, history, below, counted)
        return below

    def check_guess(self, node: Tree, reaching: list[str], history: tuple, step: int, playable: bool) -> bool:
        """The node's guess checked (a word; past the depth, not allowed, against the hard-mode rule:
        problems or notes); whether the answers below it can still be solved."""
        if len(node.guess) != self.length or not is_word(node.guess):
            raise ExactError(f"node {path_text(history, self.length) or 'root'}: {node.guess!r} is not a "
                             f"{self.length}-letter word")
        if step == self.depth + 1:
            self.problem("depth", history, node, f"{len(reaching)} answers reach guess {step} but the depth is "
                         f"{self.depth}", note=True)
        if self.allowed is not None and node.guess not in self.allowed:
            self.problem("not-allowed", history, node, f"{node.guess!r} is not an allowed guess")
            playable = False
        if self.hard and not is_allowed(node.guess, history):
            self.problem("hard-mode", history, node, f"{node.guess!r} breaks the hard-mode rule")
            playable = False
        return playable

    def check_claim(self, node: Tree, history: tuple, below: list[int], counted: bool) -> None:
        """The node's claimed win counts, if any, against the replay's (a note where the node's recorded
        answer count is off: the tree may have been made for another list)."""
        claimed = (node.claims or {}).get("counts")
        if claimed is None:
            return
        self.checked += 1
        claimed = list(claimed)
        while claimed and not claimed[-1]:
            claimed.pop()
        if claimed != below:
            self.problem("claim", history, node, f"the file's counts {list(node.claims['counts'])} differ from the "
                         f"replay's {below}", note=not counted)


def replay_position(tree: Tree, answers: WordList, guesses: WordList, after=(), max_guesses: int = 6,
                    hard: bool = False):
    """An independent replay (:func:`replay`) of a tree played after the guesses
    ``after``, on the answers consistent with them; ``wins_at`` counts guesses from the start of the
    game (the guesses played included). In hard mode every guess is checked against the rule with
    the guesses played before it."""
    history = tuple(after)
    sub = position_answers(answers, history, hard)
    result = replay(tree, sub, guesses, depth=max_guesses - len(history), hard=hard and not history)
    if hard and history:
        bad = _hard_violations(tree, history)
        if bad:
            result = replace(result, invalid=result.invalid + tuple(
                Problem("hard-mode", "", g, f"{g!r} breaks the hard-mode rule") for g in bad))
    return replace(result, histogram=(0,) * len(history) + tuple(result.histogram), depth=max_guesses)


def _hard_violations(tree: Tree, history) -> list[str]:
    """The guesses of the tree that break the hard-mode rule, counting the guesses played before it."""
    bad = [] if is_allowed(tree.guess, history) else [tree.guess]
    for pattern, child in tree.children.items():
        bad += _hard_violations(child, history + ((tree.guess, pattern),))
    return bad


# --- the walk the formats write from ------------------------------------------------------------


@dataclass
class Played:
    """A node with the answers that reach it: ``won`` when its guess is one of them; ``classes``
    lists the other patterns they give, in code order, each with its answers and its subtree
    (None: those answers are lost here). Subtrees no answer reaches are left out."""

    guess: str
    answers: list[str]
    won: bool
    classes: list[tuple[int, list[str], "Played | None"]]

    def counts(self) -> list[int]:
        """counts[k - 1]: the answers won with the k-th guess from this node (this one is the first)."""
        out = [int(self.won)]
        for _, _, child in self.classes:
            for k, c in enumerate(child.counts() if child else [], start=1):
                out.extend([0] * (k + 1 - len(out)))
                out[k] += c
        while len(out) > 1 and not out[-1]:
            out.pop()
        return out


def played(tree: Tree, answers: WordList) -> Played:
    """Walk ``answers`` through ``tree`` with :func:`exact.feedback.feedback`.

    >>> from exact.words import words_from_lines
    >>> p = played(Tree("cabin", 2, {parse_pattern("22200"): Tree("cable", 1, {})}), words_from_lines(["cabin", "cable"]))
    >>> p.won, [(format_pattern(c, 5), a, q.guess) for c, a, q in p.classes], p.counts()
    (True, [('22200', ['cable'], 'cable')], [1, 1])
    """
    if len(answers) and answers.length != len(tree.guess):
        raise ExactError(f"the tree guesses {len(tree.guess)}-letter words but {answers.source} "
                         f"has {answers.length}-letter words")

    def walk(node: Tree, reaching: list[str]) -> Played:
        green = all_green(len(node.guess))
        split = {p: list(members) for p, members in word_classes(node.guess, reaching).items()}
        return Played(node.guess, reaching, green in split,
                      [(p, members, walk(node.children[p], members) if p in node.children else None)
                       for p, members in sorted(split.items()) if p != green])

    return walk(tree, list(answers.words))
