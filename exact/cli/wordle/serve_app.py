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

Every error is one line of JSON, ``{"error": "..."}``, never a traceback: bad input 400, a body over
:data:`MAX_BODY` bytes 413 (refused while it is read), a request from another site 403 or 415
(:class:`Guard`: the Host, the Content-Type, the Origin and the page's token), too many pages at once 503,
an unknown path 404, a wrong method 405. At most ``workers`` proofs run at once (:class:`Solver`); the
others wait for a core (the reply says ``waiting``).
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import secrets
import socket
import threading
import webbrowser
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from exact.errors import ExactError
from exact.feedback import format_pattern
from exact.fileio import is_decimal
from exact.wordle.study.live import Busy, Solver
from exact.wordle.study.serve import InstantAdvice, Setup, read_moves, shipped_opener_book, shipped_trees
from exact.wordle.study.store import Store
from exact.progress import say

PAGE = Path(__file__).with_name("serve.html")
TAB = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: seconds between two sweeps for the proofs of tabs that stopped asking
REAP_EVERY = 2.0
#: the largest request body read (a whole game's history is under 1 kB): refused while it is read
MAX_BODY = 16_384
#: the names of this machine a page's address may use, besides the --host given
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
#: the header carrying the page's token (:func:`make_app`)
TOKEN_HEADER = "x-exact-token"


class Refused(Exception):
    """A request refused with an HTTP status and one line (the JSON error)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status, headers=headers)


def bad_request(message: str) -> JSONResponse:
    return error(400, message)


async def read_json(request: Request) -> object:
    """The request's body parsed as JSON, read at most :data:`MAX_BODY` bytes: a larger Content-Length is
    refused before a byte is read, a longer body as soon as it passes the cap (never held whole)."""
    length = request.headers.get("content-length", "")
    if length and (not is_decimal(length) or int(length) > MAX_BODY):
        raise Refused(413, f"request body over {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"request body over {MAX_BODY} bytes")
    try:
        return json.loads(bytes(body) or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: [[[[... nested too deep
        raise ExactError("the request body is not JSON") from None


async def read_body(request: Request) -> dict:
    """The request's JSON object with a tab id, or an ExactError (:class:`Refused` beyond the size cap)."""
    data = await read_json(request)
    if not isinstance(data, dict):
        raise ExactError("the request body must be a JSON object")
    tab = data.get("tab")
    if not isinstance(tab, str) or not TAB.fullmatch(tab):
        raise ExactError("tab: give the page's id (letters, digits, - and _, at most 64)")
    return data


def page_html(setup: Setup, token: str = "") -> str:
    """The page, with the game's title and lists escaped into it, and the token its requests carry."""
    text = PAGE.read_text(encoding="utf-8")
    config = json.dumps({"objective": setup.objective, "limit": setup.limit, "hard": setup.hard,
                         "length": setup.answers.length, "token": token}).replace("<", "\\u003c")
    return (text.replace("{{title}}", html.escape(setup.title)).replace("{{lists}}", html.escape(setup.lists))
            .replace("{{config}}", config))


def served_hosts(host: str, port: int) -> frozenset[str]:
    """The Host headers the server answers: this machine's loopback names and the address given, with the
    port (without it too on port 80, which a browser leaves out); an IPv6 address in brackets."""
    names = {*LOOPBACK, f"[{host}]" if ":" in host and not host.startswith("[") else host}
    with_port = {f"{name}:{port}" for name in names}
    return frozenset({name.lower() for name in with_port | (names if port == 80 else set())})


class Guard:
    """The ASGI middleware that refuses requests from other sites (one line of JSON each, nothing started):

    - a Host header that is not one of ``hosts`` (:func:`served_hosts`): 403; a page of another site that
      rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name as the Host, so it can read nothing;
    - a POST without ``Content-Type: application/json``: 415 (a form or a text/plain body, the kinds another
      site may send without asking the browser first);
    - a POST with an Origin header that is not one of ``hosts`` over http: 403;
    - a POST without the page's ``token`` in the :data:`TOKEN_HEADER` header: 403. The token is put into the
      page when it is served; another site cannot read the page (no CORS headers are ever sent, and the
      Host check refuses rebinding), so it cannot send the token.
    """

    def __init__(self, app, hosts: frozenset[str], token: str):
        self.app, self.hosts, self.token = app, hosts, token

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and (why := self.refusal(Request(scope))) is not None:
            await error(why.status, str(why))(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, request: Request) -> Refused | None:
        headers = request.headers
        if headers.get("host", "").lower() not in self.hosts:
            return Refused(403, "this server answers only pages of its own address (the Host header is another)")
        if request.method != "POST":
            return None
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return Refused(415, "send the request as Content-Type: application/json")
        origin = headers.get("origin")
        if origin is not None and not (origin.lower().startswith("http://") and origin[7:].lower() in self.hosts):
            return Refused(403, "this server answers only its own page (the Origin is another site)")
        if not secrets.compare_digest(headers.get(TOKEN_HEADER, "").encode(), self.token.encode()):
            return Refused(403, "this server answers only its own page (the request lacks the page's token)")
        return None


def make_app(solver: Solver, host: str = "127.0.0.1", port: int = 8031, token: str | None = None) -> Starlette:
    """The web app over a solver (its routes in the module docstring), answering only pages of its own
    address ``host:port`` that carry ``token`` (:class:`Guard`; a fresh random one when None)."""
    token = secrets.token_urlsafe(32) if token is None else token
    page = page_html(solver.setup, token)

    async def index(request: Request) -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def advice(request: Request) -> JSONResponse:
        data = await read_body(request)
        history = read_moves(solver.setup, data.get("history", []))
        reply = await run_in_threadpool(solver.ask, data["tab"], history)
        board = [[guess, format_pattern(pattern, len(guess))] for guess, pattern in history]
        return JSONResponse({**reply.to_json(), "board": board})

    async def rate(request: Request) -> JSONResponse:
        data = await read_body(request)
        history = read_moves(solver.setup, data.get("history", []))
        if not history:
            raise ExactError("history: play a guess before asking for the rating")
        rating = await run_in_threadpool(solver.rate, data["tab"], history)
        return JSONResponse(rating.to_json())

    async def close(request: Request) -> JSONResponse:
        data = await read_body(request)
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
                            Route("/api/close", close, methods=["POST"])], lifespan=lifespan,
                    middleware=[Middleware(Guard, hosts=served_hosts(host, port), token=token)],
                    exception_handlers=ERRORS)
    app.state.solver, app.state.token = solver, token
    return app


