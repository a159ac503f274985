"""A valid upper bound on the wins of any k guesses (Lingo), by a relaxation over letter choices.

Data types:

- ``pool``: a :class:`~exact.words.WordList` of n words of length ``m`` (the answers and the guesses);
- a *family*: the words of the pool that agree everywhere except at one position ``p >= 1``
  (so they share their first letter, i.e. their Lingo group), listed in pool order; its *base* is
  the ``m - 1`` letters they share;
- a *relaxed choice* ``(E, D, S)``: ``E`` the letters no guess holds (bitmask over a..z), ``D`` the
  letters some guess holds twice or more, ``S[p]`` the letters the guesses hold at position p;
- :class:`LingoBound`: the bound ``value`` (wins, so ``value / n`` bounds the probability).

The argument, step by step (k guesses, words of length m; "letter count" ``#c(w)``):

1. **What one guess reveals.** For a guess g and an answer a, the pattern ``fb(g, a)`` is determined
   by, and determines, (i) the green positions ``{p : a[p] = g[p]}`` and (ii) for every letter c of
   g, ``min(#c(a), #c(g))``. Proof: greens are read off the pattern; for a letter c with
   ``#c(g) = M`` of which ``G`` copies are green, the rule makes the first ``min(u, M - G)``
   non-green copies of c in g yellow, u = the answer's non-green copies of c = ``#c(a) - G``; so
   the pattern holds ``G + min(#c(a) - G, M - G) = min(#c(a), M)`` and that number (with the greens)
   fixes which copies are yellow. (Tested against the rule on random words.)
2. **What k guesses reveal.** Hence the Lingo signature (first letter, fb_1..fb_k) of an answer is a
   function of its first letter, its green indicators ``[a[p] = c]`` for ``c in S[p]`` (the letters
   the guesses hold at p) and its capped counts ``min(#c(a), mu_c)``, ``mu_c`` = the most copies of
   c in one guess. Let ``L`` = the guess letters (``mu_c >= 1``), ``E`` = the other letters and
   ``D = {c : mu_c >= 2}``. The k guesses fill ``m k`` letter slots; a letter of L fills at least one
   and a letter of D at least two, so ``|L| + |D| <= m k``, i.e. ``|E| >= 26 - m k + |D|``; and
   ``|S[p]| <= k``, ``S[p]`` is inside L.
3. **When two words of a family cannot be told apart.** Let i, j be in a family at position p with
   letters x (in i) and y (in j) there. Their green indicators differ only at p, and only if x or y
   is in ``S[p]``; their letter counts differ only for x and y, by one. The capped count of x
   differs only if ``mu_x > #x(base)``: x is in L, and x is not in the base or ``mu_x >= 2``. Call
   the member x *visible* when ``x in S[p]``, or x is in L and (x is not in the base or x is in D);
   otherwise *invisible*. (Visible is a superset of what truly separates: x in D with two copies
   of x in the base is called visible. That only makes the bound weaker, never wrong.) Two invisible
   members of one family have the same signature.
4. **Counting.** The wins are the classes: the words whose signature differs from every earlier
   word of their group. A word that is invisible in some family holding an earlier invisible
   member (call it *bad*) is not counted. So ``wins <= n - N(E, D, S)``, N = the number of bad
   words, for the choice ``(E, D, S)`` that the real guesses induce.
5. **Relaxation.** Minimise N over every ``(E, D, S)`` obeying only the constraints of step 2: the
   real choice is one of them, so ``wins <= n - min N`` for every k-set. N only shrinks when E
   shrinks or D or a ``S[p]`` grows (more members visible).
6. **Greens, exactly, position by position.** For fixed (E, D), give every word that is bad with
   no greens one *home* family in which it is bad. Under greens S, N is at least the number of words
   still bad in their home family (distinct words, each bad); that count is a sum over positions of
   a term depending on ``S[p]`` alone, so its minimum over S is the sum over p of the minimum over
   the k-subsets of the letters that greens could rescue there (enumerated exactly). Greens never
   make a word bad, so words good with no greens need no home.
7. **Search over the letters.** For a given D, N is smallest at the fewest exclusions,
   ``|E| = 26 - m k + |D|`` (step 5), so E is searched at that size by branch and bound, adding
   letters to E one by one: a partial E bounds all its supersets (step 5) by a cheap form of step
   6 (a green letter rescues at most one home word per family, so subtract the k largest rescue
   counts per position); leaves get the exact step 6. D is split by its size j: D empty first; for
   j >= 1, by its part T among the 6 letters most often shared with a base. When D = T the search
   is exact; otherwise every D with that T lies inside T plus all the other letters, and counting
   all of those beyond one only lowers N (step 5), so one search bounds them all. Every D of size j
   needs the exclusions of step 2; once the pure exclusion bound (every letter counted beyond one)
   at that size reaches the best value found, no D of size j or more can go lower and the search is
   complete. Letters no family member holds are excluded for free (N is unchanged, the budget
   loosens). Stopped early (time limit, Ctrl-C), the least of the best value, the open nodes and
   the pending exclusion bounds is still a valid bound (anytime; with no leaf yet it may be n).

So ``value = n - (that minimum)``. What it leaves out (why it stays well above the best sets
known): anagram pairs (``plate``/``pleat``) and other pairs two or more positions apart; that the
greens are the very slots that hold L (each letter sits at one or two positions, not everywhere);
and a word bad in several families counts once, with its greens bounded in one of them.

>>> from exact.words import words_from_lines
>>> pool = words_from_lines(["bakes", "bekes", "bikes", "bokes", "bukes", "bykes", "brkes"])
>>> upper_bound(pool, None, 1).value  # one guess has 5 letters: two of the 7 vowels stay unseen
6
"""

