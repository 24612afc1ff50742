#!/usr/bin/env python3
"""Ground truth for KShisen screenshots, made from the pixels alone (not llk's reader).

Needs python3 with numpy and pillow (pip install numpy pillow, or the Debian packages
python3-numpy python3-pil). Not part of llk's test suite: it makes the fixtures the tests read.

Method (see fixtures/kshisen/README.md):
  1. Lattice, on a FULL deal (rows and columns known from the Size setting). KShisen paints
     every tile at xOffset + col*pitch, yOffset + row*pitch from one pixmap per type, at
     integer pixel positions, left to right then top to bottom, so later tiles cover the 3-D
     side of earlier ones. Hence, at the right pitch p and origin x0, the pixel column
     x0 + c*p + d is identical for every column c of tiles wherever d falls on the tile's
     border (the border is the same for all types), and the column x0 - 1 (background left of
     the board) and x0 + C*p (the last tile's side) break that identity. A horizontal band
     through the middle of the board gives (x0, px); a vertical band gives (y0, py).
  2. Types: every cell's pitch-sized block is compared byte for byte; identical blocks are one
     type. Checked: every block has a twin, and every type count is even.
  3. Later frames of the same game (same window size, same lattice): a block equal to a known
     sprite is that tile; a block that equals a sprite on every pixel outside the tint mask
     (the pixels that change when a tile is selected) and is not itself a sprite is that tile,
     selected; anything else is empty (background, maybe with a neighbour's side or shadow).
"""
import json
import sys
import zlib

import numpy as np
from PIL import Image, ImageDraw

SIZES = [(14, 6), (16, 9), (18, 8), (24, 12), (26, 14), (30, 16)]  # (cols, rows) for Size=0..5
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def load(path):
    return np.asarray(Image.open(path).convert("RGB"))


def _hashes(lines):
    """One int per line (row of a 2-D uint8 array)."""
    return [zlib.crc32(l.tobytes()) ^ (len(l) << 32) for l in lines]