async def _refused(request: Request, e: Refused) -> JSONResponse:
    return error(e.status, str(e), headers={"Connection": "close"} if e.status == 413 else None)


async def _bad_input(request: Request, e: ExactError) -> JSONResponse:
    return error(503 if isinstance(e, Busy) else 400, str(e))


async def _http_error(request: Request, e: HTTPException) -> JSONResponse:
    return error(e.status_code, e.detail, headers=getattr(e, "headers", None))


async def _internal(request: Request, e: Exception) -> JSONResponse:
    return error(500, f"internal error: {type(e).__name__}")


#: every error is one line of JSON: bad input 400 (a busy server 503), a refusal its status, an unknown
#: path 404, a wrong method 405, anything else 500 without a traceback
ERRORS = {ExactError: _bad_input, Refused: _refused, HTTPException: _http_error, Exception: _internal}


def _sweep(solver: Solver, done: threading.Event) -> None:
    while not done.wait(REAP_EVERY):
        solver.reap()


def run(setup: Setup, store: Store, host: str, port: int, browser: bool, workers: int | None = None) -> None:
    """Serve the app until Ctrl-C (or SIGTERM): the solver over the setup's shipped trees and the store,
    at most ``workers`` live proofs at once (default: the cores)."""
    listening = listen(host, port)
    solver = Solver(setup, InstantAdvice(shipped_trees(setup), setup, shipped_opener_book(setup)), store,
                    workers=workers)
    port = listening.getsockname()[1]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
    say(f"{setup.title}; {setup.lists}; store {store.path} ({len(store)} positions); "
        f"at most {solver.workers} live proofs at once")
    say(f"serving {url} (Ctrl-C stops)")
    if browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    app = make_app(solver, host, port)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listening])


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