from __future__ import annotations

import collections
import itertools
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from exact import progress, stop
from exact.errors import ExactError
from exact.feedback import encode
from exact.words import WordList

ALPHABET = 26
EXCLUDED, PLAIN, DOUBLED = 0, 1, 2  # a letter's status: in E, in L \ D, in D


@dataclass(frozen=True)
class LingoBound:
    value: int  # no k-set of the pool wins more than this many answers
    method: str
    n: int
    k: int
    complete: bool  # True when the branch and bound finished (else: the anytime bound)
    seconds: float
    details: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "upper_bound": self.value,
            "n": self.n,
            "k": self.k,
            "probability_bound": self.value / self.n,
            "method": self.method,
            "complete": self.complete,
            "seconds": self.seconds,
            "details": self.details,
        }


# --- Families ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Families:
    """All families, flattened: members of family f are ``start[f]:start[f+1]`` in pool order."""

    start: np.ndarray  # int64, (families + 1,)
    position: np.ndarray  # int64, (families,): the position p >= 1 where members differ
    word: np.ndarray  # int64, (members,): pool index of the member
    letter: np.ndarray  # int64, (members,): the member's letter at p
    in_base: np.ndarray  # int64, (members,): 1 when that letter also occurs in the base
    n: int
    length: int


def families(words) -> Families:
    """The families of the pool: words equal except at one position p >= 1 (two or more words).

    >>> fam = families(["bakes", "bikes", "cakes", "bases"])
    >>> [(int(p), [int(w) for w in fam.word[fam.start[f]:fam.start[f + 1]]]) for f, p in enumerate(fam.position)]
    [(1, [0, 1]), (2, [0, 3])]
    """
    W = encode(words)
    n, m = W.shape
    start, position, word, letter, in_base = [0], [], [], [], []
    for p in range(1, m):
        by_base = collections.defaultdict(list)
        for i, w in enumerate(W.tolist()):
            by_base[tuple(w[:p] + w[p + 1:])].append(i)
        for base, members in by_base.items():
            if len(members) < 2:
                continue
            position.append(p)
            for i in members:
                word.append(i)
                letter.append(W[i, p])
                in_base.append(int(W[i, p] in base))
            start.append(len(word))
    as_array = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
    return Families(as_array(start), as_array(position), as_array(word), as_array(letter),
                    as_array(in_base), n, m)


# --- The bound at one relaxed choice (steps 3-6) ------------------------------------------------

@numba.njit(cache=True)
def invisible(letter, in_base, E, V, green):
    """Step 3: a member is invisible when its letter is in E, or shared with the base and in
    neither V (the letters counted beyond one: D, plus every undecided letter) nor the greens."""
    if (E >> letter) & 1:
        return True
    return in_base == 1 and not (V >> letter) & 1 and not (green >> letter) & 1


@numba.njit(cache=True)
def _still_bad(fam_start, fam_word, fam_letter, fam_in_base, f, E, V, green, home):
    """How many home words of family f stay bad under these greens."""
    seen, bad = 0, 0
    for t in range(fam_start[f], fam_start[f + 1]):
        if invisible(fam_letter[t], fam_in_base[t], E, V, green):
            seen += 1
            if seen >= 2 and home[fam_word[t]] == f:
                bad += 1
    return bad


