#!/usr/bin/env bash
# Proves that the clscope .deb installs on a clean Debian 12 (bookworm) and that the app starts from its
# menu entry, as a new user would. Run as root; see docs/packaging.md for what it checks.
#
#   packaging/test-deb-install.sh [CHROOT_DIR] [DEB]
#
# CHROOT_DIR (default /tmp/clscope-chroot) holds:
#   base/   a debootstrap --variant=minbase bookworm root, made once and then reused read-only;
#   run/    this run's root: a fresh overlay on base/ (a full copy where overlayfs is missing),
#           deleted at the end unless KEEP_RUN=1, so every run installs into an untouched system;
#   cache/  apt's downloaded .debs, kept so that re-runs do not fetch them again;
#   out/    the results: screenshots, logs, clscope-cli JSON, summary.txt (OUT_DIR overrides it).
# DEB defaults to the newest clscope_*.deb in /tmp/debout or build/*/.
# The mirror is the one the host's apt uses for 'bookworm main' (MIRROR=... overrides it).
#
# Everything runs in private mount and PID namespaces (unshare): the mounts (/proc, /sys, /dev, /dev/pts,
# /dev/shm, the apt cache) are also unmounted by an exit trap, and no process (Xvfb, the app) outlives it.
set -Eeuo pipefail

log() { printf '\n== %s\n' "$*"; }
ok() {
    printf 'PASS: %s\n' "$*"
    [ -z "${OUT:-}" ] || printf 'PASS: %s\n' "$*" >>"$OUT/summary.txt"
}
fail() {
    printf '\nFAIL: %s\n' "$*" >&2
    [ -z "${OUT:-}" ] || [ ! -d "$OUT" ] || printf 'FAIL: %s\n' "$*" >>"$OUT/summary.txt"
    exit 1
}
trap 'printf "\nFAIL: command failed (exit %s) at line %s: %s\n" "$?" "$LINENO" "$BASH_COMMAND" >&2' ERR

[ "$(id -u)" -eq 0 ] || fail "run as root: debootstrap, chroot and mount need it"
self=$(readlink -f "${BASH_SOURCE[0]}")
repo=$(cd "$(dirname "$self")/.." && pwd)

if [ -z "${CLSCOPE_TEST_NS:-}" ]; then
    for tool in debootstrap unshare chroot dpkg-deb apt-get; do
        command -v "$tool" >/dev/null || fail "'$tool' is missing on the host (apt-get install debootstrap util-linux)"
    done
    exec unshare --mount --pid --fork --mount-proc --propagation private \
        env CLSCOPE_TEST_NS=1 "$self" "$@"
fi

# ---------------------------------------------------------------------------------------------- settings
DIR=$(readlink -m "${1:-/tmp/clscope-chroot}")
case "$DIR" in / | /bin | /boot | /dev | /etc | /home | /lib* | /proc | /root | /run | /sbin | /sys | /tmp | /usr | /var)
    fail "refusing to use $DIR as the chroot folder" ;;
esac
BASE=$DIR/base
RUN=$DIR/run
R=$RUN/root
CACHE=$DIR/cache
OUT=$(readlink -m "${OUT_DIR:-$DIR/out}")
SUITE=bookworm
ARCH=$(dpkg --print-architecture)
TESTUSER=clsuser
# Needed only by this test, installed after the package so that they cannot satisfy its dependencies.
TEST_TOOLS=(xvfb xauth x11-utils xdg-utils libfile-mimeinfo-perl desktop-file-utils appstream jq file)

if [ -n "${2:-}" ]; then
    DEB=$(readlink -f "$2")
