# Shared by scripts/demo and scripts/test: install what llk needs, and give it a display.
# Sourced, not run.

# System packages: the -dev libraries xcap links against (its Wayland/PipeWire code is not
# optional), and a virtual X display with an EWMH window manager (xcap finds no window
# without one) for machines that have no screen.
LLK_PACKAGES="pkg-config gcc libclang-dev libpipewire-0.3-dev libegl-dev libgbm-dev libxcb1-dev
  libx11-dev libxkbcommon-dev libwayland-dev xvfb xauth openbox x11-utils"

llk_install() {
    local missing=()
    for p in $LLK_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "llk: installing system packages: ${missing[*]}"
        local sudo=""
        if [ "$(id -u)" != 0 ]; then
            command -v sudo >/dev/null || { echo "llk: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
            sudo="sudo"
        fi
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
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
