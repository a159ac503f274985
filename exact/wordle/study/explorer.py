"""A strategy tree as one self-contained HTML page: the tree explorer of ``exact wordle export --html``.

The page needs no network and no server: the data is a JSON block inside the file and the code is
plain JavaScript and CSS. It opens as a player's page: the tree's next guess, whose colours the player
taps (or types, as ``exact wordle play`` reads them, or ``WORD COLOURS`` for another word played); it
then shows the next proven guess, the answers left (hidden until asked) and the expected guesses, and
says when the position is off the tree (another word played, or a class the tree does not play on). The
feedback rule is computed in the page (the same rule as :mod:`exact.feedback`) to list the answers left,
on the tree or off it. Below, the whole tree: each node as the game's tiles (the feedback that led there on the
guess before, then the next guess), with the number of answers that reach it and the probability of
winning within the depth from there; nodes expand and collapse; a search box finds an answer and
highlights its path; a list gives the answers the tree loses.

Data (:func:`explorer_data`), stated once: ``nodes[i]`` = ``{"g": guess, "n": answers reaching it,
"w": of which won within the depth, "s": its step (1 = first guess), "won": whether its guess is one
of them, "c": [[feedback digits, child id], ...], "lost": [[feedback digits, [answers]], ...], "f": the
answers the tree solves below it (at any step), "t": the sum of their steps}`` (children largest first;
when f = n, t / n is the expected number of guesses of the game, each answer reaching the node equally
likely); ``paths[answer]`` = ``{"won": bool, "solved": the guess that finds it or None,
"p": [[node id, feedback digits], ...]}``, the nodes the answer passes and the feedback it gets at each.
With answer weights (``exact wordle export --weights``, :mod:`exact.weights`) each node also has ``"W"``:
the weight reaching it, ``"ww"``: of which won within the depth, ``"wt"``: the weighted sum of the steps
of the answers it solves; ``weight`` is the total and ``weights`` their source, and the page's P(win) is
ww / W and its expected guesses wt / W (each answer as likely as its weight says).

>>> from exact.words import words_from_lines
>>> from exact.game.tree import Tree
>>> from exact.feedback import feedback
>>> A = words_from_lines(["caber", "cabin", "cable"])
>>> d = explorer_data(Tree("cabin", 3, {feedback("cabin", "cable"): Tree("cable", 2, {})}), A)
>>> d["wins"], d["nodes"][0]["c"], d["nodes"][1]["lost"], d["paths"]["caber"]["won"]
(2, [['22200', 1]], [['22201', ['caber']]], False)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from exact.errors import ExactError, InternalError
from exact.feedback import all_green, format_pattern
from exact.fileio import write_text
from exact.game.position import word_classes
from exact.game.tree import Tree, replay, tree_depth
from exact.weights import Weights, as_values
from exact.words import WordList


def explorer_data(tree: Tree, answers: WordList, depth: int | None = None, title: str = "",
                  guesses: WordList | None = None, weights: Weights | None = None) -> dict:
    """The page's data: every node reached by some answer, and every answer's path (see above), and
    ``guesses``, the words the page takes as played (the allowed guesses [default: the answers] and
    the tree's words).

    Nodes beyond ``depth`` are kept (a tree may play on after the guesses that count as a win); an
    answer is *won* when the tree guesses it within ``depth`` guesses, and listed as lost otherwise.
    ``weights``: the answers' weights (the weighted fields above; None: none).
    """
    data = counted_data(tree, answers, depth, title, guesses)
    if weights is not None:
        weigh(data, answers, weights)
    return data


def weigh(data: dict, answers: WordList, weights: Weights) -> None:
    """Add the weighted fields (see the module) to the page's data: each answer's weight added at every
    node its path passes, and at the node that solves it."""
    w = dict(zip(answers.words, as_values(weights, answers).tolist()))
    nodes = data["nodes"]
    for node in nodes:
        node.update(W=0, ww=0, wt=0)
    for a, path in data["paths"].items():
        for nid, _ in path["p"]:
            nodes[nid]["W"] += w[a]
            nodes[nid]["ww"] += w[a] if path["won"] else 0
            nodes[nid]["wt"] += w[a] * path["solved"] if path["solved"] is not None else 0
    data.update(weight=sum(w.values()), weights=weights.source, weighted_wins=nodes[0]["ww"])


def counted_data(tree: Tree, answers: WordList, depth: int | None, title: str, guesses: WordList | None) -> dict:
    """:func:`explorer_data` without weights."""
    depth = depth or tree_depth(tree)
    length = len(tree.guess)
    green = all_green(length)
    nodes: list[dict] = []
    paths: dict[str, dict] = {}

    def visit(node: Tree, reaching: tuple[str, ...], step: int, trail: list) -> int:
        nid = len(nodes)
        entry = {"g": node.guess, "n": len(reaching), "w": 0, "s": step, "won": False, "c": [], "lost": [],
                 "f": 0, "t": 0}
        nodes.append(entry)
        split = word_classes(node.guess, reaching)
        if green in split:
            entry["won"] = True
            entry["w"] += step <= depth
            entry["f"] += 1
            entry["t"] += step
            paths[node.guess] = {"won": step <= depth, "solved": step,
                                 "p": trail + [[nid, format_pattern(green, length)]]}
        for p, P in sorted(split.items(), key=lambda pc: (-len(pc[1]), pc[0])):
            if p == green:
                continue
            digits = format_pattern(p, length)
            child = node.children.get(p)
            if child is not None:
                cid = visit(child, P, step + 1, trail + [[nid, digits]])
                entry["c"].append([digits, cid])
                entry["w"] += nodes[cid]["w"]
                entry["f"] += nodes[cid]["f"]
                entry["t"] += nodes[cid]["t"]
            else:
                entry["lost"].append([digits, list(P)])
                for a in P:
                    paths[a] = {"won": False, "solved": None, "p": trail + [[nid, digits]]}
        return nid

    visit(tree, tuple(answers.words), 1, [])
    check = replay(tree, answers, depth=depth)
    if check.wins != nodes[0]["w"]:
        raise InternalError(f"the explorer counts {nodes[0]['w']} wins, the replay {check.wins}")
    lost = [a for a in answers.words if not paths[a]["won"]]
    allowed = sorted(set(guesses.words if guesses is not None else answers.words) | {n["g"] for n in nodes})
    return {"title": readable(title or f"first guess {tree.guess}"), "answers": readable(answers.source),
            "n": len(answers), "depth": depth, "wins": nodes[0]["w"], "nodes": nodes, "paths": paths, "lost": lost,
            "guesses": allowed}


def explorer_html(data: dict) -> str:
    """The page: the template below with the title and the data put in, each placeholder replaced once
    in one pass (text the user gave is never searched for a placeholder: ``--title __DATA__`` is a
    title). In the data ``<``, ``>`` and ``&`` are written ``\\u003c`` ... (JSON's own escapes), so no
    text in it (``</script>``, ``<!--``) can end or bend the script element that holds it."""
    blob = json.dumps(data, separators=(",", ":"))
    for ch in "<>&":
        blob = blob.replace(ch, f"\\u{ord(ch):04x}")
    values = {"__TITLE__": _escape(data["title"]), "__DATA__": blob}
    return re.sub("__TITLE__|__DATA__", lambda m: values[m[0]], TEMPLATE)


def write_explorer(tree: Tree, answers: WordList, path: str | Path, depth: int | None = None,
                   title: str = "", guesses: WordList | None = None, weights: Weights | None = None) -> dict:
    """Write the explorer page atomically; returns its data."""
    data = explorer_data(tree, answers, depth, title, guesses, weights)
    write_text(path, explorer_html(data))
    return data


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def readable(text: str) -> str:
    """``text`` as UTF-8 can carry it: the bytes of a non-UTF-8 file name or argument (which Python
    holds as lone surrogates) become U+FFFD, so the page can be written and shown."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def screenshot(html: str | Path, png: str | Path, find: str | None = None, expand: int = 1,
               size: tuple[int, int] = (1100, 900)) -> None:
    """Open the page in headless Chromium (selenium with /usr/bin/chromium and chromedriver), expand
    the root, find ``find`` if given, and save a PNG of the window."""
    driver = chromium(size)
    try:
        driver.get(Path(html).resolve().as_uri())
        driver.execute_script("document.getElementById('browse').open = true")
        if find:
            box = driver.find_element("id", "find")
            box.send_keys(find)
            driver.find_element("id", "find-button").click()
        else:
            for _ in range(expand):
                driver.find_element("css selector", ".node[data-id='0'] > .row .toggle").click()
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(png))
    finally:
        driver.quit()


CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMEDRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")


def browser_paths() -> tuple[str, str] | None:
    """(browser, driver) installed on this machine, or None."""
    browser = next((p for p in CHROMIUM if Path(p).is_file()), None)
    driver = next((p for p in CHROMEDRIVER if Path(p).is_file()), None)
    return (browser, driver) if browser and driver else None


def chromium(size: tuple[int, int] = (1100, 900)):
    """A headless Chromium driven by selenium (no browser download: the system's browser and driver)."""
    found = browser_paths()
    if found is None:
        raise ExactError(f"no Chromium with a driver here (looked for {', '.join(CHROMIUM)} and "
                         f"{', '.join(CHROMEDRIVER)})")
    try:
        from selenium import webdriver  # lazy: optional dependency (pip install -e '.[test]')
        from selenium.webdriver.chrome.service import Service  # lazy: optional dependency (pip install -e '.[test]')
    except ImportError:
        raise ExactError("the browser test needs selenium (pip install selenium)") from None
    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={size[0]},{size[1]}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(found[1]), options=options)


TEMPLATE = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>exact: Wordle, played along: __TITLE__</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.2em 2em; color: #1a1a1b; }
  h1 { font-size: 1.3em; margin: 0 0 .3em; }
  #summary { margin: 0 0 .8em; color: #444; }
  form { margin: .5em 0; }
  #find { font: inherit; padding: .25em .5em; width: 10em; text-transform: lowercase; }
  button { font: inherit; cursor: pointer; }
  #find-result { min-height: 1.4em; margin: .3em 0 .8em; }
  .node { margin-left: 1.6em; }
  .node[data-id="0"] { margin-left: 0; }
  .row { display: flex; align-items: center; gap: .45em; padding: 2px 4px; border-radius: 4px; }
  .row.hl { background: #fff3b0; outline: 2px solid #e0b000; }
  .toggle { width: 1.7em; height: 1.7em; border: 1px solid #bbb; background: #fafafa; border-radius: 3px; padding: 0; }
  .toggle.leaf { visibility: hidden; }
  .tiles { display: inline-flex; gap: 2px; }
  .tile { width: 1.55em; height: 1.55em; display: inline-flex; align-items: center; justify-content: center;
          font-weight: bold; text-transform: uppercase; color: white; font-size: .9em; }
  .t0 { background: #787c7e; } .t1 { background: #c9b458; } .t2 { background: #6aaa64; }
  .next .tile { background: white; color: #1a1a1b; border: 2px solid #878a8c; width: 1.35em; height: 1.35em; }
  .arrow { color: #888; }
  .info { color: #333; font-size: .9em; }
  .p { font-weight: 600; }
  .lost-row .info, .lost-row .words { color: #a33; }
  .won-row .info { color: #2e7d32; }
  .words { font-size: .85em; max-width: 40em; }
  #lost a, .words a { color: inherit; margin-right: .4em; cursor: pointer; text-decoration: underline dotted; }
  #lost { font-size: .9em; line-height: 1.6; max-width: 56em; }
  .row { flex-wrap: wrap; }
  h2 { font-size: 1.05em; margin-top: 1.5em; }
  #play { border: 1px solid #ddd; border-radius: 8px; padding: .6em 1em 1em; max-width: 40em; margin-bottom: 1.5em; }
  #play h2 { margin-top: .2em; }
  #board .row, #current { margin: 3px 0; }
  #current .tile { cursor: pointer; border: none; width: 2.1em; height: 2.1em; font-size: 1.1em; }
  #current .tile[data-c="0"] { background: #787c7e; } #current .tile[data-c="1"] { background: #c9b458; }
  #current .tile[data-c="2"] { background: #6aaa64; }
  #board .tile { width: 2.1em; height: 2.1em; font-size: 1.1em; }
  #status { font-weight: 600; min-height: 1.3em; }
  #status[data-state="off"], #status[data-state="refused"] { color: #a33; }
  #status[data-state="solved"] { color: #2e7d32; }
  #fb { font: inherit; padding: .25em .5em; width: 12em; }
  #answers-left { font-size: .9em; max-width: 40em; line-height: 1.5; }
  details { margin-top: 1em; }
  #fb::placeholder, #find::placeholder { color: #555; opacity: 1; }
  @media (max-width: 560px) {
    body { margin: .6em; }
    .node { margin-left: .8em; }
    #play { padding: .4em .5em .6em; }
    #fb { width: 100%; margin-bottom: .3em; }
  }
</style>
</head>
<body>
<h1>Wordle, played along: <span id="title"></span></h1>
<p id="summary"></p>
<section id="play">
  <h2>Play along</h2>
  <div id="board"></div>
  <div id="current-line">Guess <span id="step"></span>: <span id="current" class="tiles"></span>
    <span class="info">tap a letter to change its colour, then Enter</span></div>
  <form id="fb-form" autocomplete="off">
    <input id="fb" autofocus placeholder="or type: 01020, bybgb, or WORD 01020" aria-label="feedback">
    <button id="fb-enter" type="submit">Enter</button>
    <button id="undo" type="button">Undo</button>
    <button id="restart" type="button">New game</button>
  </form>
  <p id="status"></p>
  <p id="stats" class="info"></p>
  <button id="show-answers" type="button">Show the answers left</button>
  <div id="answers-left" hidden></div>
</section>
<details id="browse"><summary>Browse the whole tree</summary>
<form id="find-form" autocomplete="off">
  <label for="find">Find an answer:</label>
  <input id="find" list="answer-list" placeholder="e.g. crane">
  <button id="find-button" type="submit">Find</button>
  <button id="collapse-all" type="button">Collapse all</button>
  <datalist id="answer-list"></datalist>
</form>
<p id="find-result"></p>
<main id="tree"></main>
</details>
<details id="lost-box"><summary>Answers not won within the depth: <span id="lost-count"></span></summary>
<div id="lost"></div>
</details>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const NODES = DATA.nodes;
const pct = (w, n) => (n ? (100 * w / n).toFixed(2) : "0.00") + "%";
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

function tiles(word, digits) {
  const box = el("span", digits ? "tiles fb" : "tiles next");
  for (let i = 0; i < word.length; i++) box.appendChild(el("span", "tile" + (digits ? " t" + digits[i] : ""), word[i]));
  box.title = digits ? word + " " + digits : word;
  return box;
}

function odds(node) {  // P(win) at a node: weight won / weight with weights, else wins / answers
  return DATA.weights ? node.ww + "/" + node.W + " of the weight = " + pct(node.ww, node.W)
                      : node.w + "/" + node.n + " = " + pct(node.w, node.n);
}

function info(node) {
  const s = el("span", "info");
  const left = DATA.depth - node.s + 1;
  s.append(node.n + (node.n === 1 ? " answer" : " answers"));
  if (DATA.wins < DATA.n) {  // every answer won within the depth: P(win) = 1 on every row says nothing
    s.append(" \u00b7 P(win within " + DATA.depth + ") = ");
    s.appendChild(el("span", "p", odds(node)));
  }
  s.append(" \u00b7 guess " + node.s + (left > 0 ? " (" + left + " left)" : " (beyond the depth)"));
  return s;
}

function wordLinks(words) {
  const box = el("span", "words");
  for (const w of words) { const a = el("a", null, w); a.onclick = () => find(w); box.appendChild(a); box.append(" "); }
  return box;
}

// A node: its row (feedback on the guess before, then its own guess) and its children, built on first expand.
function nodeElement(id, parentGuess, digits) {
  const node = NODES[id];
  const div = el("div", "node");
  div.dataset.id = id;
  const row = el("div", "row");
  row.dataset.guess = node.g;
  const hasKids = node.c.length + node.lost.length + (node.won ? 1 : 0) > 0;
  const toggle = el("button", "toggle" + (hasKids ? "" : " leaf"), "\u25b8");
  toggle.type = "button";
  toggle.setAttribute("aria-expanded", "false");
  toggle.onclick = () => setOpen(div, div.dataset.open !== "1");
  row.appendChild(toggle);
  if (parentGuess) { row.appendChild(tiles(parentGuess, digits)); row.appendChild(el("span", "arrow", "\u2192")); }
  row.appendChild(tiles(node.g, null));
  row.appendChild(info(node));
  div.appendChild(row);
  return div;
}

function buildKids(div) {
  const id = +div.dataset.id, node = NODES[id];
  const kids = el("div", "kids");
  if (node.won) {
    const r = el("div", "node won-row"); const row = el("div", "row"); row.dataset.won = node.g;
    row.appendChild(el("button", "toggle leaf", "")); row.appendChild(tiles(node.g, "2".repeat(node.g.length)));
    row.appendChild(el("span", "info", "solved: " + node.g + " with guess " + node.s)); r.appendChild(row); kids.appendChild(r);
  }
  for (const [digits, cid] of node.c) kids.appendChild(nodeElement(cid, node.g, digits));
  for (const [digits, words] of node.lost) {
    const r = el("div", "node lost-row"); const row = el("div", "row"); row.dataset.lost = digits;
    row.appendChild(el("button", "toggle leaf", "")); row.appendChild(tiles(node.g, digits));
    row.appendChild(el("span", "info", "lost (" + words.length + "):")); row.appendChild(wordLinks(words));
    r.appendChild(row); kids.appendChild(r);
  }
  div.appendChild(kids);
  return kids;
}

function setOpen(div, open) {
  let kids = div.querySelector(":scope > .kids");
  if (open && !kids) kids = buildKids(div);
  if (kids) kids.hidden = !open;
  div.dataset.open = open ? "1" : "0";
  const t = div.querySelector(":scope > .row > .toggle");
  t.textContent = open ? "\u25be" : "\u25b8";
  t.setAttribute("aria-expanded", open ? "true" : "false");
}

function clearHighlight() { document.querySelectorAll(".row.hl").forEach(r => r.classList.remove("hl")); }

function find(word) {
  word = (word || "").trim().toLowerCase();
  document.getElementById("find").value = word;
  const out = document.getElementById("find-result");
  document.getElementById("browse").open = true;
  clearHighlight();
  const path = DATA.paths[word];
  if (!path) { out.textContent = "\u201c" + word + "\u201d is not one of the " + DATA.n + " answers of " + DATA.answers + "."; out.dataset.found = "0"; return; }
  let div = document.querySelector(".node[data-id='0']");
  const steps = [];
  for (let i = 0; i < path.p.length; i++) {
    const [nid, digits] = path.p[i];
    div = div.dataset.id == nid ? div : div.querySelector(":scope > .kids > .node[data-id='" + nid + "']");
    div.querySelector(":scope > .row").classList.add("hl");
    steps.push(NODES[nid].g);
    setOpen(div, true);
    const next = path.p[i + 1];
    if (!next) {
      const sel = path.solved ? "[data-won='" + word + "']" : "[data-lost='" + digits + "']";
      const last = div.querySelector(":scope > .kids > .node > .row" + sel);
      last.classList.add("hl");
      last.scrollIntoView({block: "center"});
    }
  }
  out.dataset.found = "1";
  out.dataset.path = steps.join(" ");
  out.textContent = word + ": " + steps.join(" \u2192 ") + (path.won ? " \u2014 won with guess " + steps.length
    : path.solved ? " \u2014 lost: found with guess " + steps.length + ", beyond the " + DATA.depth + " that count"
    : " \u2014 lost: the tree has no guess for it after " + DATA.depth + " guesses");
}

document.getElementById("title").textContent = DATA.title;
document.getElementById("summary").textContent = "Answers: " + DATA.answers + " (" + DATA.n + "); depth " + DATA.depth +
  "; wins " + DATA.wins + "/" + DATA.n + " = " + pct(DATA.wins, DATA.n) + (DATA.weights ? "; weighted by " + DATA.weights + ": " + odds(DATA.nodes[0]) : "") + ". Play along below: tap the colours of each guess; or browse the whole tree (each row: the feedback on the guess before, then the next guess).";
const tree = document.getElementById("tree");
tree.appendChild(nodeElement(0, null, null));
document.getElementById("find-form").onsubmit = (e) => { e.preventDefault(); find(document.getElementById("find").value); };
document.getElementById("collapse-all").onclick = () => { clearHighlight(); document.querySelectorAll(".node[data-open='1']").forEach(d => setOpen(d, false)); };
const list = document.getElementById("answer-list");
for (const w of Object.keys(DATA.paths).sort()) { const o = document.createElement("option"); o.value = w; list.appendChild(o); }
document.getElementById("lost-count").textContent = DATA.lost.length + " of " + DATA.n;
document.getElementById("lost").appendChild(wordLinks(DATA.lost));
document.getElementById("browse").open = false;

// --- play along -----------------------------------------------------------------------------------
// The feedback rule: greens first; then, left to right, a non-green guess letter is yellow if the answer
// still has an unused non-green copy of that letter, else gray. Digits 0 gray, 1 yellow, 2 green.
function feedback(guess, answer) {
  const fb = Array(guess.length).fill(0), left = {};
  for (let i = 0; i < guess.length; i++) {
    if (guess[i] === answer[i]) fb[i] = 2; else left[answer[i]] = (left[answer[i]] || 0) + 1;
  }
  for (let i = 0; i < guess.length; i++) if (fb[i] !== 2 && left[guess[i]] > 0) { fb[i] = 1; left[guess[i]]--; }
  return fb.join("");
}
const SYMBOL = {"0": "0", "b": "0", "x": "0", ".": "0", "-": "0", "\u2b1b": "0", "\u2b1c": "0",
                "1": "1", "y": "1", "\ud83d\udfe8": "1", "\ud83d\udfe6": "1",
                "2": "2", "g": "2", "\ud83d\udfe9": "2", "\ud83d\udfe7": "2"};
function parseColours(text, length) {
  const out = Array.from(text.trim().toLowerCase().replace(/\ufe0f/g, "")).map(ch => SYMBOL[ch]);  // "\u2b1b\ufe0f" as phones paste it
  return out.length === length && out.every(d => d !== undefined) ? out.join("") : null;
}
const ANSWERS = Object.keys(DATA.paths).sort();
const ALLOWED = new Set(DATA.guesses.concat(ANSWERS));
const LENGTH = NODES[0].g.length;
const GREEN = "2".repeat(LENGTH);
const PLAY = {hist: [], at: [0], off: []};  // hist: [[guess, digits]]; at[k]: the node before guess k+1 (null off the tree)

function candidates() { return ANSWERS.filter(a => PLAY.hist.every(([g, d]) => feedback(g, a) === d)); }
function here() { return PLAY.at[PLAY.at.length - 1]; }
function solved() { const h = PLAY.hist; return h.length > 0 && h[h.length - 1][1] === GREEN; }

function say(state, text) { const s = document.getElementById("status"); s.dataset.state = state; s.textContent = text; }

function render(note) {
  const board = document.getElementById("board");
  board.replaceChildren(...PLAY.hist.map(([g, d]) => { const r = el("div", "row"); r.dataset.guess = g; r.dataset.fb = d; r.appendChild(tiles(g, d)); return r; }));
  const left = candidates(), id = here(), node = id === null ? null : NODES[id];
  const current = document.getElementById("current");
  current.replaceChildren();
  const line = document.getElementById("current-line");
  line.hidden = solved() || node === null;
  document.getElementById("step").textContent = PLAY.hist.length + 1;
  if (node) {
    current.dataset.guess = node.g;
    for (let i = 0; i < node.g.length; i++) {
      const t = el("button", "tile", node.g[i]); t.type = "button"; t.dataset.c = "0";
      t.onclick = () => { t.dataset.c = String((+t.dataset.c + 1) % 3); };
      current.appendChild(t);
    }
  } else delete current.dataset.guess;
  const stats = document.getElementById("stats");
  stats.dataset.left = left.length;
  if (solved()) {
    const k = PLAY.hist.length;
    say("solved", "Solved in " + k + (k === 1 ? " guess" : " guesses") + (k <= DATA.depth ? " (a win)." : "."));
    stats.textContent = "";
  } else if (node) {
    say(note ? "refused" : "on", note || "The proven next guess: " + node.g.toUpperCase() + ".");
    // t / n counts the game's guesses from the first; from here: minus the node.s - 1 guesses played (weighted alike)
    const expected = node.f === node.n ? ((DATA.weights ? node.wt / node.W : node.t / node.n) - (node.s - 1)).toFixed(3) : null;
    stats.dataset.expected = expected === null ? "" : expected;
    stats.textContent = left.length + (left.length === 1 ? " answer" : " answers") + " left \u00b7 expected guesses from here " +
      (expected === null ? "\u2014 (the tree does not solve every answer left)" : expected + (DATA.weights ? " (this guess included, each answer left as likely as its weight)" : " (this guess included, each answer left equally likely)")) +
      (node.w < node.n ? " \u00b7 P(win within " + DATA.depth + ") = " + odds(node) : "");
  } else {
    say("off", note || "Off the tree: " + PLAY.off.join("; ") + ". The page has no proven guess here; " +
      "exact wordle serve plays on from any position with a live exact solve. Type WORD COLOURS for each further guess.");
    stats.dataset.expected = "";
    stats.textContent = left.length + (left.length === 1 ? " answer" : " answers") + " left";
  }
  line.hidden = solved() || node === null;
  const box = document.getElementById("answers-left");
  box.replaceChildren(wordLinks(left));
  const show = document.getElementById("show-answers");
  show.hidden = solved();
  if (box.dataset.shown !== "1") box.hidden = true;
}

function give(guess, digits) {
  const id = here(), node = id === null ? null : NODES[id];
  const trial = PLAY.hist.concat([[guess, digits]]);
  const left = ANSWERS.filter(a => trial.every(([g, d]) => feedback(g, a) === d));
  if (left.length === 0) { render("No answer of " + DATA.answers + " gives " + digits + " to " + guess + " here: check the colours."); return; }
  PLAY.hist.push([guess, digits]);
  let next = null;
  if (node && guess === node.g) {
    const child = node.c.find(([d]) => d === digits);
    if (child) next = child[1];
    else if (digits !== GREEN) PLAY.off.push("the tree stops after " + guess + " " + digits + " (these answers are not won within its depth)");
  } else if (node) PLAY.off.push("you played " + guess + ", the tree plays " + node.g);
  PLAY.at.push(next);
  document.getElementById("answers-left").dataset.shown = "0";
  render();
}

document.getElementById("fb-form").onsubmit = (e) => {
  e.preventDefault();
  const input = document.getElementById("fb"), text = input.value.trim(), id = here();
  if (solved()) return;
  let guess = id === null ? null : NODES[id].g, digits;
  const parts = text.split(/\s+/);
  if (parts.length === 2 && /^[a-z]+$/i.test(parts[0])) { guess = parts[0].toLowerCase(); digits = parseColours(parts[1], LENGTH); }
  else if (text) digits = parseColours(text, LENGTH);
  else digits = Array.from(document.querySelectorAll("#current .tile")).map(t => t.dataset.c).join("");
  if (!guess || guess.length !== LENGTH) { render("Type WORD COLOURS: the word you played (" + LENGTH + " letters), then its colours."); return; }
  if (!ALLOWED.has(guess)) { render("\u201c" + guess + "\u201d is not an allowed guess: the page takes the " + ALLOWED.size + " words it was written with."); return; }
  if (!digits) { render("Colours not understood: " + LENGTH + " symbols, 0/b gray, 1/y yellow, 2/g green (or the emoji squares)."); return; }
  input.value = "";
  give(guess, digits);
  input.focus();
};
document.getElementById("undo").onclick = () => { if (PLAY.hist.length) { PLAY.hist.pop(); PLAY.at.pop(); rebuildOff(); render(); } document.getElementById("fb").focus(); };
document.getElementById("restart").onclick = () => { PLAY.hist = []; PLAY.at = [0]; PLAY.off = []; render(); document.getElementById("fb").focus(); };
document.getElementById("show-answers").onclick = () => {
  const box = document.getElementById("answers-left"); box.hidden = !box.hidden; box.dataset.shown = box.hidden ? "0" : "1";
};
function rebuildOff() {  // the reasons for leaving the tree, replayed after an undo
  PLAY.off = [];
  for (let k = 0; k < PLAY.hist.length; k++) {
    const id = PLAY.at[k], [g, d] = PLAY.hist[k];
    if (id === null || PLAY.at[k + 1] !== null) continue;
    PLAY.off.push(g === NODES[id].g ? "the tree stops after " + g + " " + d + " (these answers are not won within its depth)"
                                    : "you played " + g + ", the tree plays " + NODES[id].g);
  }
}
render();
</script>
</body>
</html>
"""


if __name__ == "__main__":  # python -m exact.wordle.study.explorer PAGE.html SHOT.png [ANSWER]
    import sys

    screenshot(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