@numba.njit(cache=True)
def _position_minimum(fam_start, fam_word, fam_letter, fam_in_base, fams, E, V, k, home, rescuable):
    """Step 6 at one position: the fewest home words left bad over every k-subset of greens."""
    letters = np.flatnonzero(rescuable)
    r = min(k, letters.shape[0])
    best, best_green = 1 << 62, 0
    idx = np.arange(r)
    while True:
        green = 0
        for j in range(r):
            green |= 1 << letters[idx[j]]
        total = 0
        for f in fams:
            total += _still_bad(fam_start, fam_word, fam_letter, fam_in_base, f, E, V, green, home)
            if total >= best:
                break
        if total < best:
            best, best_green = total, green
        # next r-combination of len(letters), lexicographic
        j = r - 1
        while j >= 0 and idx[j] == letters.shape[0] - r + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, r):
            idx[t] = idx[t - 1] + 1
    return best, best_green


@numba.njit(cache=True)
def find_homes(fam_start, fam_word, fam_letter, fam_in_base, n, E, V, home):
    """Step 4: fill ``home`` (n,) with each bad word's home family (-1 if none): of the families
    where the word is a second or later invisible member, the one where greens can rescue the fewest
    members, so the bound stays high."""
    home[:] = -1
    robust = np.full(n, -1, np.int64)
    for f in range(fam_start.shape[0] - 1):
        seen, fixable = 0, 0
        for t in range(fam_start[f], fam_start[f + 1]):
            if invisible(fam_letter[t], fam_in_base[t], E, V, 0):
                seen += 1
                if not (E >> fam_letter[t]) & 1:
                    fixable += 1
        if seen < 2:
            continue
        score = seen - fixable
        seen = 0
        for t in range(fam_start[f], fam_start[f + 1]):
            if invisible(fam_letter[t], fam_in_base[t], E, V, 0):
                seen += 1
                w = fam_word[t]
                if seen >= 2 and score > robust[w]:
                    robust[w] = score
                    home[w] = f


@numba.njit(cache=True)
def _lower_bound(fam_start, fam_pos, fam_word, fam_letter, fam_in_base, n, length, E, V, k, home, greens, exact):
    """Steps 4-6: a lower bound on the bad words N over every greens choice, for fixed (E, V).

    ``home`` (n,) and ``greens`` (length,) are outputs: each bad word's home family (-1 if none)
    and the minimising greens per position. With ``exact`` false, each position's minimum is
    replaced by a cheaper, smaller bound: a green letter rescues at most one home word per family,
    so the home words minus the k largest per-letter rescue counts."""
    nf = fam_start.shape[0] - 1
    find_homes(fam_start, fam_word, fam_letter, fam_in_base, n, E, V, home)
    total = 0
    for p in range(length):
        greens[p] = 0
    for p in range(1, length):
        is_home = np.zeros(nf, np.bool_)
        for w in range(n):
            if home[w] >= 0 and fam_pos[home[w]] == p:
                is_home[home[w]] = True
        fams = np.flatnonzero(is_home)
        if fams.shape[0] == 0:
            continue
        rescuable = np.zeros(26, np.bool_)
        for f in fams:
            for t in range(fam_start[f], fam_start[f + 1]):
                x = fam_letter[t]
                if fam_in_base[t] == 1 and not (E >> x) & 1 and not (V >> x) & 1:
                    rescuable[x] = True
        if exact:
            best, green = _position_minimum(fam_start, fam_word, fam_letter, fam_in_base, fams, E, V, k, home,
                                            rescuable)
        else:
            homes, rescues = 0, np.zeros(26, np.int64)
            for f in fams:
                homes += _still_bad(fam_start, fam_word, fam_letter, fam_in_base, f, E, V, 0, home)
                for t in range(fam_start[f], fam_start[f + 1]):
                    x = fam_letter[t]
                    if rescuable[x] and invisible(x, fam_in_base[t], E, V, 0):
                        rescues[x] += 1
            best, green = max(0, homes - np.sort(rescues)[::-1][:k].sum()), 0
        total += best
        greens[p] = green
    return total


def bound_at(fam: Families, E: int, V: int, k: int, exact: bool = True):
    home = np.empty(fam.n, np.int64)
    greens = np.zeros(fam.length, np.int64)
    value = _lower_bound(fam.start, fam.position, fam.word, fam.letter, fam.in_base, fam.n, fam.length,
                         np.int64(E), np.int64(V), k, home, greens, exact)
    return int(value), home, greens


