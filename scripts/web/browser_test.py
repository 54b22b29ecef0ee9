#!/usr/bin/env python3
"""End-to-end test of the browser build in headless Chromium (Selenium).

Starts `node dist/web/serve.mjs PORT` (COOP/COEP headers), opens index.html and
checks: the page is cross-origin isolated; the worker answers `uci` with
`uciok`; moves by click and by drag, a bad FEN's error; after `Threads` 2 the
page's Analyse, then Stop, gives a `bestmove`, as does a plain `go depth 10`;
`#best-line` shows the best line; the browser log has no SEVERE entry.

    python3 scripts/web/browser_test.py [--screenshot PATH] [--nps [--nodes N]]

--screenshot saves a 1280x800 PNG of the page analysing a middlegame.
--nps then searches `go nodes N` from the start position at Threads 1 and 2
and prints the last `nps` of each (the page has no `bench`).

Needs: pip selenium; Debian's chromium and chromium-driver
(apt-get install -y chromium chromium-driver); node; dist/web/ built
(`make web`: tessera.wasm, tessera.worker.js, the page). Exit code 0 on success, 1 on a failed check.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Queen's Gambit Declined after 7...c6; the first two moves are played by
# clicking and by dragging, the rest through window.tessera.move().
OPENING = 'd2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 b8d7 f1d3 c7c6'.split()
OPENING_FEN = 'r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2NBPN2/PP3PPP/R2QK2R w KQ - 0 8'


class CheckFailed(Exception):
    pass


def check(cond, message):
    if not cond:
        raise CheckFailed(message)


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start_server(script, port, timeout):
    proc = subprocess.Popen(['node', script, str(port)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f'http://localhost:{port}/index.html'
    deadline = time.time() + timeout
    while True:
        if proc.poll() is not None:
            out = proc.stdout.read().decode(errors='replace')
            raise CheckFailed(f'the server {script} exited with {proc.returncode}: {out.strip()}')
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                headers = {k.lower(): v for k, v in r.headers.items()}
                break
        except OSError:
            if time.time() > deadline:
                raise CheckFailed(f'the server did not answer {url} within {timeout} s')
            time.sleep(0.2)
    check(headers.get('cross-origin-opener-policy') == 'same-origin',
          f'index.html is served without Cross-Origin-Opener-Policy: same-origin ({headers})')
    check(headers.get('cross-origin-embedder-policy') in ('require-corp', 'credentialless'),
          f'index.html is served without Cross-Origin-Embedder-Policy: require-corp ({headers})')
    return proc, url


def make_driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = '/usr/bin/chromium'
    for arg in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage',
                '--window-size=1280,800', '--force-device-scale-factor=1',
                '--hide-scrollbars'):
        opts.add_argument(arg)
    opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
    driver.set_script_timeout(60)
    # The page's viewport itself 1280x800 (the window size includes no-show chrome).
    driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',
                           {'width': 1280, 'height': 800, 'deviceScaleFactor': 1, 'mobile': False})
    return driver


class Page:
    def __init__(self, driver):
        self.d = driver

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, script, timeout, message, *args, every=0.25):
        """Polls `return <script>` until it is truthy; returns its value."""
        deadline = time.time() + timeout
        while True:
            value = self.js('return ' + script, *args)
            if value:
                return value
            if time.time() > deadline:
                raise CheckFailed(f'{message} (waited {timeout} s); {self.diagnosis()}')
            time.sleep(every)

    def diagnosis(self):
        try:
            return ('page state ' + json.dumps(self.js(
                'return window.tessera ? window.tessera.state() : "no window.tessera"')) +
                '; last engine lines ' + json.dumps(self.js(
                    'return window.tessera ? window.tessera.lines.slice(-6) : []')))
        except Exception as e:  # noqa: BLE001 - diagnosis only
            return f'(no page state: {e})'

    def lines_count(self):
        return self.js('return window.tessera.lines.length')

    def post(self, cmd):
        self.js('window.tessera.engine.postMessage(arguments[0])', cmd)

    def wait_line(self, start, prefix, timeout, message):
        """Waits for an engine line starting with prefix at index >= start; returns its index."""
        return self.wait(
            '(() => { const l = window.tessera.lines; for (let i = arguments[0]; i < l.length; i++)'
            ' if (l[i].startsWith(arguments[1])) return i + 1; return 0; })()',
            timeout, message, start, prefix) - 1

    def lines_between(self, start, end):
        return self.js('return window.tessera.lines.slice(arguments[0], arguments[1])', start, end)

    def fen(self):
        return self.js('return window.tessera.state().fen')

    def square(self, sq):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, f'#board [data-square="{sq}"]')

    def click(self, css):
        from selenium.webdriver.common.by import By
        self.d.find_element(By.CSS_SELECTOR, css).click()

    def select(self, css, value):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select
        el = self.d.find_element(By.CSS_SELECTOR, css)
        check(el.is_enabled(), f'{css} is disabled')
        Select(el).select_by_value(str(value))

    def text(self, css):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, css).text.strip()


def info_fields(line):
    t = line.split()
    out = {}
    for key in ('depth', 'nodes', 'nps', 'time'):
        if key in t:
            out[key] = int(t[t.index(key) + 1])
    return out


def board_checks(p):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    # Click a piece, then a square.
    p.square('d2').click()
    check('selected' in p.square('d2').get_attribute('class'), 'clicking d2 did not select the pawn')
    p.square('d4').click()
    check(p.fen().startswith('rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b'),
          f'click d2 then d4 did not play d4: FEN {p.fen()}')
    # An illegal move is refused.
    p.square('d7').click()
    p.square('d3').click()
    check(p.fen().startswith('rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b'),
          f'the illegal d7-d3 changed the position: FEN {p.fen()}')
    # Drag a piece.
    ActionChains(p.d).click_and_hold(p.square('d7')).pause(0.1) \
        .move_to_element(p.square('d6')).pause(0.1) \
        .move_to_element(p.square('d5')).pause(0.1).release().perform()
    check(p.fen().startswith('rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w'),
          f'dragging d7 to d5 did not play d5: FEN {p.fen()}')
    for m in OPENING[2:]:
        check(p.js('return window.tessera.move(arguments[0])', m), f'the page refused the move {m}')
    check(p.fen() == OPENING_FEN, f'after the opening the FEN is {p.fen()}, not {OPENING_FEN}')
    check(p.js('return document.querySelector("#fen").value') == OPENING_FEN, '#fen does not show the position')
    moves = p.text('#moves')
    check('Nbd7' in moves and 'O-O' in moves, f'#moves does not list the moves in SAN: {moves!r}')

    # A bad FEN gives an error and leaves the board alone; Undo and the FEN box work.
    fen = p.d.find_element('id', 'fen')
    fen.clear()
    fen.send_keys('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1' + Keys.ENTER)
    err = p.wait('document.querySelector("#fen-error").textContent.trim()', 5, 'no error for a bad FEN')
    check(p.fen() == OPENING_FEN, 'a bad FEN changed the position')
    p.click('#undo')
    check(p.fen().startswith('r1bq1rk1/pppnbppp/4pn2/3p2B1/2PP4/2NBPN2/PP3PPP/R2QK2R b'),
          f'Undo did not take back 7...c6: FEN {p.fen()}')
    fen.clear()
    fen.send_keys(OPENING_FEN + Keys.ENTER)
    check(p.fen() == OPENING_FEN, f'loading a FEN gave {p.fen()}')
    check(not p.text('#fen-error'), 'the FEN error stayed after a good FEN')
    # Promotion asks for the piece.
    fen.clear()
    fen.send_keys('8/P6k/8/8/8/8/8/K7 w - - 0 1' + Keys.ENTER)
    p.square('a7').click()
    p.square('a8').click()
    check(p.js('return !document.querySelector("#promotion").hidden'), 'no promotion choice for a7-a8')
    p.click('#promotion [aria-label="Promote to knight"]')
    check(p.fen().startswith('N7/7k/'), f'promoting to a knight gave {p.fen()}')
    check(p.text('#moves').endswith('a8=N'), f'#moves does not end with a8=N: {p.text("#moves")!r}')
    # Back to the opening with its moves (for the screenshot).
    p.click('#new-game')
    for m in OPENING:
        p.js('window.tessera.move(arguments[0])', m)
    check(p.fen() == OPENING_FEN, 'replaying the opening failed')
    return err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--server', default='dist/web/serve.mjs', help='the static server script (node)')
    ap.add_argument('--screenshot', metavar='PATH', help='save a PNG of the page analysing')
    ap.add_argument('--nps', action='store_true', help='measure nps at Threads 1 and 2')
    ap.add_argument('--nodes', type=int, default=2_000_000, help='nodes per --nps search')
    ap.add_argument('--timeout', type=float, default=180, help='seconds for the engine to start or search')
    args = ap.parse_args()

    for need in ('dist/web/index.html', 'dist/web/tessera.worker.js', 'dist/web/tessera.wasm'):
        if args.server == 'dist/web/serve.mjs' and not os.path.exists(os.path.join(ROOT, need)):
            print(f'FAIL: {need} is missing (build the web package first)')
            return 1

    server = driver = None
    step = 'start'
    try:
        step = 'server'
        server, url = start_server(args.server, free_port(), 20)
        step = 'browser'
        driver = make_driver()
        p = Page(driver)
        driver.get(url)

        step = 'page'
        p.wait('window.tessera && window.tessera.engine', 30, 'window.tessera never appeared')
        check(p.js('return self.crossOriginIsolated') is True,
              'crossOriginIsolated is false: COOP/COEP headers missing or not honoured')
        step = 'uci'
        p.wait('window.tessera.lines.includes("uciok") || window.tessera.state().failed', args.timeout,
               'the worker did not answer "uci" with "uciok"')
        check(not p.js('return window.tessera.state().failed'),
              f'the engine failed: {p.js("return window.tessera.state().failed")}')
        check(p.js('return window.tessera.lines.includes("uciok")'), 'no uciok in window.tessera.lines')
        p.wait('window.tessera.state().ready', args.timeout, 'no readyok after isready')
        name = p.js('return window.tessera.state().name')
        print(f'ok: engine "{name}" answered uci/isready; page cross-origin isolated')

        step = 'board'
        err = board_checks(p)
        print(f'ok: click and drag moves, illegal move refused, undo, FEN box (bad FEN: "{err}")')

        step = 'analyse'
        cores = p.js('return navigator.hardwareConcurrency')
        threads = 2 if cores >= 2 else 1
        check(threads == 2, f'navigator.hardwareConcurrency is {cores}: cannot test Threads 2')
        sent_start = p.js('return window.tessera.sent.length')
        p.select('#threads', threads)
        p.select('#multipv', 3)
        start = p.lines_count()
        p.click('#analyse')
        p.wait('window.tessera.state().searching', 30, 'Analyse started no search')
        sent = p.js('return window.tessera.sent.slice(arguments[0])', sent_start)
        check(f'setoption name Threads value {threads}' in sent, f'the page did not send Threads {threads}: {sent}')
        check('go infinite' in sent and any(s.startswith('position fen ') for s in sent),
              f'the page did not send position fen and go infinite: {sent}')
        p.wait('window.tessera.lines.slice(arguments[0]).some(l => / depth (1[0-9]|[2-9][0-9]) .* pv /.test(l))',
               args.timeout, 'analysis did not reach depth 10', start)
        best = p.wait('document.querySelector("#best-line").textContent.trim()', 10, '#best-line stayed empty')
        uci_best = p.js('return window.tessera.bestLine()')
        check(uci_best, 'window.tessera.bestLine() is empty while analysing')
        arrows = p.js('return document.querySelectorAll("#arrows polygon.best").length')
        check(arrows == 1, f'{arrows} best-move arrows on the board, not 1')
        rows = p.js('return document.querySelectorAll("#pv-lines li").length')
        check(rows == 3, f'{rows} lines shown with MultiPV 3')
        status = p.text('#status')
        check('2 threads' in status and 'isolated' in status, f'#status does not say threads/isolation: {status!r}')
        print(f'ok: Analyse with Threads {threads}, MultiPV 3: best line {best!r} ({uci_best})')
        if args.screenshot:
            time.sleep(3)  # a few more depths
            path = os.path.abspath(args.screenshot)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            check(driver.save_screenshot(path), f'could not save {path}')
            size = p.js('return [innerWidth, innerHeight]')
            print(f'ok: screenshot {path} ({size[0]}x{size[1]})')

        step = 'follow'
        # The analysis follows the board: stop, bestmove, position, go infinite.
        sent_start = p.js('return window.tessera.sent.length')
        mark = p.lines_count()
        p.click('#play-best')
        check(p.fen() != OPENING_FEN, 'Play best did not play')
        p.wait('window.tessera.bestLine() && window.tessera.sent.slice(arguments[0]).includes("go infinite")',
               args.timeout, 'no new analysis after Play best', sent_start)
        sent = p.js('return window.tessera.sent.slice(arguments[0])', sent_start)
        got = p.lines_between(mark, p.lines_count())
        played = sent[-2].split()[-1] if len(sent) >= 2 else ''
        check(sent[0] == 'stop' and sent[-2].startswith('position fen ') and sent[-1] == 'go infinite'
              and 4 <= len(played) <= 5, f'after Play best the page sent {sent}')
        check(any(l.startswith('bestmove') for l in got), 'the page sent go before the bestmove of the stopped search')
        p.click('#back')
        p.wait('window.tessera.state().fen === arguments[0] && window.tessera.bestLine()',
               args.timeout, 'no analysis after Back', OPENING_FEN)
        check(p.js('return window.tessera.state().goWhileSearching') == 0,
              'a go was sent before the previous bestmove')
        print(f'ok: the analysis followed Play best ({played}) and Back')

        step = 'stop'
        mark = p.lines_count()
        p.click('#analyse')
        i = p.wait_line(mark, 'bestmove', 30, 'no bestmove after Stop')
        line = p.lines_between(i, i + 1)[0]
        check(len(line.split()) >= 2 and 4 <= len(line.split()[1]) <= 5 and line.split()[1] != '0000',
              f'bad bestmove line {line!r}')
        p.wait('!window.tessera.state().searching', 5, 'the page still thinks a search runs')
        check(p.text('#best-line'), '#best-line is empty after Stop')
        print(f'ok: Stop gave "{line}"')

        step = 'go depth 10'
        mark = p.lines_count()
        p.post('go depth 10')
        i = p.wait_line(mark, 'bestmove', args.timeout, 'no bestmove for go depth 10')
        got = p.lines_between(mark, i + 1)
        depths = [info_fields(l).get('depth', 0) for l in got if l.startswith('info') and ' pv ' in l]
        check(depths and max(depths) >= 10, f'go depth 10 ended at depth {max(depths or [0])}')
        check(got[-1].split()[1] != '0000', f'go depth 10 gave {got[-1]!r}')
        print(f'ok: go depth 10 gave "{got[-1]}"')

        check(p.js('return window.tessera.state().goWhileSearching') == 0,
              'a go was sent before the previous bestmove')

        if args.nps:
            step = 'nps'
            nps = {}
            for n in (1, 2):
                mark = p.lines_count()
                for cmd in (f'setoption name Threads value {n}', 'ucinewgame', 'isready'):
                    p.post(cmd)
                p.wait_line(mark, 'readyok', 60, f'no readyok after Threads {n}')
                mark = p.lines_count()
                p.post('position startpos')
                p.post(f'go nodes {args.nodes}')
                i = p.wait_line(mark, 'bestmove', max(args.timeout, 600), f'no bestmove for go nodes at Threads {n}')
                infos = [info_fields(l) for l in p.lines_between(mark, i) if ' nps ' in l]
                check(infos, f'no info line with nps at Threads {n}')
                last = infos[-1]
                nps[n] = last['nps']
                print(f'nps: Threads {n}: {last["nps"]} nps (depth {last.get("depth")}, '
                      f'{last.get("nodes")} nodes, {last.get("time")} ms)')

            print(f'nps: Threads 2 / Threads 1 = {nps[2] / nps[1]:.2f} '
                  f'(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)')

        step = 'browser log'
        severe = [e for e in driver.get_log('browser') if e.get('level') == 'SEVERE']
        check(not severe, 'SEVERE entries in the browser log:\n  ' +
              '\n  '.join(e.get('message', '') for e in severe))
        print('ok: no SEVERE entries in the browser log')
        print('PASS')
        return 0
    except CheckFailed as e:
        print(f'FAIL ({step}): {e}')
        if driver is not None:
            try:
                for e2 in driver.get_log('browser'):
                    if e2.get('level') in ('SEVERE', 'WARNING'):
                        print(f'  browser {e2["level"]}: {e2["message"]}')
            except Exception:  # noqa: BLE001
                pass
        return 1
    finally:
        if driver is not None:
            driver.quit()
        if server is not None:
            server.terminate()
            try:
                server.wait(5)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == '__main__':
    sys.exit(main())
