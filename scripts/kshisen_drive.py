#!/usr/bin/env python3
"""Drive a running KShisen window with xdotool, capture frames with xwd, write ground truth.

Called by scripts/kshisen-frames (which starts and stops KShisen); needs python3 with numpy and
pillow, xdotool, xwd (x11-apps), xwininfo (x11-utils) and convert (imagemagick).

Truth is read from the pixels (kshisen_truth.Game) and cross-checked against a board kept by
this script from the full deal, the pairs it removes, its own Shisen-Sho link rule and gravity
(columns fall down). A frame whose pixel reading disagrees with that board is not written.

usage: kshisen_drive.py --wid 0x400006 --size 0 --speed 2 --out DIR --name NAME
                        [--mids 8,14] [--anims 2] [--seed N]
"""
import argparse
import io
import json
import os
import random
import struct
import subprocess
import sys
import time

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kshisen_truth as kt  # noqa: E402

DELAY_MS = [1000, 750, 500, 250, 125]  # KShisen's link display time per Speed 0..4


T0 = time.time()


def log(*a):
    print("kshisen-drive: [%5.1fs]" % (time.time() - T0), *a, file=sys.stderr, flush=True)


def parse_xwd(data):
    """RGB array of a 24-bit TrueColor ZPixmap XWD dump (what xwd gives under Xvfb), or None
    for any other layout (then imagemagick converts it)."""
    if len(data) < 100:
        return None
    f = struct.unpack(">25I", data[:100])
    (header_size, _, fmt, depth, w, h, _, byte_order, _, _, _, bpp, bpl, _, rmask, gmask,
     bmask) = f[:17]
    ncolors = f[19]
    if fmt != 2 or bpp != 32 or (rmask, gmask, bmask) != (0xFF0000, 0xFF00, 0xFF):
        return None
    off = header_size + 12 * ncolors
    if len(data) < off + bpl * h:
        return None
    px = np.frombuffer(data, dtype=np.uint8, count=bpl * h, offset=off).reshape(h, bpl)
    px = px[:, :w * 4].reshape(h, w, 4)
    rgb = px[..., [2, 1, 0]] if byte_order == 0 else px[..., [1, 2, 3]]
    return np.ascontiguousarray(rgb)


def capture(wid):
    xwd = subprocess.run(["xwd", "-id", wid, "-silent"], capture_output=True, check=True).stdout
    a = parse_xwd(xwd)
    if a is not None:
        return a
    ppm = subprocess.run(["convert", "xwd:-", "ppm:-"], input=xwd, capture_output=True,
                         check=True).stdout
    return np.asarray(Image.open(io.BytesIO(ppm)).convert("RGB"))


def geometry(wid):
    out = subprocess.run(["xwininfo", "-id", wid], capture_output=True, text=True,
                         check=True).stdout
    g = {}
    for line in out.splitlines():
        line = line.strip()
        for key, name in (("Absolute upper-left X:", "x"), ("Absolute upper-left Y:", "y"),
                          ("Width:", "w"), ("Height:", "h")):
            if line.startswith(key):
                g[name] = int(line.split(":")[1])
    return g


def click(wid, x, y):
    g = geometry(wid)
    subprocess.run(["xdotool", "mousemove", str(g["x"] + x), str(g["y"] + y),
                    "mousedown", "1", "sleep", "0.05", "mouseup", "1"], check=True)


def save_png(a, path):
    Image.fromarray(a).save(path, optimize=False, compress_level=6)


# ---- the board kept by this script --------------------------------------------------------

def removable_pairs(cells):
    """All pairs (a, b) of equal letters joinable by <= 3 segments through empty cells, the
    path allowed one ring outside the board (KShisen's findPath)."""
    R, C = len(cells), len(cells[0])

    def empty(r, c):
        return r < 0 or c < 0 or r >= R or c >= C or cells[r][c] == "."

    def reach(r0, c0):
        """Cells reachable from (r0,c0) with <= 2 turns; returns set of (r,c) tiles hit."""
        hits = set()
        # frontier: (r, c, segments used); walk straight lines
        frontier = [(r0, c0)]
        seen = {(r0, c0)}
        for seg in range(3):
            nxt = []
            for (r, c) in frontier:
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    rr, cc = r + dr, c + dc
                    while -1 <= rr <= R and -1 <= cc <= C:
                        if not empty(rr, cc):
                            hits.add((rr, cc))
                            break
                        if (rr, cc) not in seen:
                            seen.add((rr, cc))
                            nxt.append((rr, cc))
                        rr += dr
                        cc += dc
            frontier = nxt
        return hits

    pairs = []
    for r in range(R):
        for c in range(C):
            t = cells[r][c]
            if t == ".":
                continue
            for (rr, cc) in reach(r, c):
                if (rr, cc) > (r, c) and cells[rr][cc] == t:
                    pairs.append(((r, c), (rr, cc)))
    return pairs


