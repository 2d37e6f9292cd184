#!/bin/bash
# Stage one of a sandbox boot. unshare runs it as PID 1 of fresh mount, uts, ipc, net and pid
# namespaces, still on the host's root. It builds the sandbox's root (an overlay of the host's
# root with the sandbox's own upper dir), mounts the kernel filesystems for the new namespaces,
# switches root and becomes the sandbox's init. Every mount here lives in the private mount
# namespace only: when the namespace's last process dies, the kernel drops them all, so the
# host never sees one (and a loop device mounted with -o loop detaches itself).
#
# Usage: boot.sh SANDBOX_DIR (the launcher sets STACKDECK_SANDBOX, SBX_BOOT and the SBX_* options)
set -euo pipefail

dir=$1
root=$dir/root
say() { printf '[sandbox boot %s] %s\n' "$SBX_BOOT" "$*"; }

mount -t overlay stackdeck-sandbox -o "lowerdir=/,upperdir=$dir/upper,workdir=$dir/work" "$root"

# Kernel filesystems seen through the new namespaces: this proc lists only the sandbox's
# processes, this sysfs only its network devices. sysfs stays read-only: root in a sandbox is
# still root on the machine, and nothing a server runs needs to write there.
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs -o nosuid,nodev,mode=1777 shm "$root/dev/shm"
mount -t tmpfs -o nosuid,nodev,mode=755 run "$root/run"
# /var/lock is /run/lock on Debian, which a server's boot makes (systemd-tmpfiles, initscripts):
# package scripts lock there (apache2's reload after a package enables a config, for one).
mkdir -m 1777 "$root/run/lock"
mount -t tmpfs -o nosuid,nodev,mode=1777 tmp "$root/tmp"

# The control dir: the init's scripts, status and logs, and the panel's forwarded socket.
mkdir -p "$root/run/stackdeck-sandbox"
mount --bind "$dir/ctl" "$root/run/stackdeck-sandbox"

# MariaDB gets an empty datadir of its own, never the host's /var/lib/mysql. It is a plain dir
# beside the upper dir so it survives reboots like the rest of the sandbox's disk.
mkdir -p "$root/var/lib/mysql"
mount --bind "$dir/mysql" "$root/var/lib/mysql"

# /home on its own ext4 image when asked (--home-size, --quota): a real block device, so disk
# full and quotas behave as on a server with a /home partition.
if [ -f "$dir/home.img" ]; then
  opts=loop
  if [ "${SBX_QUOTA:-}" = 1 ]; then opts=loop,usrquota,grpquota; fi
  if ! mount -o "$opts" "$dir/home.img" "$root/home"; then
    say "mounting /home ($opts) failed; the kernel said:"
    dmesg 2>/dev/null | tail -n 3 || true
    exit 1
  fi
fi

# The sandboxes' own dirs are on the host's root too: hide them from every sandbox.
if [ -d "$root$SBX_BASE" ]; then
  mount -t tmpfs -o size=1m,mode=700 hidden "$root$SBX_BASE"
fi

# pivot_root rather than chroot: the old root is detached, so inside, /proc/mounts lists the
# sandbox's own mounts only and nothing can chdir back out to the host's tree.
cd "$root"
pivot_root . .
umount -l .
cd /

exec /usr/bin/env -i \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 \
  STACKDECK_SANDBOX="$STACKDECK_SANDBOX" \
  SBX_BOOT="$SBX_BOOT" \
  SBX_HOSTNAME="$SBX_HOSTNAME" \
  SBX_PANEL_PORT="${SBX_PANEL_PORT:-}" \
  SBX_SERVICES="$SBX_SERVICES" \
  /bin/bash /run/stackdeck-sandbox/init.sh
