#!/usr/bin/env python3
"""Start xshisen (Shisen-Sho for X11) on $DISPLAY, play it with xdotool, write frames + truth.

Truth comes from the game's own sprites (xshisen_truth), frame by frame; the pairs this script
removes are chosen from that truth with the Shisen-Sho link rule (kshisen_drive's). Needs
python3 with numpy and pillow, xshisen, xdotool, xwd, xwininfo and convert.

usage: xshisen_drive.py --out DIR --name NAME [--size 0|1|2] [--pictures 1|2] [--gravity]
                        [--ground '#004000'] [--mids 6,12] [--anims 1] [--seed N]
Writes NAME-full, NAME-sel, NAME-midNN, NAME-midNNsel and NAME-animNN (.png + .truth.json).
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kshisen_drive as kd  # noqa: E402
import xshisen_truth as xt  # noqa: E402

T0 = time.time()
MENU_Y = 18          # the menu bar's labels, in client-window pixels
MENU_X = {"game": 38}
ITEM_DY = 30         # a pull-down menu's items: the first 31 px below the bar, then every 30


def log(*a):
    print("xshisen-drive: [%5.1fs]" % (time.time() - T0), *a, file=sys.stderr, flush=True)


def window_of(timeout=10.0):
    """The largest viewable window of the process (the main one; the score dialog is 5x5)."""
    end = time.time() + timeout
    while time.time() < end:
        # xshisen sets no _NET_WM_PID: search by name (one game per display).
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^xshisen$"],
                             capture_output=True, text=True).stdout.split()
        best = None
        for w in out:
            g = kd.geometry(w)
            if g.get("w", 0) > 200 and (best is None or g["w"] > best[1]):
                best = (w, g["w"])
        if best:
            return best[0]
        time.sleep(0.2)
    raise SystemExit("xshisen-drive: no xshisen window")


def menu(wid, bar, item):
    kd.click(wid, MENU_X[bar], MENU_Y)
    time.sleep(0.4)
    kd.click(wid, MENU_X[bar] - 10, MENU_Y + 31 + ITEM_DY * item)
    time.sleep(0.8)


def park(wid):
    """The pointer away from the board (xshisen draws no hover, but keep it out of frames)."""
    g = kd.geometry(wid)
    subprocess.run(["xdotool", "mousemove", str(g["x"] + g["w"] + 20), str(g["y"] + g["h"] + 20)])


def stable(wid, timeout=6.0, gap=0.25):
    """Capture until two frames in a row agree below the clock line."""
    end = time.time() + timeout
    prev = kd.capture(wid)
    while True:
        time.sleep(gap)
        cur = kd.capture(wid)
        if cur.shape == prev.shape and np.array_equal(cur[80:], prev[80:]):
            return cur
        if time.time() > end:
            return cur
        prev = cur


class Game:
    def __init__(self, args, wid, sp):
        self.args, self.wid, self.sp = args, wid, sp
        self.letters = {}
        self.lattice = None
        self.ground = None

    def centre(self, rc):
        x0, y0, px, py, _, _ = self.lattice
        h, w, _ = next(iter(self.sp.values())).shape
        return x0 + rc[1] * px + w // 2, y0 + rc[0] * py + h // 2

    def read(self, a):
        cells = xt.read_cells(a, self.sp, self.lattice, self.ground)
        return cells, xt.truth_rows(cells, self.letters)

    def write(self, a, tag, kind="board"):
        cells, rows = self.read(a)
        unresolved = sum(k == "unresolved" for row in cells for k, _ in row)
        if kind == "board" and unresolved:
            log("not written: %s has %d unresolved cells" % (tag, unresolved))
            return None
        x0, y0, px, py, cols, nrows = self.lattice
        sel = [[r, c] for r, row in enumerate(cells) for c, (k, _) in enumerate(row)
               if k == "selected"]
        d = {"kind": kind, "rows": nrows, "cols": cols, "origin": [x0, y0], "pitch": [px, py],
             "cells": rows, "selected": sel, "game": "xshisen",
             "size": self.args.size, "pictures": self.args.pictures,
             "gravity": self.args.gravity, "ground": self.args.ground,
             "window": [a.shape[1], a.shape[0]], "config": self.args.name,
             "note": "truth from xshisen's own sprites (scripts/xshisen_truth.py)"}
        if kind == "animation":
            d["unresolved"] = unresolved
        base = os.path.join(self.args.out, "%s-%s" % (self.args.name, tag))
        kd.save_png(a, base + ".png")
        with open(base + ".truth.json", "w") as f:
            json.dump(d, f, indent=1)
        log("wrote", base + ".png")
        return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--size", type=int, default=0)
    ap.add_argument("--pictures", type=int, default=1)
    ap.add_argument("--gravity", action="store_true")
    ap.add_argument("--ground", default="#004000")
    ap.add_argument("--mids", default="8")
    ap.add_argument("--anims", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    mids = sorted(int(m) for m in args.mids.split(",") if m)
    anim_at = set(rng.sample(range(1, max(mids) + 1), min(args.anims, max(mids))))
    # xshisen keeps its size, gravity and picture set in ~/.xshisenrc: a private HOME holds
    # this config's.
    home = tempfile.mkdtemp(prefix="xshisen-home-")
    with open(os.path.join(home, ".xshisenrc"), "w") as f:
        f.write("XShisen*gameSize: %d\nXShisen*trialMode: false\nXShisen*gravityMode: %s\n"
                "XShisen*imageSet: %d\n" % (args.size, "true" if args.gravity else "false",
                                             args.pictures))
    cmd = ["/usr/games/xshisen", "-xrm", "XShisen*drawing.background: " + args.ground,
           "-xrm", "XShisen*connectLineTime: %d" % (1500 if args.anims else 150)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, HOME=home))
    try:
        wid = window_of()
        time.sleep(1.0)
        menu(wid, "game", 0)
        park(wid)
        a = stable(wid)
        g = Game(args, wid, xt.sprites("s%d" % args.pictures))
        g.lattice = xt.find_lattice(a, g.sp)
        if g.lattice is None:
            raise SystemExit("xshisen-drive: no lattice in the deal")
        x0, y0 = g.lattice[:2]
        g.ground = a[y0 - 3, x0 - 3].copy()
        log("lattice", g.lattice, "ground", g.ground.tolist())
        board = g.write(a, "full")
        if board is None:
            raise SystemExit("xshisen-drive: the deal did not read")
        removed = 0
        pending_sel = True
        while removed < max(mids):
            pairs = kd.removable_pairs(board)
            if not pairs:
                log("no removable pair left after", removed)
                break
            p, q = rng.choice(pairs)
            x, y = g.centre(p)
            kd.click(wid, x, y)
            if pending_sel:
                park(wid)
                time.sleep(0.3)
                g.write(kd.capture(wid), "sel" if removed == 0 else "mid%02dsel" % removed)
                pending_sel = False
            x, y = g.centre(q)
            kd.click(wid, x, y)
            removed += 1
            if removed in anim_at:
                park(wid)
                time.sleep(0.25)
                g.write(kd.capture(wid), "anim%02d" % removed, kind="animation")
                time.sleep(1.5)  # the line stays connectLineTime (1500 ms) unchanged
            park(wid)
            time.sleep(0.2)
            a = stable(wid)
            cells, board = g.read(a)
            for _ in range(4):
                if not any(k == "unresolved" for row in cells for k, _ in row):
                    break
                time.sleep(0.5)
                a = stable(wid, timeout=4.0)
                cells, board = g.read(a)
            if removed in mids:
                g.write(a, "mid%02d" % removed)
                pending_sel = True
        if pending_sel and removed:
            tiles = [(r, c) for r, row in enumerate(board) for c, t in enumerate(row) if t != "."]
            x, y = g.centre(rng.choice(tiles))
            kd.click(wid, x, y)
            park(wid)
            time.sleep(0.3)
            g.write(kd.capture(wid), "mid%02dsel" % removed)
        return 0
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