def bad_word_bound(fam: Families, excluded: str, doubled: str, k: int) -> int:
    """Steps 3-6 for one choice of letters: a lower bound on the words lost, over every greens choice.

    >>> fam = families(["bakes", "bikes", "bokes", "bukes"])
    >>> bad_word_bound(fam, "aio", "", 4), bad_word_bound(fam, "aiou", "", 4)
    (2, 3)
    """
    E = sum(1 << (ord(c) - 97) for c in excluded)
    D = sum(1 << (ord(c) - 97) for c in doubled)
    return bound_at(fam, E, D, k)[0]


# --- Branch and bound over the letters (step 7) -------------------------------------------------

def letters_of(mask: int) -> str:
    return "".join(chr(97 + c) for c in range(ALPHABET) if mask >> c & 1)


def _min_excluded(length: int, k: int, doubled: int) -> int:
    """Step 2: at least this many letters lie outside the guesses."""
    return max(0, ALPHABET - length * k + doubled)


def mask_of(letters) -> int:
    return sum(1 << c for c in letters)


@dataclass
class SearchState:
    """Step 7's state: the best leaf so far and the smallest bound of the work not yet done."""

    fam: Families
    k: int
    deadline: float
    progress: bool
    best: int | None = None
    best_leaf: tuple[int, int] | None = None
    nodes: int = 0
    last_say: float = 0.0
    open_min: int | None = None  # the least bound of the open nodes when a search ran out of time
    witness: int | None = None  # the least value of a real (not relaxed) leaf found: the relaxation reaches it
    stop_at: int | None = None  # stop at the first real leaf below this (exact.lingo.columns, stop_when_open)
    interrupted: list = field(default_factory=lambda: [False])  # set by Ctrl-C (see upper_bound)

    def out_of_time(self) -> bool:
        return self.interrupted[0] or time.monotonic() > self.deadline

    def say(self, what: str) -> None:
        if self.progress and time.monotonic() - self.last_say > 5:
            self.last_say = time.monotonic()
            progress.say(f"bound: {what}; {self.nodes} nodes, best leaf {self.best} words lost")


def exclusion_search(st: SearchState, size: int, candidates: list[int], node_bound, leaf_bound, on_leaf,
                     label: str) -> int | None:
    """The least bound over every E of ``size`` letters from ``candidates``, where only values below
    the best leaf matter: returns that least bound, or the best leaf's value when nothing is below it
    (``1 << 62`` when there is no E at all). Returns None when time runs out, leaving in ``st.open_min``
    the least bound of the open nodes (valid for this search).

    The search is one depth-first branch and bound over the letters, each either in E or not; what
    differs between the relaxations is given: ``node_bound(E)``, a lower bound on N valid for every
    leaf below the node E (N grows with E); ``leaf_bound(E)`` (or None), a sharper value at a leaf the
    node bound did not prune; ``on_leaf(E, value)``, told of each leaf below the limit (to record it).
    Steps 7 (this module) and 7' (:mod:`exact.lingo.columns`) call it with their own bounds."""
    cutoff, low = st.best, None
    limit = lambda: low if low is not None else cutoff  # noqa: E731
    # cheap letters first: small sets of them make low leaves early, so pruning starts soon
    cost = {c: node_bound(1 << c) for c in candidates}
    order = sorted(candidates, key=lambda c: (cost[c], c))
    stack = [(node_bound(0), 0, 0, 0)]  # (bound, depth, E, |E|)
    while stack:
        if st.out_of_time():
            st.open_min = min([x[0] for x in stack] + ([low] if low is not None else []))
            return None
        b, depth, E, size_E = stack.pop()
        st.nodes += 1
        if limit() is not None and b >= limit():
            continue
        if size_E == size:
            if leaf_bound is not None:  # a leaf the node bound did not prune: the sharper value
                b = max(b, leaf_bound(E))
                if limit() is not None and b >= limit():
                    continue
            low = b
            on_leaf(E, b)
            continue
        if size_E + len(order) - depth < size:
            continue
        c = order[depth]
        stack.append((b, depth + 1, E, size_E))  # c stays a guess letter: same bound
        with_c = node_bound(E | 1 << c)
        if limit() is None or with_c < limit():
            stack.append((with_c, depth + 1, E | 1 << c, size_E + 1))
        st.say(label)
    value = limit()
    return 1 << 62 if value is None else value


