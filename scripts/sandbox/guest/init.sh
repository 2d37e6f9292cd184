#!/bin/bash
# PID 1 of a sandbox (boot.sh execs it after switching root). Like sysv-rc for runlevel 2 on a
# Debian server without systemd, it starts every service enabled in /etc/rc2.d, then the boot
# commands, then stays to reap orphans. A reboot(2) inside kills it with SIGHUP, a halt with
# SIGINT; the launcher on the host sees which and boots again on the same disk, or stops.
#
# Talks to the launcher through /run/stackdeck-sandbox (a bind of the sandbox's ctl dir):
#   status         "booting N", "ready N" or "failed N: why"
#   services       one line per service of this boot: "NAME started" or "NAME failed (exit C)"
#   logs/          each service's start output, and the boot commands' output
#   boot-commands/ files of NUL-separated argv, run after the services at every boot
#   panel.sock     the host's socat, forwarded here to 127.0.0.1:$SBX_PANEL_PORT
set -uo pipefail

ctl=/run/stackdeck-sandbox
boot=$SBX_BOOT
logs=$ctl/logs
mkdir -p "$logs"
say() { printf '[sandbox init %s] %s\n' "$boot" "$*"; }
set_status() {
  printf '%s\n' "$1" >"$ctl/status.tmp" && mv "$ctl/status.tmp" "$ctl/status"
}
fail() {
  say "FAILED: $*"
  set_status "failed $boot: $*"
  # Exiting ends the pid namespace; the launcher reports the boot as failed.
  exit 1
}

set_status "booting $boot"

booted=${EPOCHREALTIME/./}
if [ ! -e /var/lib/stackdeck-sandbox/provisioned ]; then
  say "first boot: provisioning"
  # Its own name before anything asks for it (ssl-cert's certificate, MariaDB's grants).
  hostname "$SBX_HOSTNAME"
  DEBIAN_FRONTEND=noninteractive bash "$ctl/provision.sh" >"$logs/provision.log" 2>&1 || {
    sed 's/^/  /' "$logs/provision.log"
    fail "provisioning (logs/provision.log)"
  }
  say "provisioned ($(((${EPOCHREALTIME/./} - booted) / 1000)) ms)"
fi

hostname -F /etc/hostname || fail "hostname -F /etc/hostname"
ip link set lo up || fail "ip link set lo up"

# The panel on the host, reachable at the same 127.0.0.1 URL from inside: socat listens in
# this network namespace and passes every connection (websockets included: it is a byte
# pipe) to the host's socat over the Unix socket. It is restarted if it ever exits.
# localhost resolves to ::1 too, so the forward listens there as well.
forward() {
  while :; do
    socat "$1:$SBX_PANEL_PORT,bind=$2,fork,reuseaddr" "UNIX-CONNECT:$ctl/panel.sock" \
      >>"$logs/panel-forward.log" 2>&1
    sleep 1
  done
}
if [ -n "$SBX_PANEL_PORT" ]; then
  forward TCP4-LISTEN 127.0.0.1 &
  forward TCP6-LISTEN '[::1]' &
  say "panel forward on 127.0.0.1:$SBX_PANEL_PORT and [::1]:$SBX_PANEL_PORT"
fi

# Services: the S links of runlevel 2, as Debian's /etc/init.d/rc runs them with startpar:
# sequence numbers in order, the scripts of one number together. Whatever is enabled inside
# (update-rc.d NAME defaults) comes back after a reboot; whatever is disabled stays down.
# Output goes to a file, not a pipe: a daemon that keeps its stdout open would otherwise hold
# the pipe, and the boot, forever.
results=/run/stackdeck-boot
mkdir -p "$results"
start_service() {
  local name=$1 out=$logs/$1.log began code
  printf '== boot %s: %s start\n' "$boot" "$name" >>"$out"
  began=${EPOCHREALTIME/./}
  timeout 120 "/etc/init.d/$name" start </dev/null >>"$out" 2>&1
  code=$?
  printf '%s %s\n' "$code" "$(((${EPOCHREALTIME/./} - began) / 1000))" >"$results/$name"
}
links=(/etc/rc2.d/S[0-9][0-9]*)
for seq in $(printf '%s\n' "${links[@]}" | sed -n 's|^/etc/rc2.d/S\([0-9][0-9]\).*|\1|p' | sort -u); do
  group=()
  for link in /etc/rc2.d/S"$seq"*; do
    [ -e "$link" ] || continue
    start_service "${link##*/S[0-9][0-9]}" &
    group+=($!)
  done
  # Only this group: the panel forward is a child too, and never ends.
  if [ ${#group[@]} -gt 0 ]; then wait "${group[@]}"; fi
done
: >"$ctl/services"
for link in "${links[@]}"; do
  name=${link##*/S[0-9][0-9]}
  [ -f "$results/$name" ] || continue
  read -r code took <"$results/$name"
  if [ "$code" -eq 0 ]; then
    say "$name started (${took} ms)"
    echo "$name started" >>"$ctl/services"
  else
    say "$name FAILED (exit $code, ${took} ms):"
    tail -n 20 "$logs/$name.log" | sed 's/^/  /'
    echo "$name failed (exit $code)" >>"$ctl/services"
  fi
done

# Every server panel assumes SSH: a sandbox without a running sshd is a failed boot.
# sshd writes its pid file only once it has daemonized, a moment after its init script
# returned: give it a few seconds (a loaded machine) before calling the boot failed.
sshd_up=
for _ in $(seq 50); do
  if /etc/init.d/ssh status >/dev/null 2>&1; then sshd_up=1; break; fi
  sleep 0.1
done
[ -n "$sshd_up" ] || fail "sshd is not running (logs/ssh.log)"

# Boot commands: started in the background in their own session (they may be daemons), in
# file-name order, at every boot.
if [ -d "$ctl/boot-commands" ]; then
  for file in "$ctl"/boot-commands/*; do
    [ -f "$file" ] || continue
    mapfile -d '' argv <"$file"
    out=$logs/boot-command-${file##*/}.log
    printf '== boot %s: %s\n' "$boot" "${argv[*]}" >>"$out"
    setsid "${argv[@]}" </dev/null >>"$out" 2>&1 &
    say "boot command ${file##*/} started: ${argv[*]}"
  done
fi

set_status "ready $boot"
say "ready"

# Reaping: daemons that double-fork end up as our children. bash collects any exited child
# whenever it waits for one of its own, so waiting on a sleep once a second reaps them all.
while :; do
  sleep 1
done
