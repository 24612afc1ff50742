"""Run the PyPI game `shisensho` (a tkinter Shisen-Sho) and write its own board state as JSON
every 100 ms: the truth for scripts/shisensho_drive.py, read from the game, never from llk.

Environment: SHS_GAME the game's package folder (from `pip download --no-deps
shisensho==0.9.12`, unpacked: .../shisensho-0.9.12/shisensho), SHS_SEED the seed of Python's
random (the deal and the wallpaper), SHS_DIM the board (columns x rows, e.g. 14x6; the game
offers 14x6, 10x4 and 4x2), SHS_STATE where the state goes. Needs python3-tk and
python3-pil.imagetk.
"""
import sys, json, os, random
GAME = os.environ['SHS_GAME']
# The state's path is taken before the game's own folder becomes the working one (the game
# opens its data files by relative paths).
STATE = os.path.abspath(os.environ['SHS_STATE'])
sys.path.insert(0, GAME); os.chdir(GAME)
seed = int(os.environ.get('SHS_SEED', '0')); random.seed(seed)
import configShisen as CS
_load = CS.configShisen.load
def load(item):
    if item == 'initial-dim' and os.environ.get('SHS_DIM'):
        return [int(v) for v in os.environ['SHS_DIM'].split('x')]
    return _load(item)
CS.configShisen.load = load
import window as W
from matchTiles import matchTiles
holder = {}
orig = W.window.createMenu
def createMenu(self, Board):
    holder['b'] = Board; holder['w'] = self
    orig(self, Board)
    self.root.after(300, dump)
W.window.createMenu = createMenu
# the board's click handler object is created per load; capture it to know the selection
import boardEvent as BE
oinit = BE.boardEvent.__init__
def binit(self, gb):
    oinit(self, gb); holder['ev'] = self
BE.boardEvent.__init__ = binit
def dump():
    b = holder['b']; w = holder['w']
    try:
        tiles = b.tiles
        names = sorted({t.name for row in tiles for t in row})
        cells = [[t.name if t.status == 'busy' else None for t in row] for row in tiles]
        ev = holder.get('ev'); sel = ev.tile_selec_1st if ev else None
        busy = [t for row in tiles for t in row if t.status == 'busy']
        pairs = []
        for i, a in enumerate(busy):
            for c in busy[i + 1:]:
                if a.name == c.name and matchTiles().positionMatch(a, c, b):
                    pairs.append([[a.position[1], a.position[0]], [c.position[1], c.position[0]]])
        st = dict(pairs=pairs, dim=b.dimension, tile_size=b.tile_size, offset=b.offset_size,
                  canvas_root=[b.canvas.winfo_rootx(), b.canvas.winfo_rooty()],
                  cells=cells, selected=[sel.position[1], sel.position[0]] if sel else None,
                  status=b.status, wallpaper=getattr(b, 'wall', None))
        tmp = STATE + '.tmp'; json.dump(st, open(tmp, 'w')); os.replace(tmp, STATE)
    except Exception as e:
        print('dump failed', e, file=sys.stderr)
    w.root.after(100, dump)
w = W.window()
w.start()