def _exclusion_search(st: SearchState, size: int, V: int, candidates: list[int], exact: bool,
                      record: bool) -> int | None:
    """Step 7's :func:`exclusion_search` for V fixed: the cheap greens at every node, the exact greens
    (slower, larger) at the leaves when ``exact``. With ``record``, leaves are real choices and update
    the best leaf."""
    fam, k = st.fam, st.k

    def on_leaf(E: int, value: int) -> None:
        if record:
            st.best, st.best_leaf = value, (E, V)

    return exclusion_search(st, size, candidates, lambda E: bound_at(fam, E, V, k, exact=False)[0],
                            (lambda E: bound_at(fam, E, V, k, exact=True)[0]) if exact else None, on_leaf,
                            f"|E| = {size}, counted beyond one: {letters_of(V) or '-'}")


@dataclass
class StepLetters:
    """The letters of step 7: free to exclude, E's candidates, and the doublable ones split into the
    ``important`` (T is drawn from them) and the others (O)."""

    free_E: int  # mask of the letters no member holds: in E for free
    n_free: int
    letters: list[int]  # held by some member
    top: list[int]  # the important doublable letters, most shared first
    others: list[int]  # the rest of the doublable letters

    @property
    def doublable(self) -> int:
        return len(self.top) + len(self.others)


@dataclass
class Relaxed:
    """The least value of a relaxed search (|T| < j) so far, and whether the last size was finished."""

    value: int = 1 << 62
    complete: bool = True


def step_letters(fam: Families, important: int) -> StepLetters:
    """Which letters are free, which may be excluded, which doubled (most shared first)."""
    held = np.zeros(ALPHABET, np.int64)
    np.add.at(held, fam.letter, 1)
    shared = np.zeros(ALPHABET, np.int64)
    np.add.at(shared, fam.letter[fam.in_base == 1], 1)
    free_E = mask_of(c for c in range(ALPHABET) if held[c] == 0)
    letters = [c for c in range(ALPHABET) if held[c] > 0]
    doublable = sorted((c for c in letters if shared[c] > 0), key=lambda c: (-shared[c], c))
    return StepLetters(free_E, bin(free_E).count("1"), letters, doublable[:important], doublable[important:])


def excluded_size(fam: Families, k: int, j: int, sl: StepLetters) -> int | None:
    """The letters E needs beyond the free ones when |D| = j (None: no such choice)."""
    size = max(0, _min_excluded(fam.length, k, j) - sl.n_free)
    return None if j > sl.doublable or size > len(sl.letters) - j else size


def doubles_floor(st: SearchState, fam: Families, k: int, j: int, sl: StepLetters) -> int | None:
    """The pure exclusion bound for every D of size >= j (None when out of time)."""
    size = excluded_size(fam, k, j, sl)
    if size is None:
        return 1 << 62
    saved = st.best, st.best_leaf
    value = _exclusion_search(st, size, mask_of(range(ALPHABET)), sl.letters, exact=False, record=False)
    st.best, st.best_leaf = saved
    return value


def search_doubles(st: SearchState, j: int, size: int, sl: StepLetters, relaxed: Relaxed) -> None:
    """Every D of size j, split by T: exact for D = T, one relaxed search for every D inside T | O;
    the relaxed values lower ``relaxed``; ``relaxed.complete`` False when out of time."""
    for t in range(min(j, len(sl.top)), -1, -1):
        if j - t > len(sl.others):
            continue
        for T in itertools.combinations(sl.top, t):
            exact_leaf = t == j
            V = mask_of(T) | (0 if exact_leaf else mask_of(sl.others))
            candidates = [c for c in sl.letters if c not in T]
            value = _exclusion_search(st, size, V, candidates, exact=True, record=exact_leaf)
            if value is None:
                relaxed.complete = False
                return
            if not exact_leaf:  # not a real choice (so not the best leaf), but a bound on the D it covers
                relaxed.value = min(relaxed.value, value)


