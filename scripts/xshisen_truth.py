#!/usr/bin/env python3
"""Ground truth for xshisen screenshots, made from the game's own sprites (not llk's reader).

xshisen (Debian package `xshisen`, Shisen-Sho for X11) draws every tile from one XPM per type
under /usr/share/games/xshisen/<set>/, unscaled at -mag 1, at integer positions of a lattice, on
a plain background. So:
  1. Sprites: every XPM of the picture set, converted with ImageMagick's `convert`.
  2. Lattice, on a full deal: every exact sprite match in the frame; the pitch is the smallest
     gap between matched positions along each axis, the origin the top-left match.
  3. Cells: a cell's sprite-sized block equal to a sprite is that tile; equal to a sprite on
     every pixel of one checkerboard parity (xshisen stipples a selected tile) is that tile,
     selected; all background is empty; anything else is unresolved (a link line drawn over
     it, or a tile being removed).
Not part of llk's test suite: it makes the frames the corpus counts read.
"""
import glob
import os
import subprocess

import numpy as np
from PIL import Image

SPRITE_DIR = "/usr/share/games/xshisen"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def sprites(picture_set, cache="/tmp/xshisen-sprites"):
    """{name: HxWx3 uint8} for one picture set ("s1" or "s2")."""
    out = {}
    os.makedirs(os.path.join(cache, picture_set), exist_ok=True)
    for xpm in sorted(glob.glob(os.path.join(SPRITE_DIR, picture_set, "*.xpm"))):
        name = os.path.basename(xpm)[:-4]
        png = os.path.join(cache, picture_set, name + ".png")
        if not os.path.exists(png):
            subprocess.run(["convert", xpm, png], check=True)
        out[name] = np.asarray(Image.open(png).convert("RGB"))
    return out


def exact_matches(a, sprite):
    """Top-left (x, y) of every place the sprite appears exactly in frame a."""
    h, w, _ = sprite.shape
    H, W, _ = a.shape
    if H < h or W < w:
        return []
    # A few sample pixels narrow the candidates; each is then checked whole.
    pts = [(0, 0), (h // 2, w // 2), (h - 1, w - 1), (h // 3, 2 * w // 3), (2 * h // 3, w // 4),
           (h // 4, w // 5), (3 * h // 4, 3 * w // 4)]
    mask = np.ones((H - h + 1, W - w + 1), dtype=bool)
    for dy, dx in pts:
        mask &= (a[dy:dy + H - h + 1, dx:dx + W - w + 1] == sprite[dy, dx]).all(axis=2)
    return [(int(x), int(y)) for y, x in zip(*np.nonzero(mask))
            if np.array_equal(a[y:y + h, x:x + w], sprite)]


def find_lattice(a, sp):
    """(x0, y0, px, py, cols, rows) from a full deal's exact sprite matches, or None."""
    pos = [p for s in sp.values() for p in exact_matches(a, s)]
    if len(pos) < 4:
        return None
    xs = sorted({x for x, _ in pos})
    ys = sorted({y for _, y in pos})
    px = min((b - a_ for a_, b in zip(xs, xs[1:])), default=0)
    py = min((b - a_ for a_, b in zip(ys, ys[1:])), default=0)
    if px <= 0 or py <= 0:
        return None
    x0, y0 = xs[0], ys[0]
    if any((x - x0) % px or (y - y0) % py for x, y in pos):
        return None
    cols = (xs[-1] - x0) // px + 1
    rows = (ys[-1] - y0) // py + 1
    return x0, y0, px, py, cols, rows


def classify_cell(block, sp, ground):
    """('tile', name) / ('selected', name) / ('empty', None) / ('unresolved', best name)."""
    for name, s in sp.items():
        if np.array_equal(block, s):
            return "tile", name
    if (block == ground).all():
        return "empty", None
    h, w, _ = block.shape
    par = (np.add.outer(np.arange(h), np.arange(w)) % 2).astype(bool)
    best, best_frac = None, -1.0
    for name, s in sp.items():
        eq = (block == s).all(axis=2)
        for p in (par, ~par):
            if eq[p].all() and not eq.all():
                return "selected", name
        # a line drawn over a (maybe stippled) tile still leaves most of one parity equal
        frac = max(eq.mean(), eq[par].mean(), eq[~par].mean())
        if frac > best_frac:
            best, best_frac = name, frac
    return "unresolved", (best, best_frac)


def read_cells(a, sp, lattice, ground):
    """Per-cell classification on a known lattice: a rows x cols list of tuples."""
    x0, y0, px, py, cols, rows = lattice
    h, w, _ = next(iter(sp.values())).shape
    out = []
    for r in range(rows):
        row = []
        for c in range(cols):
            x, y = x0 + c * px, y0 + r * py
            row.append(classify_cell(a[y:y + h, x:x + w], sp, ground))
        out.append(row)
    return out


def truth_rows(cells, letters):
    """Cells as strings ('.' empty, a letter per sprite name); letters: {name: letter},
    extended as new names appear. Unresolved cells keep their best sprite when it covers most
    of the cell (a line drawn over a tile), else read as empty."""
    rows = []
    for row in cells:
        s = ""
        for kind, v in row:
            name = None
            if kind in ("tile", "selected"):
                name = v
            elif kind == "unresolved" and v[1] >= 0.6:
                name = v[0]
            if name is None:
                s += "."
            else:
                if name not in letters:
                    letters[name] = LETTERS[len(letters)]
                s += letters[name]
        rows.append(s)
    return rows
