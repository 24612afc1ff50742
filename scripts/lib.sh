# Shared by scripts/demo and scripts/test: install what llk needs, and give it a display.
# Sourced, not run.

# System packages: the -dev libraries xcap links against (its Wayland/PipeWire code is not
# optional), and a virtual X display with an EWMH window manager (xcap finds no window
# without one) for machines that have no screen.
LLK_PACKAGES="pkg-config gcc libclang-dev libpipewire-0.3-dev libegl-dev libgbm-dev libxcb1-dev
  libx11-dev libxkbcommon-dev libwayland-dev xvfb xauth openbox x11-utils"

# The install and build steps print one line each; their whole output (apt's, dpkg's,
# cargo's) goes to one log file per run, made by the first step that runs, under
# ${TMPDIR:-/tmp}. A step that fails prints the log's path and its last 30 lines.
LLK_SETUP_LOG=""

# llk_step LINE COMMAND [ARGS...]: prints "llk: LINE (log: FILE)", runs COMMAND with its
# output appended to the log, and returns its status (safe under `set -e`).
llk_step() {
    local line="$1"
    shift
    if [ -z "$LLK_SETUP_LOG" ]; then
        LLK_SETUP_LOG=$(mktemp "${TMPDIR:-/tmp}/llk-setup.XXXXXX.log") || {
            echo "llk: cannot create a log file in ${TMPDIR:-/tmp}" >&2
            return 1
        }
    fi
    echo "llk: $line (log: $LLK_SETUP_LOG)"
    echo "== $(date '+%F %T') $line: $*" >>"$LLK_SETUP_LOG"
    local rc=0
    "$@" >>"$LLK_SETUP_LOG" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        {
            echo "llk: failed (exit $rc): $line; the last 30 lines of $LLK_SETUP_LOG:"
            tail -n 30 "$LLK_SETUP_LOG" | sed 's/^/    /'
            echo "llk: the whole log: $LLK_SETUP_LOG"
        } >&2
    fi
    return "$rc"
}

# Builds the release binary (target/release/llk) as one step.
llk_build() {
    llk_step "building llk with cargo build --release, minutes the first time" \
        cargo build --release --locked
}

llk_install() {
    llk_apt_ensure $LLK_PACKAGES || exit 1
    command -v cargo >/dev/null || {
        # rustup's default location, when the shell that called us did not source it.
        [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
        command -v cargo >/dev/null || { echo "llk: cargo not found: install Rust (rustup) first" >&2; exit 1; }
    }
}

# xcap and minifb take Wayland paths when these are set, and fail without a compositor.
unset WAYLAND_DISPLAY XDG_SESSION_TYPE

LLK_XVFB_PID=""
LLK_WM_PID=""

llk_stop_display() {
    [ -n "$LLK_WM_PID" ] && kill "$LLK_WM_PID" 2>/dev/null
    [ -n "$LLK_XVFB_PID" ] && kill "$LLK_XVFB_PID" 2>/dev/null
    true
}

# Use the display we have if it answers; otherwise start Xvfb + openbox on a free one.
llk_display() {
    if [ -n "${DISPLAY:-}" ] && xdpyinfo >/dev/null 2>&1; then
        echo "llk: using display $DISPLAY"
        return
    fi
    local n=99
    while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
    export DISPLAY=":$n"
    echo "llk: starting a virtual display $DISPLAY (Xvfb + openbox)"
    # -noreset: without it openbox sometimes failed to start.
    Xvfb "$DISPLAY" -screen 0 1600x1200x24 -noreset -nolisten tcp >/tmp/llk-xvfb-$n.log 2>&1 &
    LLK_XVFB_PID=$!
    trap llk_stop_display EXIT
    for _ in $(seq 1 100); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
    xdpyinfo >/dev/null 2>&1 || { echo "llk: Xvfb did not start (see /tmp/llk-xvfb-$n.log)" >&2; exit 1; }
    openbox >/tmp/llk-openbox-$n.log 2>&1 &
    LLK_WM_PID=$!
    # Windows mapped before the window manager is fully up were sometimes never managed.
    for _ in $(seq 1 50); do
        xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id" && break
        sleep 0.1
    done
    sleep 1
}

# ---------------------------------------------------------------------------------------------
# Real third-party games for live tests and fixture capture (KShisen, KDE's Shisen-Sho;
# xshisen, Shisen-Sho for X11). See fixtures/kshisen/README.md and fixtures/xshisen/README.md.
# Nothing above changes when these are unused.

# kshisen exits at once without a D-Bus session bus (dbus-run-session, from dbus-x11);
# xdotool clicks, xwd (x11-apps) captures a window independently of llk, xwininfo/xprop
# (x11-utils) find it; the xshisen scripts read captures with python3's numpy and pillow;
# shisensho (a tkinter game from PyPI, see llk_shisensho_game) runs on the system's python3
# with tk and pillow's ImageTk, and pip fetches it.
LLK_GAME_PACKAGES="kshisen xshisen dbus-x11 xdotool x11-apps x11-utils python3-numpy python3-pil python3-tk python3-pil.imagetk python3-pip"

# Install the packages named in $@ that dpkg does not list as installed (apt-get, with sudo
# when not root), as one step (see llk_step); nothing to install runs nothing and prints
# nothing.
llk_apt_ensure() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || { echo "llk: need root or sudo to install: ${missing[*]}" >&2; return 1; }
        sudo="sudo"
    fi
    llk_step "installing ${#missing[@]} system packages: ${missing[*]}" \
        llk_apt_install "$sudo" "${missing[@]}"
}