def search(fam: Families, k: int, deadline: float, progress: bool = False, important: int = 6,
           interrupted: list | None = None):
    """Step 7: the least lower bound on N over every letter choice (E, D), anytime.

    D is split by its size j and its part T among the ``important`` letters whose count matters
    most (the others form O). For D = T the inner search is exact; for |T| < j every D with that T
    has D inside ``T | O``, and counting all of ``T | O`` beyond one only lowers N, so one search
    bounds them all. Every D of size j needs ``_min_excluded(j)`` letters in E (more only raises N),
    so once the pure exclusion bound for that size (every letter counted beyond one) reaches the best
    leaf, no larger D is searched. Letters no member holds are in E for free.
    Returns (lower bound on N, complete, best leaf (E, V) or None, nodes).
    """
    sl = step_letters(fam, important)
    st = SearchState(fam, k, deadline, progress)
    if interrupted is not None:
        st.interrupted = interrupted

    def result(lower: int, complete: bool):
        leaf = None if st.best_leaf is None else (st.best_leaf[0] | sl.free_E, st.best_leaf[1])
        return lower, complete, leaf, st.nodes

    if excluded_size(fam, k, 0, sl) is None:
        return result(1 << 62, True)  # no feasible choice at all (cannot happen with k >= 1)
    later = doubles_floor(st, fam, k, 1, sl)  # bounds every D not empty, until searched
    if later is None:
        return result(0, False)
    # the plain leaf first, D empty: its value prunes everything after it
    if _exclusion_search(st, excluded_size(fam, k, 0, sl), 0, sl.letters, exact=True, record=True) is None:
        return result(min(st.open_min, later), False)
    relaxed = Relaxed()  # it bounds real choices too
    for j in range(1, sl.doublable + 1):
        if later >= min(st.best, relaxed.value):
            return result(min(st.best, relaxed.value), True)
        here, later = later, doubles_floor(st, fam, k, j + 1, sl)  # here bounds every D of size j or more
        if later is None:
            return result(min(st.best, relaxed.value, here), False)
        search_doubles(st, j, excluded_size(fam, k, j, sl), sl, relaxed)
        if not relaxed.complete:
            return result(min(st.best, relaxed.value, here), False)  # the D of size j not yet done
    return result(min(st.best, relaxed.value), True)


def check_bound_arguments(pool: WordList, k: int, time_limit: float) -> None:
    """The arguments every Lingo bound takes: at least one guess, no more than the pool, a positive time."""
    if k < 1:
        raise ExactError(f"k = {k}: give at least one guess")
    if k > len(pool):
        raise ExactError(f"k = {k} is larger than the pool ({len(pool)} words)")
    if time_limit <= 0:
        raise ExactError(f"time limit {time_limit:g}: must be positive")


def upper_bound(pool: WordList, F: np.ndarray | None, k: int, *, time_limit: float = 60.0,
                progress: bool = False) -> LingoBound:
    """A valid upper bound on the wins of every k-subset of the pool (see the module docstring).

    ``F`` is not needed (the argument works on letters); it is accepted so that callers holding the
    feedback matrix can pass it. The search is one process.
    Progress goes to stderr every 5 seconds when ``progress``; Ctrl-C or SIGTERM stops the search and
    returns the anytime bound, with ``details["interrupted"]`` True.
    """
    check_bound_arguments(pool, k, time_limit)
    t0 = time.monotonic()
    fam = families(pool.words)
    n = len(pool)
    if len(fam.position) == 0:
        return LingoBound(n, "trivial: no two words one letter apart", n, k, True,
                          round(time.monotonic() - t0, 3))
    interrupted = [False]
    with stop.flagged(lambda: interrupted.__setitem__(0, True)):  # Ctrl-C, SIGTERM: the anytime bound
        lower, complete, leaf, nodes = search(fam, k, t0 + time_limit, progress, interrupted=interrupted)
    lower = max(0, min(int(lower), n))
    details = {"families": int(len(fam.position)), "family_members": int(len(fam.word)), "nodes": nodes,
               "certified_losses": int(lower)}
    if leaf is not None:
        E, D = leaf
        value, home, greens = bound_at(fam, E, D, k)
        details["minimising_leaf"] = {
            "excluded": letters_of(E), "doubled_or_undecided": letters_of(D), "bad_words": value,
            "greens": {str(p): letters_of(int(greens[p])) for p in range(1, fam.length)},
        }
        if complete:
            first = [w[0] for w in pool.words]
            bad = [first[w] for w in range(n) if home[w] >= 0]
            details["minimising_leaf"]["bad_words_by_first_letter_before_greens"] = dict(
                sorted(collections.Counter(bad).items()))
    details["interrupted"] = interrupted[0]
    method = ("letter-choice relaxation over one-letter-apart families, branch and bound "
              + ("(complete)" if complete else "(stopped early: minimum over open nodes)"))
    return LingoBound(n - int(lower), method, n, k, complete, round(time.monotonic() - t0, 3), details)
