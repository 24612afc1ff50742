"""Capture frames of the PyPI game `shisensho` with truth from the game's own state
(scripts/shisensho_harness.py): the full deal, three mid-game boards, one with a tile
selected, one with a removal's link line drawn (`animation`). Pairs are played at random
among those the game's own rule accepts; clicks with xdotool, frames with xwd.

usage: SHS_GAME=DIR shisensho_drive.py DISPLAY OUTDIR SEED DIM TAG   (DIM e.g. 14x6)
"""
import sys, os, json, time, subprocess, random, signal
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kshisen_drive import capture, geometry
from PIL import Image
disp, out, seed, dim, tag = sys.argv[1:6]
seed = int(seed); os.makedirs(out, exist_ok=True)
os.environ['DISPLAY'] = disp  # for xwd in kshisen_drive.capture
env = dict(os.environ, DISPLAY=disp, SHS_SEED=str(seed), SHS_DIM=dim,
           SHS_STATE=os.path.join(out, f'.state-{tag}-{seed}.json'))
STATE = env['SHS_STATE']
if os.path.exists(STATE): os.remove(STATE)
HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'shisensho_harness.py')
proc = subprocess.Popen(['/usr/bin/python3', HARNESS], env=env,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def sh(*a): return subprocess.run(list(a), env=env, capture_output=True, text=True).stdout
def state():
    for _ in range(50):
        try: return json.load(open(STATE))
        except Exception: time.sleep(0.1)
    raise SystemExit('no state')
for _ in range(100):
    if os.path.exists(STATE): break
    time.sleep(0.1)
time.sleep(1.0)
wid = sh('xdotool', 'search', '--name', 'Shisen Sho').split()
wid = [w for w in wid if 'Shisen' in sh('xdotool', 'getwindowname', w)
       and 'IsViewable' in sh('xwininfo', '-id', w)][-1]
rnd = random.Random(seed * 7 + 1)
def cell_abs(st, r, c):
    (tw, th), (ox, oy), (cx, cy) = st['tile_size'], st['offset'], st['canvas_root']
    return cx + ox + c * tw + tw // 2, cy + oy + r * th + th // 2
def click(st, r, c):
    x, y = cell_abs(st, r, c)
    sh('xdotool', 'mousemove', str(x), str(y), 'click', '1')
    # the pointer stays off the board between clicks (no hover state here, but keep frames clean)
letters = {}
def truth(st, kind, name, pair=None):
    g = geometry(wid); wx, wy = g['x'], g['y']
    (tw, th), (ox, oy), (cx, cy) = st['tile_size'], st['offset'], st['canvas_root']
    names = sorted({n for row in st['cells'] for n in row if n})
    for n in names:
        if n not in letters: letters[n] = chr(ord('A') + len(letters)) if len(letters) < 26 else chr(ord('a') + len(letters) - 26)
    cells = [''.join(letters[n] if n else '.' for n in row) for row in st['cells']]
    t = dict(kind=kind, rows=len(cells), cols=len(cells[0]), origin=[cx + ox - wx, cy + oy - wy],
             pitch=[tw, th], cells=cells, game='shisensho (PyPI 0.9.12)', seed=seed, dim=dim)
    if st.get('selected'): t['selected'] = [st['selected']]
    if pair: t['pair'] = pair; t['selected'] = pair
    a = capture(wid)
    Image.fromarray(a).save(f'{out}/{name}.png')
    json.dump(t, open(f'{out}/{name}.truth.json', 'w'), indent=1)
    print(name, kind, t['rows'], 'x', t['cols'], 'tiles', sum(ch != '.' for r in cells for ch in r))
base = f'shs-{tag}-{dim}-s{seed}'
sh('xdotool', 'mousemove', '1', '1')
st = state(); truth(st, 'board', base + '-full')
total = sum(1 for row in st['cells'] for n in row if n)
moves = 0
mids = sorted(rnd.sample(range(2, max(3, total // 2 - 1)), k=min(3, max(1, total // 2 - 3))))
anim_at = rnd.randrange(1, max(2, total // 2 - 1)); sel_at = rnd.randrange(1, max(2, total // 2 - 1))
while True:
    st = state()
    if not st['pairs'] or st['status'] != 'run': break
    (r1, c1), (r2, c2) = rnd.choice(st['pairs'])
    if moves == sel_at:
        click(st, r1, c1); sh('xdotool', 'mousemove', '1', '1'); time.sleep(0.4)
        st2 = state(); truth(st2, 'board', f'{base}-mid{moves:02d}sel')
    else:
        click(st, r1, c1); time.sleep(0.15)
    click(st, r2, c2)
    if moves == anim_at:
        sh('xdotool', 'mousemove', '1', '1')
        a_st = dict(st, selected=None); truth(a_st, 'animation', f'{base}-anim{moves:02d}', pair=[[r1, c1], [r2, c2]])
    sh('xdotool', 'mousemove', '1', '1')
    time.sleep(0.8)
    moves += 1
    st = state()
    if moves in mids and any(n for row in st['cells'] for n in row):
        truth(st, 'board', f'{base}-mid{moves:02d}')
proc.send_signal(signal.SIGTERM); proc.wait()
os.remove(STATE)