# llk_apt_install SUDO PACKAGES...: apt-get update, then install (SUDO is "sudo" or "").
llk_apt_install() {
    local sudo="$1"
    shift
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# The games the live tests drive (KShisen binary: /usr/games/kshisen, not on PATH).
llk_install_games() {
    llk_apt_ensure $LLK_GAME_PACKAGES
}

# shisensho 0.9.12, a Shisen-Sho in Python and tkinter from PyPI (fixtures/shisensho):
# fetched once with the system's pip into llk's cache folder, checked against its sha256,
# unpacked. Prints the game's package folder (what scripts/shisensho_harness.py runs).
LLK_SHISENSHO_SHA256=5957749c0342976b2465329e01820f537b4239d7885cd33ccef9fdd19639105a
llk_shisensho_game() {
    local cache="${LLK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/llk}/games"
    local tgz="$cache/shisensho-0.9.12.tar.gz"
    if [ ! -f "$cache/shisensho-0.9.12/shisensho/window.py" ]; then
        mkdir -p "$cache" || return 1
        [ -f "$tgz" ] || /usr/bin/python3 -m pip download --quiet --disable-pip-version-check \
            --no-deps --no-binary :all: shisensho==0.9.12 -d "$cache" >&2 || {
            echo "llk: could not fetch shisensho 0.9.12 from PyPI" >&2
            return 1
        }
        echo "$LLK_SHISENSHO_SHA256  $tgz" | sha256sum --check --quiet >&2 || {
            echo "llk: $tgz is not shisensho 0.9.12 as published (sha256 differs)" >&2
            rm -f "$tgz"
            return 1
        }
        tar xzf "$tgz" -C "$cache" || return 1
    fi
    echo "$cache/shisensho-0.9.12/shisensho"
}

# The Python that the game scripts run: the first of `python3` and the system's
# /usr/bin/python3 that imports numpy and PIL. python3-numpy and python3-pil install into
# the system's Python; a python3 found earlier on PATH (pyenv's, a virtualenv's) may lack
# them. Prints its path; fails, naming the packages, when neither has them.
llk_python() {
    local p
    for p in python3 /usr/bin/python3; do
        if command -v "$p" >/dev/null && "$p" -c "import numpy, PIL" 2>/dev/null; then
            command -v "$p"
            return 0
        fi
    done
    echo "llk: no python3 with numpy and pillow (apt-get install python3-numpy python3-pil)" >&2
    return 1
}

LLK_KSHISEN_BIN=/usr/games/kshisen
LLK_KSHISEN_WID=""   # X window id (client area, 900x754 by default) once started
LLK_KSHISEN_PGID=""  # process group of dbus-run-session + kshisen
LLK_KSHISEN_DIR=""   # private XDG_CONFIG_HOME / XDG_RUNTIME_DIR parent

# The id of the kshisen main window (class "kshisen", not the 1x1 helper nor the
# "Qt Selection Owner" window), among the windows of process $1; empty when not mapped yet.
llk_kshisen_window() {
    local pid="$1" w
    for w in $(xdotool search --onlyvisible --pid "$pid" --class kshisen 2>/dev/null); do
        xwininfo -id "$w" 2>/dev/null | grep -q "Map State: IsViewable" || continue
        local wh
        wh=$(xwininfo -id "$w" 2>/dev/null | awk '/Width:/{w=$2} /Height:/{h=$2} END{print w*h}')
        [ "${wh:-0}" -gt 10000 ] && { printf '0x%x\n' "$w"; return 0; }
    done
    return 1
}

# llk_kshisen_start SIZE GRAVITY TILESET BACKGROUND SPEED [EXTRA_GAME_KEYS...]
#   SIZE 0..5 (14x6 16x9 18x8 24x12 26x14 30x16), GRAVITY true|false, TILESET and BACKGROUND
#   names from /usr/share/kmahjongglib/{tilesets,backgrounds} (e.g. default, classic,
#   color_plain) or full .desktop paths, SPEED 0..4 (link shown 1000/750/500/250/125 ms).
#   EXTRA_GAME_KEYS: more "Key=value" lines for [Game] (e.g. ChineseStyle=true).
#   Env LLK_KSHISEN_GEOMETRY=WxH resizes the window (default 900x754).
# Starts KShisen with a fresh private config (Solvable=true, Sounds=false) on $DISPLAY, waits
# until its window is mapped and the board drawn, exports LLK_KSHISEN_WID (and _PGID, _DIR)
# and prints the window id.
llk_kshisen_start() {
    local size="$1" gravity="$2" tileset="$3" background="$4" speed="$5"
    shift 5
    # one game at a time per shell: a second window would be placed over the first
    [ -n "$LLK_KSHISEN_PGID" ] && llk_kshisen_stop
    local libdir=/usr/share/kmahjongglib
    case "$tileset" in /*) ;; *) tileset="$libdir/tilesets/$tileset.desktop" ;; esac
    case "$background" in /*) ;; *) background="$libdir/backgrounds/$background.desktop" ;; esac
    [ -f "$tileset" ] || { echo "llk: no tileset $tileset" >&2; return 1; }
    [ -f "$background" ] || { echo "llk: no background $background" >&2; return 1; }
    LLK_KSHISEN_DIR=$(mktemp -d /tmp/llk-kshisen.XXXXXX)
    mkdir -p "$LLK_KSHISEN_DIR/config" "$LLK_KSHISEN_DIR/run"
    chmod 700 "$LLK_KSHISEN_DIR/run"
    {
        echo "[General]"
        echo "Tileset_file=$tileset"
        echo "Background_file=$background"
        echo "[Game]"
        echo "Size=$size"
        echo "Gravity=$gravity"
        echo "Solvable=true"
        echo "Sounds=false"
        echo "Speed=$speed"
        local kv
        for kv in "$@"; do echo "$kv"; done
    } > "$LLK_KSHISEN_DIR/config/kshisenrc"
    # setsid: its own process group, so llk_kshisen_stop ends dbus-run-session, its bus
    # daemon and kshisen together and nothing else.
    XDG_CONFIG_HOME="$LLK_KSHISEN_DIR/config" XDG_RUNTIME_DIR="$LLK_KSHISEN_DIR/run" \
        setsid dbus-run-session -- "$LLK_KSHISEN_BIN" >"$LLK_KSHISEN_DIR/log" 2>&1 &
    LLK_KSHISEN_PGID=$!
    local kpid="" wid="" i
    for i in $(seq 1 200); do
        [ -z "$kpid" ] && kpid=$(pgrep -g "$LLK_KSHISEN_PGID" -x kshisen | head -1)
        [ -n "$kpid" ] && wid=$(llk_kshisen_window "$kpid") && break
        kill -0 "$LLK_KSHISEN_PGID" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$wid" ]; then
        echo "llk: kshisen window did not appear (log: $LLK_KSHISEN_DIR/log)" >&2
        llk_kshisen_stop
        return 1
    fi
    # On top, and wholly on the screen (covered or off-screen parts capture black).
    xdotool windowraise "$wid" 2>/dev/null
    local ax ay aw ah rw rh
    read -r ax ay aw ah < <(xwininfo -id "$wid" | awk '/Absolute upper-left X/{x=$4} /Absolute upper-left Y/{y=$4} /Width:/{w=$2} /Height:/{h=$2} END{print x, y, w, h}')
    read -r rw rh < <(xwininfo -root | awk '/Width:/{w=$2} /Height:/{h=$2} END{print w, h}')
    if [ "$ax" -lt 0 ] || [ "$ay" -lt 0 ] || [ $((ax + aw)) -gt "$rw" ] || [ $((ay + ah)) -gt "$rh" ]; then
        xdotool windowmove "$wid" 0 0 2>/dev/null
        sleep 0.3
    fi
    # LLK_KSHISEN_GEOMETRY=WxH: resize the window (the board scales its tiles to fit), to read
    # tiles of other sizes than the default window gives.
    if [ -n "${LLK_KSHISEN_GEOMETRY:-}" ]; then
        xdotool windowsize "$wid" "${LLK_KSHISEN_GEOMETRY%x*}" "${LLK_KSHISEN_GEOMETRY#*x}" 2>/dev/null
        xdotool windowmove "$wid" 0 0 2>/dev/null
        sleep 0.5
        read -r aw ah < <(xwininfo -id "$wid" | awk '/Width:/{w=$2} /Height:/{h=$2} END{print w, h}')
    fi
    # Drawn: two captures of the window 300 ms apart agree (the status-bar clock aside: the
    # dump's rows run top to bottom, so its first 90% leaves the status bar out).
    local prev="" cur part=$((aw * ah * 4 * 9 / 10))
    for i in $(seq 1 50); do
        sleep 0.3
        cur=$(xwd -id "$wid" -silent 2>/dev/null | head -c "$part" | md5sum)
        [ -n "$prev" ] && [ "$cur" = "$prev" ] && break
        prev="$cur"
    done
    export LLK_KSHISEN_WID="$wid" LLK_KSHISEN_PGID LLK_KSHISEN_DIR
    echo "$wid"
}

# Ends the KShisen started by llk_kshisen_start (its process group only) and removes its
# config dir.
llk_kshisen_stop() {
    if [ -n "$LLK_KSHISEN_PGID" ]; then
        kill -- "-$LLK_KSHISEN_PGID" 2>/dev/null
        for _ in $(seq 1 30); do kill -0 -- "-$LLK_KSHISEN_PGID" 2>/dev/null || break; sleep 0.1; done
        kill -9 -- "-$LLK_KSHISEN_PGID" 2>/dev/null
    fi
    [ -n "$LLK_KSHISEN_DIR" ] && rm -rf "$LLK_KSHISEN_DIR"
    LLK_KSHISEN_PGID="" LLK_KSHISEN_WID="" LLK_KSHISEN_DIR=""
    true
}
