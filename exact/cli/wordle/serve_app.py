"""The web app of ``exact wordle serve`` (the command is :mod:`exact.cli.wordle.serve`).

The web framework is Starlette (routes, JSON, a test client) served by uvicorn; the advice itself is
:mod:`exact.wordle.study.serve` (proven trees, the store of solved positions, live proofs in worker
processes). Routes:

- ``GET /``: the page (``serve.html`` beside this module; the title and the lists are escaped into it);
- ``POST /api/advice`` ``{"tab": ID, "history": [[word, colours], ...]}``: the advice as JSON (the page asks
  again every second while a proof runs);
- ``POST /api/rate`` ``{"tab": ID, "history": [[word, colours], ...]}``: a game that ended (solved or given up)
  rated guess by guess on the server's setup (``exact wordle analyse``'s values; what it solves live runs in
  the tab's worker, and the page asks again every second while the reply says ``working``);
- ``POST /api/close`` ``{"tab": ID}``: the tab is closed (its proof is cancelled).

Bad input is an HTTP 400 with one line of JSON, ``{"error": "..."}``; never a traceback.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import socket
import threading
import webbrowser
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from exact.errors import ExactError
from exact.feedback import format_pattern
from exact.wordle.study.live import Solver
from exact.wordle.study.serve import InstantAdvice, Setup, read_moves, shipped_opener_book, shipped_trees
from exact.wordle.study.store import Store
from exact.progress import say

PAGE = Path(__file__).with_name("serve.html")
TAB = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: seconds between two sweeps for the proofs of tabs that stopped asking
REAP_EVERY = 2.0
#: the largest request body read (a whole game's history is under 1 kB)
MAX_BODY = 16_384


def bad_request(message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=400)


async def read_body(request: Request) -> dict:
    """The request's JSON object (a beacon sends it as text/plain), or an ExactError."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ExactError(f"request body over {MAX_BODY} bytes")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ExactError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise ExactError("the request body must be a JSON object")
    tab = data.get("tab")
    if not isinstance(tab, str) or not TAB.fullmatch(tab):
        raise ExactError("tab: give the page's id (letters, digits, - and _, at most 64)")
    return data


def page_html(setup: Setup) -> str:
    """The page, with the game's title and lists escaped into it."""
    text = PAGE.read_text(encoding="utf-8")
    config = json.dumps({"objective": setup.objective, "limit": setup.limit, "hard": setup.hard,
                         "length": setup.answers.length}).replace("<", "\\u003c")
    return (text.replace("{{title}}", html.escape(setup.title)).replace("{{lists}}", html.escape(setup.lists))
            .replace("{{config}}", config))


def make_app(solver: Solver) -> Starlette:
    """The web app over a solver (its routes in the module docstring)."""
    page = page_html(solver.setup)

    async def index(request: Request) -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def advice(request: Request) -> JSONResponse:
        try:
            data = await read_body(request)
            history = read_moves(solver.setup, data.get("history", []))
            reply = await run_in_threadpool(solver.ask, data["tab"], history)
        except ExactError as e:
            return bad_request(str(e))
        board = [[guess, format_pattern(pattern, len(guess))] for guess, pattern in history]
        return JSONResponse({**reply.to_json(), "board": board})

    async def rate(request: Request) -> JSONResponse:
        try:
            data = await read_body(request)
            history = read_moves(solver.setup, data.get("history", []))
            if not history:
                raise ExactError("history: play a guess before asking for the rating")
            rating = await run_in_threadpool(solver.rate, data["tab"], history)
        except ExactError as e:
            return bad_request(str(e))
        return JSONResponse(rating.to_json())

    async def close(request: Request) -> JSONResponse:
        try:
            data = await read_body(request)
        except ExactError as e:
            return bad_request(str(e))
        await run_in_threadpool(solver.close, data["tab"])
        return JSONResponse({"closed": data["tab"]})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        done = threading.Event()
        sweeper = threading.Thread(target=_sweep, args=(solver, done), daemon=True)
        sweeper.start()
        try:
            yield
        finally:
            done.set()
            solver.shutdown()

    app = Starlette(routes=[Route("/", index), Route("/api/advice", advice, methods=["POST"]),
                            Route("/api/rate", rate, methods=["POST"]),
                            Route("/api/close", close, methods=["POST"])], lifespan=lifespan)
    app.state.solver = solver
    return app


def _sweep(solver: Solver, done: threading.Event) -> None:
    while not done.wait(REAP_EVERY):
        solver.reap()


def run(setup: Setup, store: Store, host: str, port: int, browser: bool) -> None:
    """Serve the app until Ctrl-C (or SIGTERM): the solver over the setup's shipped trees and the store."""
    listening = listen(host, port)
    solver = Solver(setup, InstantAdvice(shipped_trees(setup), setup, shipped_opener_book(setup)), store)
    url = f"http://{host}:{listening.getsockname()[1]}/"
    say(f"{setup.title}; {setup.lists}; store {store.path} ({len(store)} positions)")
    say(f"serving {url} (Ctrl-C stops)")
    if browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.Server(uvicorn.Config(make_app(solver), log_level="warning")).run(sockets=[listening])


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port (port 0: a free one), or a one-line ExactError (the port is taken,
    the address is not this machine's)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except (OSError, OverflowError) as e:
        raise ExactError(f"cannot listen on {host}:{port}: {getattr(e, 'strerror', None) or e}",
                         params=("port", "host")) from None
    return sock