def _axis(bands, n, size, pmin=12, pmax=140):
    """Candidates (score, origin, pitch, inset) along one axis. `bands`: list of per-line hash
    arrays, one per thin band across the board. For the right pitch p, line x0+c*p+d is the
    same for all n tiles c wherever d falls on a margin no symbol reaches (in most bands). The
    invariant lines run up to d = p-1, the tile's own far edge; line x0+n*p is the last tile's
    3-D side or background, and x0-1 is background, so the run breaks there. The run starts a
    pixel or two after d = 0 (a tile's near edge is anti-aliased over what lies under it, so
    the first tile differs there): that gap is the inset."""
    out = []
    hs = [np.array(b, dtype=np.int64) for b in bands]
    L = len(hs[0])
    need = max(2, int(0.3 * len(hs)))
    for p in range(pmin, pmax + 1):
        span = (n - 1) * p
        if span >= L:
            break
        m = L - span
        count = np.zeros(m, dtype=np.int32)
        for h in hs:
            inv = np.ones(m, dtype=bool)
            base = h[:m]
            for c in range(1, n):
                inv &= h[c * p: c * p + m] == base
            count += inv
        inv = count >= need
        if not inv.any():
            continue
        x = 0
        while x < m:
            if not inv[x]:
                x += 1
                continue
            while x < m and inv[x]:
                x += 1
            e = x - 1  # last invariant line of this run
            x0 = e + 1 - p
            if x0 < 1 or x0 + n * p > size:
                continue
            if count[x0 - 1] > 0 or (e + 1 < m and count[e + 1] > 0):
                continue
            near = inv[x0: x0 + max(3, p // 8)]
            if not near.any():
                continue
            inset = int(np.argmax(near))
            score = int(count[x0: x0 + p].sum())
            out.append((score, int(x0), p, inset))
    return out


BOARD_TOP = 55      # the board widget's first client row (below menu bar and tool bar)
BOARD_BOTTOM = 23   # client rows below the board widget (status bar)


def _segments_twins(lines, n, p, o, inset, far):
    """Twins among the n segments [o+c*p+inset, o+(c+1)*p-far) of each line (1-D arrays of
    packed pixels); constant segments do not count."""
    tw = 0
    for ln in lines:
        segs = {}
        for c in range(n):
            sg = ln[o + c * p + inset: o + (c + 1) * p - far]
            if sg.min() == sg.max():
                continue
            k = sg.tobytes()
            segs[k] = segs.get(k, 0) + 1
        tw += sum(v for v in segs.values() if v >= 2)
    return tw


def find_lattice_centred(a, rows, cols, top=BOARD_TOP, bottom=None):
    """Fallback for tilesets whose art reaches the tile edges (no common margin): KShisen
    centres the board in its widget (board.cpp xOffset/yOffset), so for pitches (px, py) the
    origin is ((width - cols*px) / 2, top + (height - rows*py) / 2). The right pitches are
    those under which cells sampled at the same 6x6 relative points have pixel-identical
    twins (same-type tiles) for nearly every cell."""
    H, W, _ = a.shape
    bottom = H - BOARD_BOTTOM if bottom is None else bottom
    hb = bottom - top
    packed = (a[..., 0].astype(np.int64) << 16) | (a[..., 1].astype(np.int64) << 8) | a[..., 2]
    fr = np.array([0.15, 0.3, 0.45, 0.55, 0.7, 0.85])
    rr, cc = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    best = []
    for px in range(10, W // cols + 1):
        x0 = (W - cols * px) // 2
        xs = (x0 + cc[..., None] * px + np.floor(fr * px).astype(int)[None, None, :])  # R C 6
        for py in range(10, hb // rows + 1):
            y0 = top + (hb - rows * py) // 2
            ys = (y0 + rr[..., None] * py + np.floor(fr * py).astype(int)[None, None, :])
            smp = packed[ys[:, :, :, None], xs[:, :, None, :]].reshape(rows * cols, -1)
            var = smp.min(axis=1) != smp.max(axis=1)
            u, inv, cnt = np.unique(smp, axis=0, return_inverse=True, return_counts=True)
            tw = int(((cnt[inv.ravel()] >= 2) & var).sum())
            best.append((tw, px, py, x0, y0))
    best.sort(reverse=True)
    tw, px, py, x0, y0 = best[0]
    return x0, y0, px, py, best[:3]


MAX_LONE = 8  # cells allowed without a twin: KShisen's "Chinese style" (forced for the egypt
              # and alphabet tilesets) deals each season and flower once; they match as a group


def _twins(a, rows, cols, x0, y0, px, py, inset, far):
    blocks = cell_blocks(a, rows, cols, x0, y0, px, py, inset, far)
    keys = [b.tobytes() for b in blocks.reshape(rows * cols, -1)]
    cnt = {}
    for k in keys:
        cnt[k] = cnt.get(k, 0) + 1
    return sum(1 for k in keys if cnt[k] >= 2)


def find_lattice(a, rows, cols, top=0, bottom=None):
    """Lattice of a full deal: origin, pitch, and the block insets (near, far) to compare
    cells by. Margin method first; when it finds nothing (tile art reaching the edges), the
    centred fallback. Then the smallest inset under which (nearly) every cell has a
    pixel-identical twin: some tilesets (alphabet) leave a few edge pixels translucent, so the
    neighbours or background show through there."""
    n = rows * cols
    lat = None
    try:
        lat = find_lattice_margin(a, rows, cols, top, bottom)
        lat["method"] = "margin"
        if lat["twins"] < n - MAX_LONE:
            lat = None
    except ValueError:
        lat = None
    if lat is None:
        # the board widget's rows are fixed by KShisen's layout, whatever the caller passed
        x0, y0, px, py, best = find_lattice_centred(a, rows, cols)
        cands = []
        k = max(2, min(px, py) // 5)  # generous inset: robust to translucent tile edges
        for dx in (0, -1, 1, -2, 2):
            for dy in (0, -1, 1, -2, 2):
                tw = _twins(a, rows, cols, x0 + dx, y0 + dy, px, py, k, k)
                cands.append((tw, -abs(dx) - abs(dy), x0 + dx, y0 + dy))
        cands.sort(reverse=True)
        tw, _, bx, by = cands[0]
        lat = {"origin": [bx, by], "pitch": [px, py], "inset": 2, "twins": tw, "cells": n,
               "method": "centred", "candidates": best}
    px, py = lat["pitch"]
    # KShisen's own layout (board.cpp xOffset/yOffset: the board centred in its widget, the
    # widget spanning the client width and rows BOARD_TOP .. height-BOARD_BOTTOM) gives the
    # exact origin for the pitch found; the margin method measures it from the far edges,
    # which a tileset with translucent far edges (egypt) puts a pixel short. Both must agree
    # within 2 px; the layout's origin is the one written.
    H, W, _ = a.shape
    xc = (W - cols * px) // 2
    yc = BOARD_TOP + (H - BOARD_TOP - BOARD_BOTTOM - rows * py) // 2
    xm, ym = lat["origin"]
    lat["origin_measured"] = [xm, ym]
    if abs(xm - xc) > 2 or abs(ym - yc) > 2:
        raise ValueError("measured origin %s far from the centred layout's %s"
                         % ((xm, ym), (xc, yc)))
    x0, y0 = xc, yc
    lat["origin"] = [x0, y0]
    tries = [(lat["inset"], FAR)] + [(k, k) for k in range(max(lat["inset"], FAR) + 1,
                                                         max(4, min(px, py) // 4) + 1)]
    res = [(_twins(a, rows, cols, x0, y0, px, py, i, f), i, f) for i, f in tries]
    top_tw = max(t for t, _, _ in res)
    tw, i, f = next(r for r in res if r[0] == top_tw)
    lat.update({"twins": tw, "inset": i, "far": f})
    return lat


def find_lattice_margin(a, rows, cols, top=0, bottom=None):
    """(x0, y0, px, py) of a full deal. top/bottom: pixel rows bounding the board widget."""
    H, W, _ = a.shape
    bottom = H if bottom is None else bottom
    cy = (top + bottom) // 2
    cx = W // 2
    # thin bands surely inside the board (centred; it spans over half of each axis)
    hb = [_hashes(np.ascontiguousarray(a[y:y + 3].transpose(1, 0, 2)).reshape(W, -1))
          for y in range(cy - 60, cy + 60, 4)]
    vb = [_hashes(np.ascontiguousarray(a[top:bottom, x:x + 3]).reshape(bottom - top, -1))
          for x in range(cx - 100, cx + 100, 7)]
    xs = _axis(hb, cols, W)
    ys = _axis(vb, rows, bottom - top)
    if not xs or not ys:
        raise ValueError("no lattice found (x candidates %d, y candidates %d)" % (len(xs), len(ys)))
    cands = []
    for _, x0, px, ix in sorted(xs, reverse=True)[:6]:
        for _, y0, py, iy in sorted(ys, reverse=True)[:6]:
            y0a = y0 + top
            inset = max(ix, iy, 1) + 1
            blocks = cell_blocks(a, rows, cols, x0, y0a, px, py, inset)
            keys = [b.tobytes() for b in blocks.reshape(rows * cols, -1)]
            cnt = {}
            for k in keys:
                cnt[k] = cnt.get(k, 0) + 1
            twins = sum(1 for k in keys if cnt[k] >= 2)
            cands.append((twins, x0, y0a, px, py, inset))
    cands.sort(reverse=True)
    twins, x0, y0, px, py, inset = cands[0]
    return {"origin": [x0, y0], "pitch": [px, py], "inset": inset, "twins": twins,
            "cells": rows * cols, "candidates": cands[:3]}


FAR = 2  # lines left out at a block's far (right, bottom) edges


def cell_blocks(a, rows, cols, x0, y0, px, py, inset=0, far=FAR):
    """Array rows x cols x (py-inset-far) x (px-inset-far) x 3: each pitch-sized cell block
    without its first `inset` and last `far` columns and rows. A tile's anti-aliased near
    edges show what lies under them (background, or the 3-D side of the neighbour to the
    left/above), and its rounded far corners let a textured background through by a level."""
    out = np.empty((rows, cols, py - inset - far, px - inset - far, 3), dtype=np.uint8)
    for r in range(rows):
        for c in range(cols):
            out[r, c] = a[y0 + r * py + inset: y0 + (r + 1) * py - far,
                          x0 + c * px + inset: x0 + (c + 1) * px - far]
    return out


FACE_JITTER = 24  # see Game.__init__


def jitter_aliases(faces):
    """{letter: first letter} for faces (int16 arrays, LETTERS order) within FACE_JITTER of an
    earlier face on every pixel (linked in chains)."""
    alias = {}
    for j in range(len(faces)):
        for i in range(j):
            if faces[i].shape == faces[j].shape and \
                    int(np.abs(faces[i] - faces[j]).max()) <= FACE_JITTER:
                first = alias.get(LETTERS[i], LETTERS[i])
                alias[LETTERS[j]] = first
                break
    return alias


class Game:
    """Sprites and lattice of one running game (one window size, tileset, background)."""

    def __init__(self, full, rows, cols, top=0, bottom=None):
        self.rows, self.cols = rows, cols
        self.shape = full.shape
        lat = find_lattice(full, rows, cols, top, bottom)
        self.lattice = lat
        self.x0, self.y0 = lat["origin"]
        self.px, self.py = lat["pitch"]
        self.inset = lat["inset"]
        self.far = lat["far"]
        if lat["twins"] < rows * cols - MAX_LONE:
            raise ValueError("full deal: only %d of %d cells have a pixel-identical twin"
                             % (lat["twins"], rows * cols))
        self.sprites = {}   # bytes -> letter
        self.sprite_arr = []  # letter index -> block
        blocks = self.blocks(full)
        cells = []
        for r in range(rows):
            line = ""
            for c in range(cols):
                k = blocks[r, c].tobytes()
                if k not in self.sprites:
                    if len(self.sprites) >= len(LETTERS):
                        raise ValueError("more than %d types" % len(LETTERS))
                    self.sprites[k] = LETTERS[len(self.sprites)]
                    self.sprite_arr.append(blocks[r, c].astype(np.int16))
                line += self.sprites[k]
            cells.append(line)
        # Faces that differ by at most FACE_JITTER in every pixel are one face the game drew
        # twice with a little rendering jitter (egypt: up to 1761 pixels of a face differ,
        # none by more than 24; distinct faces differ by more than 24 in 72 pixels and up;
        # alphabet: two faces 3 pixels apart by one level). Their counts only pair up
        # together (1 + 1 + 2 of one face on a deal), so the game matches them: one type.
        self.alias = jitter_aliases(self.sprite_arr)
        cells = [self.unalias(line) for line in cells]
        self.full_cells = cells
        counts = {}
        for ch in "".join(cells):
            counts[ch] = counts.get(ch, 0) + 1
        odd = sorted(t for t, n in counts.items() if n % 2)
        if len(odd) > MAX_LONE:
            raise ValueError("odd type counts on the full deal: %s" % odd)
        # faces dealt an odd number of times: only with KShisen's Chinese style (seasons and
        # flowers, each drawn differently, match within their group)
        self.odd_types = odd
        self.counts = counts
        self.fit_min = 0.95     # share of a selected block's pixels the tint model must fit
        self.ublank = None
        self.last_sel_stats = None

    def blocks(self, a):
        if a.shape != self.shape:
            raise ValueError("frame size %s differs from the game's %s" % (a.shape, self.shape))
        return cell_blocks(a, self.rows, self.cols, self.x0, self.y0, self.px, self.py,
                           self.inset, self.far)

    def read(self, a):
        """cells (list of row strings), selected [[r,c]...], unknown [[r,c]...]."""
        blocks = self.blocks(a)
        cells, selected, unknown = [], [], []
        for r in range(self.rows):
            line = ""
            for c in range(self.cols):
                b = blocks[r, c]
                k = b.tobytes()
                t = self.sprites.get(k)
                if t is not None:
                    line += t
                    continue
                t = self._selected_type(b)
                if t is not None:
                    line += t
                    selected.append([r, c])
                    continue
                line += "."
                if self._tile_like(b):
                    unknown.append([r, c])
            cells.append(self.unalias(line))
        return cells, selected, unknown

    def unalias(self, line):
        """`line` with every jittered copy of a face named as the face's first letter."""
        return "".join(self.alias.get(ch, ch) for ch in line)

    # ---- selected tiles ----------------------------------------------------------------
    # KShisen draws a tile as blank pixmap + face pixmap (with alpha) on top; a selected tile
    # uses another (yellow) blank. Per pixel: unselected U = a*F + (1-a)*Ublank, selected
    # S = a*F + (1-a)*Sblank, so S - U = k * (Sblank - Ublank) with k = 1-a in [0, 1].
    # Ublank is the per-pixel mode of all sprites (faces leave most of the blank bare);
    # Sblank is learnt from selected samples (a tile the harness clicked) where that sample's
    # face is bare (its sprite equals Ublank there). A block that is no sprite is a selected
    # tile of type t when (nearly) all its pixels fit U_t + k*(Sblank - Ublank).

    def _ublank(self):
        if getattr(self, "ublank", None) is None:
            st = np.stack(self.sprite_arr).astype(np.int32)  # T x h x w x 3
            packed = (st[..., 0] << 16) | (st[..., 1] << 8) | st[..., 2]
            T, h, w = packed.shape
            flat = packed.reshape(T, -1)
            mode = np.empty(flat.shape[1], dtype=np.int32)
            for j in range(flat.shape[1]):
                vals, cnt = np.unique(flat[:, j], return_counts=True)
                mode[j] = vals[np.argmax(cnt)]
            mode = mode.reshape(h, w)
            self.ublank = np.stack([(mode >> 16) & 255, (mode >> 8) & 255, mode & 255],
                                   axis=-1).astype(np.int16)
            self.sblank = np.zeros_like(self.ublank)
            self.scovered = np.zeros(mode.shape, dtype=bool)
        return self.ublank

    def learn_selected(self, block, letter):
        """Add a selected sample (block of a tile of type `letter`, known selected)."""
        ub = self._ublank()
        s = self.sprite_arr[LETTERS.index(letter)]
        bare = (s == ub).all(axis=2)
        b = block.astype(np.int16)
        self.sblank[bare] = b[bare]
        self.scovered |= bare
        return float(self.scovered.mean())

    def selected_scores(self, block):
        ub = self._ublank()
        cov = self.scovered
        if not cov.any():
            return []
        delta = (self.sblank - ub).astype(np.float32)[cov]          # P x 3
        dd = (delta * delta).sum(axis=1)
        b = block.astype(np.float32)[cov]
        self._resid = {}
        out = []
        for i, s in enumerate(self.sprite_arr):
            d = b - s.astype(np.float32)[cov]
            k = np.where(dd > 0, (d * delta).sum(axis=1) / np.maximum(dd, 1), 0.0)
            k = np.clip(k, 0.0, 1.0)
            resid = np.abs(d - k[:, None] * delta).max(axis=1)
            self._resid[i] = float(resid.sum())
            out.append((float((resid <= 4).mean()), i))
        out.sort(reverse=True)
        return out

    def _selected_type(self, b):
        """Best fit of the tint model; among near-equal fits (a strong tint lets a similar
        face fit too: egypt's season variants), the sprite with most pixel-identical pixels
        (the opaque face parts the tint leaves alone)."""
        sc = self.selected_scores(b)
        if not sc:
            self.last_sel_stats = None
            return None
        best, i = sc[0]
        close = [j for f, j in sc if f >= best - 0.01]
        bi = b.astype(np.int16)
        # most identical pixels first, then least residual (alphabet has two faces that
        # differ in 2 pixels by one level)
        eq = sorted(((int((bi == self.sprite_arr[j]).all(axis=2).sum()), -self._resid[j], j)
                     for j in close), reverse=True)
        far_second = next((f for f, j in sc if f < best - 0.01), 0.0)
        self.last_sel_stats = {"fit": round(best, 3), "close": len(close),
                               "second": round(far_second, 3),
                               "eq": [e for e, _, _ in eq[:2]],
                               "covered": round(float(self.scovered.mean()), 3)}
        # a clear winner (well above every other face) may fit less well: some tilesets
        # (alphabet over a textured background) leave parts of the blank translucent
        if not ((best >= self.fit_min and best - far_second >= 0.02)
                or (best >= 0.85 and best - far_second >= 0.1)):
            return None
        if len(eq) > 1 and eq[0][:2] == eq[1][:2]:
            return None
        return LETTERS[eq[0][2]]

    def _tile_like(self, b):
        """A block called empty although close to some sprite: flags an error."""
        bi = b.astype(np.int16)
        best = max(float((bi == s).all(axis=2).mean()) for s in self.sprite_arr)
        return best > 0.3

    def truth(self, cells, selected, kind="board", **extra):
        t = {"kind": kind, "rows": self.rows, "cols": self.cols,
             "origin": [self.x0, self.y0], "pitch": [self.px, self.py],
             "cells": cells, "selected": selected}
        if self.odd_types:
            # Chinese-style deal: these faces come an odd number of times; KShisen matches
            # seasons with seasons and flowers with flowers although their faces differ
            t["unpaired_types"] = self.odd_types
        if self.alias:
            # [jittered copy, face]: named as the face (see Game.__init__)
            t["merged_faces"] = sorted([k, v] for k, v in self.alias.items())
        t.update(extra)
        return t


def annotate(a, truth, out, scale=1):
    """Grid lines and type letters over the frame (red = selected, blue = empty)."""
    im = Image.fromarray(a).convert("RGB")
    d = ImageDraw.Draw(im)
    x0, y0 = truth["origin"]
    px, py = truth["pitch"]
    R, C = truth["rows"], truth["cols"]
    for r in range(R + 1):
        d.line([(x0, y0 + r * py), (x0 + C * px, y0 + r * py)], fill=(255, 0, 255))
    for c in range(C + 1):
        d.line([(x0 + c * px, y0), (x0 + c * px, y0 + R * py)], fill=(255, 0, 255))
    sel = {tuple(s) for s in truth.get("selected", [])}
    for r in range(R):
        for c in range(C):
            ch = truth["cells"][r][c]
            x, y = x0 + c * px + px // 2 - 4, y0 + r * py + py // 2 - 6
            col = (255, 0, 0) if (r, c) in sel else ((0, 0, 255) if ch == "." else (0, 0, 0))
            d.rectangle([x - 2, y - 1, x + 9, y + 12], fill=(255, 255, 255))
            d.text((x, y), ch, fill=col)
    im.save(out)


def verify(d):
    """Re-read every board frame of a corpus directory from its game's full deal (and learn
    the tint from its `sel` frame) and compare with the truth files. Prints one line per
    config; returns the number of mismatches."""
    import glob
    import os
    bad = 0
    fulls = sorted(glob.glob(os.path.join(d, "*-full.truth.json")))
    for ft in fulls:
        name = ft[:-len("-full.truth.json")]
        tf = json.load(open(ft))
        try:
            g = Game(load(name + "-full.png"), tf["rows"], tf["cols"])
        except ValueError as e:
            print("%s: lattice/types: %s" % (os.path.basename(name), e))
            bad += 1
            continue
        if g.full_cells != tf["cells"] or [g.x0, g.y0] != tf["origin"] or [g.px, g.py] != tf["pitch"]:
            print("%s: full deal reads differently" % os.path.basename(name))
            bad += 1
            continue
        if os.path.exists(name + "-sel.truth.json"):
            ts = json.load(open(name + "-sel.truth.json"))
            (r, c), = ts["selected"]
            g.learn_selected(g.blocks(load(name + "-sel.png"))[r, c], ts["cells"][r][c])
        ok = unsure = 0
        for t in sorted(glob.glob(name + "-*.truth.json")):
            tj = json.load(open(t))
            if t == ft or tj["kind"] == "no-board":
                continue
            a = load(t[:-len(".truth.json")] + ".png")
            cells, sel, unknown = g.read(a)
            want = [list(x) for x in tj["selected"]]
            if tj["kind"] == "animation":
                red = (a[..., 0] == 255) & (a[..., 1] == 0) & (a[..., 2] == 0)
                redc = cell_blocks(red[..., None].repeat(3, axis=2).astype(np.uint8), g.rows,
                                   g.cols, g.x0, g.y0, g.px, g.py, g.inset, g.far)
                diff = [(r, c) for r in range(g.rows) for c in range(g.cols)
                        if cells[r][c] != tj["cells"][r][c] and not redc[r, c].any()
                        and [r, c] not in want]
                good = not diff
            else:
                # a selected tile the one-sample tint model cannot place is "unsure", not wrong
                diff = [(r, c) for r in range(g.rows) for c in range(g.cols)
                        if cells[r][c] != tj["cells"][r][c]]
                if all([r, c] in want and cells[r][c] == "." for r, c in diff) and diff:
                    unsure += 1
                    continue
                good = not diff and sorted(sel) == sorted(want)
            if good:
                ok += 1
            else:
                bad += 1
                print("%s: MISMATCH %s" % (os.path.basename(t), diff[:5]))
        print("%s: %d frames re-read equal%s" % (os.path.basename(name), ok,
                                                 ", %d selected tile(s) unsure" % unsure if unsure else ""))
    return bad


def remerge(d):
    """Rewrites the truth files of a corpus directory made before jittered faces were merged
    (see Game.__init__): each config's full deal gives its aliases, applied to every frame's
    cells. Returns the number of files changed."""
    import glob
    import os
    changed = 0
    for ft in sorted(glob.glob(os.path.join(d, "*-full.truth.json"))):
        name = ft[:-len("-full.truth.json")]
        tf = json.load(open(ft))
        g = Game(load(name + "-full.png"), tf["rows"], tf["cols"])
        if not g.alias:
            continue
        for t in sorted(glob.glob(name + "-*.truth.json")):
            tj = json.load(open(t))
            if "cells" not in tj:
                continue
            new = dict(tj, cells=[g.unalias(line) for line in tj["cells"]])
            new.pop("near_duplicate_types", None)
            new.pop("unpaired_types", None)
            if g.odd_types:
                new["unpaired_types"] = g.odd_types
            new["merged_faces"] = sorted([k, v] for k, v in g.alias.items())
            if new != tj:
                with open(t, "w") as f:
                    json.dump(new, f, indent=1)
                    f.write("\n")
                changed += 1
        print("%s: merged %s" % (os.path.basename(name), g.alias))
    return changed


def main(argv):
    if len(argv) >= 4 and argv[1] == "lattice":
        a = load(argv[2])
        size = int(argv[3])
        cols, rows = SIZES[size]
        print(json.dumps(find_lattice(a, rows, cols)))
    elif len(argv) >= 3 and argv[1] == "remerge":
        print("%d truth files changed" % remerge(argv[2]))
    elif len(argv) >= 3 and argv[1] == "verify":
        return 1 if verify(argv[2]) else 0
    elif len(argv) >= 4 and argv[1] == "annotate":
        a = load(argv[2])
        t = json.load(open(argv[3]))
        annotate(a, t, argv[4] if len(argv) > 4 else argv[2].replace(".png", ".annot.png"))
    else:
        print("usage: kshisen_truth.py lattice FRAME.png SIZE | annotate FRAME.png TRUTH.json [OUT.png]"
              " | verify CORPUS_DIR | remerge CORPUS_DIR",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