else
    DEB=$(ls -t /tmp/debout/clscope_*.deb "$repo"/build/*/clscope_*.deb 2>/dev/null | head -n 1 || true)
fi
[ -n "$DEB" ] && [ -f "$DEB" ] ||
    fail "no clscope .deb found: make one (cd build/dev && cpack -G DEB -B /tmp/debout) or pass it as 2nd argument"
deb_arch=$(dpkg-deb -f "$DEB" Architecture)
[ "$deb_arch" = "$ARCH" ] || [ "$deb_arch" = all ] || fail "$DEB is for $deb_arch, this host is $ARCH"

# The mirror and the suites the host's apt uses (sources.list or deb822 .sources alike).
host_targets=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT) $(TARGET_OF)' \
    'Identifier: Packages' 2>/dev/null | sort -u || true)
MIRROR=${MIRROR:-$(awk -v s="$SUITE" '$2 == s && $3 == "main" && $4 == "deb" { print $1; exit }' <<<"$host_targets")}
[ -n "$MIRROR" ] || fail "the host's apt sources have no '$SUITE main' entry; set MIRROR to a Debian mirror"
chroot_sources=$(awk -v s="$SUITE" '$2 ~ "^" s "(-updates|-security)?$" && $3 == "main" && $4 == "deb" {
    print "deb " $1 " " $2 " main" }' <<<"$host_targets")
[ -n "$chroot_sources" ] || chroot_sources="deb $MIRROR $SUITE main"
# apt options of the host that decide whether the mirror is usable at all (proxy, Release date checks).
host_apt_conf=$(apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy) ' || true)
if [ -z "${http_proxy:-}" ]; then
    eval "$(apt-config shell http_proxy Acquire::http::Proxy)"
    [ -z "${http_proxy:-}" ] || export http_proxy
fi

mkdir -p "$DIR" "$CACHE/archives/partial" "$OUT"
# Only this script's own results of an earlier run are removed (OUT_DIR may be a shared folder).
rm -f "$OUT"/{summary,deb-control,packages-pulled-in}.txt "$OUT"/clscope-cli-info.{json,log} \
    "$OUT"/{menu-launch,open-with-cl}{.png,.log,-xvfb.log} "$OUT"/{apt-update,apt-install,apt-install-test-tools,apt-purge}.log \
    "$OUT"/{desktop-file-validate,appstreamcli-validate,update-mime-database,update-desktop-database}.log
printf 'clscope .deb install test, %s\ndeb: %s\n' "$(date -u '+%F %T UTC')" "$(basename "$DEB")" >"$OUT/summary.txt"

# ---------------------------------------------------------------------------------------------- cleanup
cleanup() {
    local rc=$?
    trap - EXIT ERR INT TERM
    set +e
    if [ -d "$R" ]; then
        local m
        # Deepest first: the apt cache, /dev/shm and /dev/pts before /dev, all before the overlay itself.
        for m in $(findmnt -rn -o TARGET | grep -E "^$R(/|$)" | sort -r); do
            umount "$m" 2>/dev/null || umount -l "$m"
        done
    fi
    if findmnt -rn -o TARGET | grep -qE "^$R(/|$)"; then
        echo "WARNING: something is still mounted under $R; not deleting $RUN" >&2
    elif [ "${KEEP_RUN:-0}" != 1 ]; then
        echo "Removing this run's root $RUN (KEEP_RUN=1 keeps it)"
        rm -rf "$RUN"
    fi
    if [ "$rc" -eq 0 ]; then
        printf '\nALL PASSED. Results in %s\n' "$OUT"
    else
        printf '\nTEST FAILED (exit %s). Logs in %s\n' "$rc" "$OUT" >&2
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------------------------- base root
# Writes how the chroot's apt reaches the mirror: the same for base/ and for every run.
write_apt_config() {
    printf '%s\n' "$chroot_sources" >"$1/etc/apt/sources.list"
    printf '// copied from the host by packaging/test-deb-install.sh\n%s\n' "$host_apt_conf" \
        >"$1/etc/apt/apt.conf.d/99clscope-test-host"
    cp -L /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null || true
}

if [ -f "$BASE/.clscope-base-ok" ]; then
    log "Reusing the bootstrapped $SUITE root in $BASE ($(cat "$BASE/.clscope-base-ok"))"
else
    log "debootstrap --variant=minbase $SUITE into $BASE (mirror from the host's apt sources; a few minutes)"
    rm -rf "$BASE" "$BASE.partial"
    debootstrap --variant=minbase --arch="$ARCH" "$SUITE" "$BASE.partial" "$MIRROR" \
        >"$OUT/debootstrap.log" 2>&1 || {
        tail -n 30 "$OUT/debootstrap.log" >&2
        fail "debootstrap failed (log: $OUT/debootstrap.log)"
    }
    write_apt_config "$BASE.partial"
    printf '%s %s, made %s\n' "$SUITE" "$ARCH" "$(date -u '+%F %T UTC')" >"$BASE.partial/.clscope-base-ok"
    mv "$BASE.partial" "$BASE"
fi
ok "a clean Debian $SUITE minbase root ($(cat "$BASE/etc/debian_version"))"

# ---------------------------------------------------------------------------------------------- this run's root
if findmnt -rn -o TARGET | grep -qE "^$R(/|$)"; then fail "$R is still mounted from an earlier run"; fi
rm -rf "$RUN"
mkdir -p "$RUN/upper" "$RUN/work" "$R"
if mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$RUN/upper,workdir=$RUN/work" "$R" 2>/dev/null; then
    log "Fresh overlay on the base root at $R"
else
    log "overlayfs unavailable: copying the base root to $R"
    cp -a "$BASE/." "$R/"
fi
write_apt_config "$R"
# No daemons may start inside the chroot.
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod 755 "$R/usr/sbin/policy-rc.d"

mount -t proc proc "$R/proc"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$R/sys"
mount -t tmpfs -o mode=755,nosuid tmpfs "$R/dev"
for node in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
    set -- $node
    mknod -m 666 "$R/dev/$1" c "$2" "$3"
done
mkdir -p "$R/dev/pts" "$R/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$R/dev/pts"
ln -s pts/ptmx "$R/dev/ptmx"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$R/dev/shm"
ln -s /proc/self/fd "$R/dev/fd"
ln -s /proc/self/fd/0 "$R/dev/stdin"
ln -s /proc/self/fd/1 "$R/dev/stdout"
ln -s /proc/self/fd/2 "$R/dev/stderr"
mount --bind "$CACHE/archives" "$R/var/cache/apt/archives"

in_root() {
    chroot "$R" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
# As the test user, with a login-like environment. OFFLINE=1: in a network namespace of its own, so that
# the X server it starts can neither clash with nor be reached by X servers of the host.
as_user() {
    local isolate=()
    [ "${OFFLINE:-0}" != 1 ] || isolate=(/usr/bin/unshare --net --)
    chroot "$R" "${isolate[@]}" /usr/sbin/runuser -u "$TESTUSER" -- /usr/bin/env -i \
        PATH=/usr/local/bin:/usr/bin:/bin HOME="/home/$TESTUSER" USER="$TESTUSER" LOGNAME="$TESTUSER" \
        SHELL=/bin/bash LANG=C.UTF-8 XDG_RUNTIME_DIR="/run/user/$uid" "$@"
}

# ---------------------------------------------------------------------------------------------- install
log "apt-get update inside the chroot"
in_root apt-get update -q >"$OUT/apt-update.log" 2>&1 || {
    tail -n 20 "$OUT/apt-update.log" >&2
    fail "apt-get update failed inside the chroot (log: $OUT/apt-update.log)"
}
in_root dpkg-query -W -f='${Package}\n' | sort >"$RUN/packages-before.txt"

log "apt-get install -y ./$(basename "$DEB") (Depends and Recommends from the mirror)"
printf '%s\n' "$(dpkg-deb -f "$DEB" Package Version Depends Recommends Suggests Installed-Size)" \
    >"$OUT/deb-control.txt"
cat "$OUT/deb-control.txt"
cp "$DEB" "$R/tmp/"
chmod 644 "$R/tmp/$(basename "$DEB")"
in_root sh -c "cd /tmp && apt-get install -y -q ./$(basename "$DEB")" >"$OUT/apt-install.log" 2>&1 || {
    tail -n 30 "$OUT/apt-install.log" >&2
    fail "apt-get could not install $(basename "$DEB") on a clean $SUITE (log: $OUT/apt-install.log)"
}
[ "$(in_root dpkg-query -W -f='${Status}' clscope)" = "install ok installed" ] ||
    fail "dpkg does not list clscope as installed"
in_root dpkg-query -W -f='${Package}\n' | sort >"$RUN/packages-after.txt"
comm -13 "$RUN/packages-before.txt" "$RUN/packages-after.txt" >"$OUT/packages-pulled-in.txt"
ok "apt installed clscope $(in_root dpkg-query -W -f='${Version}' clscope) and $(($(wc -l <"$OUT/packages-pulled-in.txt") - 1)) packages it pulled in"

for bin in /usr/bin/clscope /usr/bin/clscope-cli; do
    [ -x "$R$bin" ] || fail "$bin is not installed"
    missing=$(in_root ldd "$bin" | grep 'not found' || true)
    [ -z "$missing" ] || fail "$bin has unresolved libraries (a missing Depends): $missing"
done
ok "every library of clscope and clscope-cli resolves (ldd)"

qtplugins=$(in_root sh -c 'ls -d /usr/lib/*/qt6/plugins' | head -n 1)
for plugin in platforms/libqxcb.so imageformats/libqsvg.so iconengines/libqsvgicon.so; do
    [ -f "$R$qtplugins/$plugin" ] || fail "Qt plugin $plugin is missing: a Depends is missing (qt6-qpa-plugins, libqt6svg6)"
    missing=$(in_root ldd "$qtplugins/$plugin" | grep 'not found' || true)
    [ -z "$missing" ] || fail "Qt plugin $plugin has unresolved libraries: $missing"
done
ok "the Qt plugins clscope loads are installed: xcb platform, SVG image format and icon engine"

icds=$(cd "$R" && ls etc/OpenCL/vendors/*.icd 2>/dev/null || true)
[ -n "$icds" ] || fail "no OpenCL ICD was installed (Recommends: pocl-opencl-icd | opencl-icd)"
grep -qx pocl-opencl-icd "$OUT/packages-pulled-in.txt" ||
    fail "pocl-opencl-icd was not installed through Recommends"
ok "an OpenCL ICD came with it: pocl-opencl-icd ($(echo $icds))"

# ---------------------------------------------------------------------------------------------- a new user
log "A new unprivileged user, '$TESTUSER'"
in_root useradd --create-home --shell /bin/bash "$TESTUSER"
uid=$(in_root id -u "$TESTUSER")
[ "$uid" -ne 0 ] || fail "$TESTUSER got uid 0"
# What a login session would give the user: a private runtime folder, and the X socket folder.
install -d -m 700 -o "$uid" -g "$(in_root id -g "$TESTUSER")" "$R/run/user/$uid"
install -d -m 1777 "$R/tmp/.X11-unix"

log "clscope-cli info --json as $TESTUSER (before any test tool is installed)"
as_user clscope-cli info --json >"$OUT/clscope-cli-info.json" 2>"$OUT/clscope-cli-info.log" ||
    fail "clscope-cli info --json failed: $(tail -n 5 "$OUT/clscope-cli-info.log")"

log "Test tools, not package dependencies: ${TEST_TOOLS[*]}"
in_root apt-get install -y -q --no-install-recommends "${TEST_TOOLS[@]}" >"$OUT/apt-install-test-tools.log" 2>&1 || {
    tail -n 20 "$OUT/apt-install-test-tools.log" >&2
    fail "could not install the test tools (log: $OUT/apt-install-test-tools.log)"
}

pocl_devices=$(jq -r '[.platforms[] | select(.CL_PLATFORM_NAME == "Portable Computing Language")
                       | .devices[].CL_DEVICE_NAME] | join(", ")' "$OUT/clscope-cli-info.json") ||
    fail "clscope-cli info --json did not print valid JSON (see $OUT/clscope-cli-info.json)"
[ -n "$pocl_devices" ] || fail "clscope-cli info --json lists no PoCL device (see $OUT/clscope-cli-info.json)"
ok "clscope-cli info --json lists the PoCL device: $pocl_devices"

# ---------------------------------------------------------------------------------------------- desktop files
desktop=$(in_root dpkg -L clscope | grep -E '^/usr/share/applications/[^/]+\.desktop$' || true)
[ "$(printf '%s\n' "$desktop" | grep -c .)" -eq 1 ] || fail "expected one .desktop file in the package, found: '$desktop'"
metainfo=$(in_root dpkg -L clscope | grep -E '^/usr/share/metainfo/[^/]+\.xml$' || true)
[ -n "$metainfo" ] || fail "the package has no AppStream metainfo in /usr/share/metainfo"
mimexml=$(in_root dpkg -L clscope | grep -E '^/usr/share/mime/packages/[^/]+\.xml$' || true)
[ -n "$mimexml" ] || fail "the package has no MIME type in /usr/share/mime/packages"
desktop_id=$(basename "$desktop")

# A key of the [Desktop Entry] group (not of an action group).
desktop_key() {
    awk -v k="$1" '/^\[/ { g = $0 } g == "[Desktop Entry]" && index($0, k "=") == 1 {
        print substr($0, length(k) + 2); exit }' "$R$desktop"
}

log "desktop-file-validate $desktop"
in_root desktop-file-validate "$desktop" >"$OUT/desktop-file-validate.log" 2>&1 ||
    fail "desktop-file-validate: $(cat "$OUT/desktop-file-validate.log")"
[ ! -s "$OUT/desktop-file-validate.log" ] || fail "desktop-file-validate: $(cat "$OUT/desktop-file-validate.log")"
ok "desktop-file-validate $desktop_id: no errors, no warnings"

log "appstreamcli validate --no-net $metainfo"
in_root appstreamcli validate --no-net "$metainfo" >"$OUT/appstreamcli-validate.log" 2>&1 ||
    fail "appstreamcli validate: $(cat "$OUT/appstreamcli-validate.log")"
cat "$OUT/appstreamcli-validate.log"
ok "appstreamcli validate --no-net $(basename "$metainfo"): $(grep -o 'Validation was successful.*' "$OUT/appstreamcli-validate.log" || echo passed)"
grep -q "<launchable type=\"desktop-id\">$desktop_id</launchable>" "$R$metainfo" ||
    fail "the metainfo's launchable does not name $desktop_id"

icon=$(desktop_key Icon)
[ -f "$R/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] ||
    fail "Icon=$icon but /usr/share/icons/hicolor/scalable/apps/$icon.svg is not installed"
ok "Icon=$icon resolves to the installed hicolor SVG"

# ---------------------------------------------------------------------------------------------- MIME
mime=$(desktop_key MimeType | cut -d';' -f1)
[ -n "$mime" ] || fail "$desktop_id has no MimeType="
grep -q "type=\"$mime\"" "$R$mimexml" || fail "$mimexml does not define $mime"
log "update-mime-database, update-desktop-database; xdg-mime for $mime"
in_root update-mime-database /usr/share/mime >"$OUT/update-mime-database.log" 2>&1 ||
    fail "update-mime-database: $(cat "$OUT/update-mime-database.log")"
[ ! -s "$OUT/update-mime-database.log" ] || fail "update-mime-database complained: $(cat "$OUT/update-mime-database.log")"
in_root update-desktop-database /usr/share/applications >"$OUT/update-desktop-database.log" 2>&1 ||
    fail "update-desktop-database: $(cat "$OUT/update-desktop-database.log")"
grep -qxF "$mime:*.cl" "$R/usr/share/mime/globs" ||
    fail "*.cl is not mapped to $mime in /usr/share/mime/globs"

sample=/home/$TESTUSER/vector_add.cl
cat >"$R$sample" <<'EOF'
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c)
{
    const size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
EOF
chown "$uid" "$R$sample"
default_app=$(as_user xdg-mime query default "$mime")
[ "$default_app" = "$desktop_id" ] || fail "xdg-mime query default $mime gives '$default_app', not $desktop_id"
filetype=$(as_user xdg-mime query filetype "$sample")
[ "$filetype" = "$mime" ] || fail "xdg-mime query filetype $(basename "$sample") gives '$filetype', not $mime"
ok "xdg-mime: a .cl file is $mime, and its default application is $desktop_id"

# ---------------------------------------------------------------------------------------------- start from the menu
exec_line=$(desktop_key Exec)
[ -n "$exec_line" ] || fail "$desktop_id has no Exec="
case "$exec_line" in *\"* | *\'* | *\\*) fail "Exec=$exec_line uses quoting this test does not expand" ;; esac
[ "$(desktop_key Terminal)" != true ] || fail "$desktop_id has Terminal=true"

# Expands the Exec= field codes as a launcher does (Desktop Entry spec): files for %f/%F/%u/%U.
expand_exec() {
    local word out=()
    for word in $exec_line; do
        case "$word" in
            %f | %u) [ $# -eq 0 ] || out+=("$1") ;;
            %F | %U) out+=("$@") ;;
            %i) [ -z "$icon" ] || out+=(--icon "$icon") ;;
            %c) out+=("$(desktop_key Name)") ;;
            %k) out+=("$desktop") ;;
            %d | %D | %n | %N | %v | %m) ;;
            *) out+=("${word//%%/%}") ;;
        esac
    done
    printf '%s\n' "${out[@]}"
}

# Runs "$@" under the X server that xvfb-run started, and reports whether a top-level window whose title
# contains $1 was ever mapped and viewable (the app's --screenshot renders the widget, so on its own it
# would not prove that a window reached the X server).
cat >"$R/tmp/clscope-watch-window.sh" <<'EOF_WATCH'
#!/bin/sh
title=$1
shift
"$@" &
pid=$!
seen=no
while kill -0 "$pid" 2>/dev/null; do
    for id in $(xwininfo -root -tree 2>/dev/null | awk -v t="$title" '
        match($0, /"[^"]*":/) && index(substr($0, RSTART, RLENGTH), t) { print $1 }'); do
        xwininfo -id "$id" 2>/dev/null | grep -q 'Map State: IsViewable' && seen=yes
    done
    sleep 0.1
done
wait "$pid"
rc=$?
echo "window-viewable: $seen"
exit "$rc"
EOF_WATCH
chmod 755 "$R/tmp/clscope-watch-window.sh"

# Starts a command the way the launcher would, under Xvfb (the xcb platform, not offscreen), with the
# app's own --screenshot, which saves the window and exits.
launch() {
    local name=$1 shot=/home/$TESTUSER/$1.png title
    shift
    title=$(desktop_key Name)
    log "As $TESTUSER: xvfb-run -a $* --screenshot $shot --size 1280x800"
    rm -f "$R$shot"
    OFFLINE=1 as_user timeout 240 xvfb-run -a -e "/home/$TESTUSER/$name-xvfb.log" -s '-screen 0 1600x1000x24' \
        /tmp/clscope-watch-window.sh "$title" "$@" --screenshot "$shot" --size 1280x800 \
        >"$OUT/$name.log" 2>&1 || {
        local rc=$?
        cp "$R/home/$TESTUSER/$name-xvfb.log" "$OUT/" 2>/dev/null || true
        fail "$* exited with $rc (logs: $OUT/$name.log, $OUT/$name-xvfb.log): $(tail -n 8 "$OUT/$name.log")"
    }
    cp "$R/home/$TESTUSER/$name-xvfb.log" "$OUT/" 2>/dev/null || true
    ! grep -qiE 'could not (load|find) the qt platform plugin|cannot load library|cannot mix incompatible' "$OUT/$name.log" ||
        fail "Qt reported a missing plugin or library (log: $OUT/$name.log)"
    grep -q '^window-viewable: yes' "$OUT/$name.log" ||
        fail "$* never mapped a viewable window titled '$title' on the X server"
    [ -s "$R$shot" ] || fail "$* did not write $shot"
    in_root file -b "$shot" | grep -q '^PNG image data' || fail "$shot is not a PNG: $(in_root file -b "$shot")"
    cp "$R$shot" "$OUT/$name.png"
    ok "$name: '$*' showed a window on X and saved $OUT/$name.png ($(in_root file -b "$shot" | cut -d, -f2 | xargs))"
}

mapfile -t menu_cmd < <(expand_exec)
as_user sh -c "command -v '${menu_cmd[0]}'" >/dev/null || fail "Exec=$exec_line: '${menu_cmd[0]}' is not on a user's PATH"
launch menu-launch "${menu_cmd[@]}"

# The same entry as a file manager uses it for "Open With", with a .cl file for %F.
mapfile -t open_cmd < <(expand_exec "$sample")
launch open-with-cl "${open_cmd[@]}"

# ---------------------------------------------------------------------------------------------- purge
log "apt-get purge clscope: nothing of it may be left behind"
in_root dpkg -L clscope | grep -vE '^/(\.|usr|usr/bin|usr/share|usr/share/[^/]+|usr/share/icons/hicolor(/[^/]+){0,2}|usr/share/mime/packages)$' \
    >"$RUN/clscope-files.txt"
in_root apt-get purge -y -q clscope >"$OUT/apt-purge.log" 2>&1 || fail "apt-get purge clscope failed (log: $OUT/apt-purge.log)"
left=$(while read -r f; do [ ! -e "$R$f" ] || echo "$f"; done <"$RUN/clscope-files.txt")
[ -z "$left" ] || fail "files left after purge: $left"
ok "apt-get purge clscope removes every file it installed"