def remove_pair(cells, a, b):
    g = [list(row) for row in cells]
    for (r, c) in (a, b):
        g[r][c] = "."
    R, C = len(g), len(g[0])
    for c in range(C):  # gravity: the column's tiles fall to the bottom, order kept
        col = [g[r][c] for r in range(R) if g[r][c] != "."]
        col = ["."] * (R - len(col)) + col
        for r in range(R):
            g[r][c] = col[r]
    return ["".join(row) for row in g]


# ---- the driver --------------------------------------------------------------------------

class Driver:
    def __init__(self, wid, size, speed, out, name, rng):
        self.wid, self.size, self.speed, self.out, self.name, self.rng = wid, size, speed, out, name, rng
        self.cols, self.rows = kt.SIZES[size]
        self.written = []

    def board_region(self, a):
        g = self.game
        y1 = max(0, g.y0 - 10)
        y2 = min(a.shape[0], g.y0 + g.rows * g.py + 20)
        return a[y1:y2]

    def stable(self, timeout=5.0, gap=0.15):
        """Capture until two consecutive frames agree on the board area."""
        t_end = time.time() + timeout
        prev = capture(self.wid)
        while True:
            time.sleep(gap)
            cur = capture(self.wid)
            region = (slice(55, cur.shape[0] - 25),)
            if cur.shape == prev.shape and np.array_equal(cur[region], prev[region]):
                return cur
            if time.time() > t_end:
                raise RuntimeError("window never stable")
            prev = cur

    def wait_for(self, expect_cells, expect_sel, timeout=4.0):
        """Poll until the pixel reading equals the expectation; returns (frame, reading)."""
        t_end = time.time() + timeout
        last = None
        while True:
            a = self.stable()
            cells, sel, unknown = self.game.read(a)
            last = (cells, sel, unknown)
            if cells == expect_cells and sorted(sel) == sorted(expect_sel) and not unknown:
                return a
            if time.time() > t_end:
                fail = os.path.join(self.out, "_failed-%s.png" % self.name)
                save_png(a, fail)
                raise RuntimeError("pixels disagree (frame kept as " + fail + ", selection stats "
                                   + str(self.game.last_sel_stats) + ") with the kept board:\nread %s sel %s unknown %s\n"
                                   "kept %s sel %s" % (cells, sel, unknown, expect_cells, expect_sel))
            time.sleep(0.2)

    def centre(self, r, c):
        g = self.game
        return g.x0 + c * g.px + g.px // 2, g.y0 + r * g.py + g.py // 2

    def click_cell(self, r, c):
        click(self.wid, *self.centre(r, c))
        time.sleep(0.3)

    def write(self, tag, a, truth):
        base = os.path.join(self.out, "%s-%s" % (self.name, tag))
        save_png(a, base + ".png")
        with open(base + ".truth.json", "w") as f:
            json.dump(truth, f, indent=1)
            f.write("\n")
        self.written.append(base)
        log("wrote", base + ".png")

    def meta(self):
        g = self.game
        lat = g.lattice
        return {"game": "kshisen", "size": self.size, "speed": self.speed,
                "window": [int(self.shape[1]), int(self.shape[0])],
                "config": self.name,
                "lattice_method": lat.get("method"),
                "origin_measured": lat.get("origin_measured"),
                "block_inset": [g.inset, g.far]}

    def wait_changed(self, r, c, timeout=3.0):
        """Poll until cell (r, c) no longer shows its plain sprite; returns the frame."""
        g = self.game
        want = g.sprite_arr[kt.LETTERS.index(self.cells[r][c])]
        t_end = time.time() + timeout
        while True:
            a = self.stable()
            if not np.array_equal(g.blocks(a)[r, c].astype(np.int16), want):
                return a
            if time.time() > t_end:
                raise RuntimeError("click on %s changed nothing" % ((r, c),))
            time.sleep(0.1)

    def calibrate(self, first):
        """Learn the selected blank from tiles the harness selects itself (their type known
        from the kept board): `first` (already selected and captured), then more tiles of
        other types until every block pixel is covered."""
        g = self.game
        fr, (r, c) = first
        cov = g.learn_selected(g.blocks(fr)[r, c], self.cells[r][c])
        used = {self.cells[r][c]}
        tiles = [(rr, cc) for rr in range(self.rows) for cc in range(self.cols)
                 if self.cells[rr][cc] != "."]
        self.rng.shuffle(tiles)
        return cov, used, tiles

    def calibrate_more(self, used, tiles, cov):
        g = self.game
        for (r, c) in tiles:
            if cov >= 0.999 or len(used) >= 6:
                break
            t = self.cells[r][c]
            if t in used:
                continue
            used.add(t)
            self.click_cell(r, c)
            fr = self.wait_changed(r, c)
            cov = g.learn_selected(g.blocks(fr)[r, c], t)
            self.click_cell(r, c)
            self.wait_for(self.cells, [])
        log("selected blank learnt from %d tiles, %.1f%% of block pixels" % (len(used), 100 * cov))

    def select_frame(self, tag):
        """Select a random tile, capture, unselect."""
        g = self.game
        tiles = [(r, c) for r in range(self.rows) for c in range(self.cols)
                 if self.cells[r][c] != "."]
        r, c = self.rng.choice(tiles)
        self.click_cell(r, c)
        if g.ublank is None:
            # first selection of the game: learn the selected blank (this tile + a few
            # others), then read this frame with the model like any other
            fr = self.wait_changed(r, c)
            cov, used, others = self.calibrate((fr, (r, c)))
            self.click_cell(r, c)
            self.wait_for(self.cells, [])
            self.calibrate_more(used, others, cov)
            cells, sel, unknown = g.read(fr)
            if cells != self.cells or sel != [[r, c]] or unknown:
                raise RuntimeError("first selected frame misread after calibration: %s %s %s %s"
                                   % (cells, sel, unknown, g.last_sel_stats))
            self.write(tag, fr, g.truth(self.cells, [[r, c]], **self.meta()))
            return
        a = self.wait_for(self.cells, [[r, c]])
        self.write(tag, a, g.truth(self.cells, [[r, c]], **self.meta()))
        self.click_cell(r, c)
        self.wait_for(self.cells, [])

    def key(self, k):
        subprocess.run(["xdotool", "key", "--window", self.wid, k], check=True)

    def pause_frame(self, tag="paused"):
        """Pause (key P): KShisen hides the tiles behind a 'Game Paused' panel. Written as
        kind "no-board"; then resume and check the board is back as it was."""
        self.key("p")
        t_end = time.time() + 3
        while True:
            a = self.stable()
            cells, sel, unknown = self.game.read(a)
            if all(ch == "." for row in cells for ch in row) and not unknown:
                break
            if time.time() > t_end:
                raise RuntimeError("pause did not hide the tiles")
            time.sleep(0.2)
        self.write(tag, a, {"kind": "no-board", "reason": "paused",
                            "note": "KShisen paused: no tiles drawn, a 'Game Paused' panel",
                            **self.meta()})
        self.key("p")
        self.wait_for(self.cells, [])

    def link_timing(self, n):
        """Remove n pairs, capturing as fast as possible after the second click: how long the
        red link line stays, and when the pair is gone. Returns a list of dicts (ms)."""
        out = []
        for _ in range(n):
            pairs = removable_pairs(self.cells)
            if not pairs:
                break
            a_, b_ = self.rng.choice(pairs)
            after = remove_pair(self.cells, a_, b_)
            self.click_cell(*a_)
            self.wait_for(self.cells, [list(a_)])
            click(self.wid, *self.centre(*b_))
            t0 = time.time()
            first_red = last_red = None
            gone = None
            while time.time() - t0 < 3:
                fr = capture(self.wid)
                t = (time.time() - t0) * 1000
                red = int(((fr[..., 0] == 255) & (fr[..., 1] == 0) & (fr[..., 2] == 0)).sum())
                if red > 20:
                    first_red = first_red if first_red is not None else t
                    last_red = t
                elif first_red is not None:
                    cells, _, _ = self.game.read(fr)
                    if cells == after:
                        gone = t
                        break
            out.append({"first_red_ms": first_red, "last_red_ms": last_red, "gone_ms": gone})
            self.wait_for(after, [])
            self.cells = after
        return out

    def run(self, mids, anims, pause=False):
        a = self.stable()
        self.shape = a.shape
        self.game = kt.Game(a, self.rows, self.cols, top=55, bottom=a.shape[0] - 25)
        g = self.game
        log("lattice origin (%d,%d) pitch (%d,%d) inset %d/%d (%s, measured %s), %d types%s"
            % (g.x0, g.y0, g.px, g.py, g.inset, g.far, g.lattice.get("method"),
               g.lattice.get("origin_measured"), len(g.sprites),
               ", odd: " + "".join(g.odd_types) if g.odd_types else ""))
        self.cells = list(g.full_cells)
        self.write("full", a, g.truth(self.cells, [], **self.meta()))
        self.select_frame("sel")  # also learns the selected tint (needed below)
        if pause:
            self.pause_frame()
        removed = 0
        target = max(mids) if mids else 0
        anim_at = set(self.rng.sample(range(1, target + 1), min(anims, target))) if target else set()
        while removed < target:
            pairs = removable_pairs(self.cells)
            if not pairs:
                log("no removable pair left after", removed)
                break
            a_, b_ = self.rng.choice(pairs)
            before = list(self.cells)
            after = remove_pair(self.cells, a_, b_)
            self.click_cell(*a_)
            self.wait_for(before, [list(a_)])
            if removed + 1 in anim_at:
                r, c = b_
                click(self.wid, *self.centre(r, c))
                t0 = time.time()
                fr = capture(self.wid)
                dt = time.time() - t0
                red = int(((fr[..., 0] == 255) & (fr[..., 1] == 0) & (fr[..., 2] == 0)).sum())
                ok = red > 20
                if ok:
                    # the pixels agree with the kept board except where the red line runs
                    cells, sel, _ = g.read(fr)
                    blocks = g.blocks(fr)
                    for r in range(self.rows):
                        for c in range(self.cols):
                            if cells[r][c] != before[r][c]:
                                bl = blocks[r, c]
                                if not ((bl[..., 0] == 255) & (bl[..., 1] == 0) & (bl[..., 2] == 0)).any():
                                    log("anim frame: cell", (r, c), "read", cells[r][c],
                                        "kept", before[r][c], "and no line there")
                                    ok = False
                    for rc in sel:
                        if rc not in (list(a_), list(b_)):
                            ok = False
                if ok:
                    self.write("anim%02d" % (removed + 1), fr,
                               g.truth(before, [list(a_), list(b_)], kind="animation",
                                       pair=[list(a_), list(b_)], red_pixels=red,
                                       **self.meta()))
                else:
                    log("anim frame not written (line pixels %d, %.0f ms after the click)"
                        % (red, dt * 1000))
                time.sleep(0.3)
            else:
                self.click_cell(*b_)
            time.sleep(DELAY_MS[self.speed] / 1000.0)
            a = self.wait_for(after, [])
            self.cells = after
            removed += 1
            if removed in mids:
                self.write("mid%02d" % removed, a, g.truth(self.cells, [], removed_pairs=removed,
                                                           **self.meta()))
                self.select_frame("mid%02dsel" % removed)
        return self.written


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wid", required=True)
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--speed", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--mids", default="8,14")
    ap.add_argument("--anims", type=int, default=0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--pause", action="store_true", help="also write a paused (no-board) frame")
    ap.add_argument("--link-timing", type=int, default=0,
                    help="only measure the link line's duration over N removals (JSON to stdout)")
    o = ap.parse_args()
    rng = random.Random(o.seed)
    mids = [int(x) for x in o.mids.split(",") if x]
    os.makedirs(o.out, exist_ok=True)
    d = Driver(o.wid, o.size, o.speed, o.out, o.name, rng)
    try:
        if o.link_timing:
            a = d.stable()
            d.shape = a.shape
            d.game = kt.Game(a, d.rows, d.cols, top=55, bottom=a.shape[0] - 25)
            d.cells = list(d.game.full_cells)
            d.out = o.out
            d.select_frame("timing-sel")
            print(json.dumps({"speed": o.speed, "size": o.size,
                              "removals": d.link_timing(o.link_timing)}))
            return 0
        d.run(mids, o.anims, pause=o.pause)
    except Exception as e:  # report, keep what was written (each file was checked)
        log("FAILED:", e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
