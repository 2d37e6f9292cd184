#!/bin/bash
# First boot of a sandbox, run by its init inside the sandbox (so every write lands in the
# sandbox's upper dir, never on the host): give it the identity of a new server, the stock
# configs of its packages, an empty MariaDB, and an rc2.d with exactly the sandbox's services.
set -euo pipefail

# Identity: host name, hosts file, machine id, mail name.
printf '%s\n' "$SBX_HOSTNAME" >/etc/hostname
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\tlocalhost ip6-localhost ip6-loopback\n' \
  "$SBX_HOSTNAME" >/etc/hosts
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >/etc/machine-id
printf '\n' >>/etc/machine-id
if command -v postconf >/dev/null; then
  printf '%s\n' "$SBX_HOSTNAME" >/etc/mailname
  postconf -e "myhostname=$SBX_HOSTNAME" "mydestination=\$myhostname, localhost"
fi

# The host may hold a policy-rc.d that forbids starting services (container images do). A
# sandbox is a server: packages installed inside start their services as they would there.
rm -f /usr/sbin/policy-rc.d

# Stock config files of the sandbox's packages that this machine image removed, kept by deps
# (scripts/sandbox/conffiles.ts): only what is missing, as a fresh install would have it.
stock=/var/cache/stackdeck-sandbox/stock
if [ -d "$stock" ]; then cp -a --no-clobber "$stock/." /; fi
# On Debian /etc/mysql/my.cnf is the alternatives link to mariadb.cnf (which reads conf.d and
# mariadb.conf.d); an image that replaced it with a plain file gets the stock link back.
if [ -e /etc/mysql/mariadb.cnf ] && [ ! -L /etc/mysql/my.cnf ] && [ -e /etc/alternatives/my.cnf ]; then
  ln -sfn /etc/alternatives/my.cnf /etc/mysql/my.cnf
fi
# The init script pings with --defaults-file=/etc/mysql/debian.cnf, which the package's
# postinst writes on a new install (root over the socket); the host's may lack it.
if [ ! -e /etc/mysql/debian.cnf ]; then
  install -m 0600 /dev/null /etc/mysql/debian.cnf
  printf '[client]\nhost     = localhost\nuser     = root\n[mysql_upgrade]\nhost     = localhost\nuser     = root\n' \
    >/etc/mysql/debian.cnf
fi
# A new server's logs start empty, not with the host's history.
if [ -d /var/log/mysql ]; then : >/var/log/mysql/error.log; fi

# The slow part, in parallel (two cores): SSH host keys of its own; a self-signed certificate
# (CN = its host name) for the mail services' TLS, as ssl-cert makes one on a new server;
# MariaDB's system tables in /var/lib/mysql, the sandbox's own empty dir (boot.sh binds it).
rm -f /etc/ssh/ssh_host_*
ssh-keygen -A &
keys=$!
make-ssl-cert generate-default-snakeoil --force-overwrite &
cert=$!
db=
if [ -z "$(ls -A /var/lib/mysql)" ]; then
  mariadb-install-db --user=mysql --datadir=/var/lib/mysql --skip-test-db &
  db=$!
fi
wait $keys
wait $cert
if [ -n "$db" ]; then wait "$db"; fi
# Dovecot refuses to start without a certificate.
if [ -d /etc/dovecot ] && [ ! -e /etc/dovecot/private/dovecot.pem ]; then
  mkdir -p /etc/dovecot/private
  ln -sf /etc/ssl/certs/ssl-cert-snakeoil.pem /etc/dovecot/private/dovecot.pem
  ln -sf /etc/ssl/private/ssl-cert-snakeoil.key /etc/dovecot/private/dovecot.key
fi

# rc2.d: the host's enabled services (its PostgreSQL, Redis, ...) are not this server's.
# update-rc.d disable turns their S links into K links, as an admin would; the sandbox's own
# get their links if the host lacks them.
wanted=" $SBX_SERVICES "
for link in /etc/rc2.d/S*; do
  [ -e "$link" ] || continue
  name=${link##*/S[0-9][0-9]}
  case $wanted in
    *" $name "*) ;;
    *) update-rc.d "$name" disable >/dev/null ;;
  esac
done
for name in $SBX_SERVICES; do
  if [ ! -x "/etc/init.d/$name" ]; then
    echo "no /etc/init.d/$name: is its package installed (scripts/sandbox-server deps)?" >&2
    exit 1
  fi
  if ! compgen -G "/etc/rc2.d/S[0-9][0-9]$name" >/dev/null; then
    update-rc.d "$name" defaults >/dev/null
    update-rc.d "$name" enable >/dev/null
  fi
done

mkdir -p /var/lib/stackdeck-sandbox
date -u +%FT%TZ >/var/lib/stackdeck-sandbox/provisioned
