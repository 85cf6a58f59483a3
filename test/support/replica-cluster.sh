#!/usr/bin/env bash
# A streaming replica of the machine's PostgreSQL server, for the read-replica tests
# (test/e2e/read-replicas.e2e.spec.ts) and `npm run bench cluster`: a second cluster of the same
# major version, in a folder of its own, made with `pg_basebackup -R` from the primary.
#
#   replica-cluster.sh create DIR [PRIMARY_HOST PRIMARY_PORT]  makes it, starts it, prints its port
#   replica-cluster.sh stop DIR | start DIR                    stops or starts it (the tests' lost replica)
#   replica-cluster.sh remove DIR                              stops it and removes DIR
#
# Everything made lives under DIR (data, log, socket) and belongs to this script: nothing of the
# primary's is dropped or restarted. Two things it may need of the primary, both checked first:
# - wal_level replica (or logical) and max_wal_senders > 0 — changing them needs a restart, so a
#   primary without them is an error, not something this script changes;
# - a pg_hba.conf line that lets 127.0.0.1 open replication connections. When the server trusts
#   every other connection from 127.0.0.1 (the test servers here do) and has no such line, one
#   `host replication all 127.0.0.1/32 trust` line is added, marked, and the configuration reloaded;
#   otherwise it says what to add and stops.
# No replication slot is made: a slot left behind by a removed replica would keep WAL on the
# primary for ever; without one a replica stopped for long may need making again, which is fine here.
# Run as root, the server programs run as the `postgres` user, which owns DIR.
set -euo pipefail

command=${1:?usage: replica-cluster.sh create|stop|start|remove DIR [PRIMARY_HOST PRIMARY_PORT]}
dir=${2:?the replica\'s folder}
primary_host=${3:-127.0.0.1}
primary_port=${4:-5432}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
primary_sql() {
  psql -X -q -A -t -h "$primary_host" -p "$primary_port" -U postgres -d postgres -c "$1"
}
bin_dir() {
  local major
  major=$(( $(primary_sql 'SHOW server_version_num') / 10000 ))
  if [ -x "/usr/lib/postgresql/$major/bin/pg_ctl" ]; then echo "/usr/lib/postgresql/$major/bin"; else dirname "$(command -v pg_ctl)"; fi
}

case "$command" in
  create)
    wal_level=$(primary_sql 'SHOW wal_level')
    senders=$(primary_sql 'SHOW max_wal_senders')
    if [ "$wal_level" = minimal ] || [ "$senders" = 0 ]; then
      echo "the primary at $primary_host:$primary_port has wal_level=$wal_level, max_wal_senders=$senders: a replica needs wal_level replica and max_wal_senders > 0 (a restart of the primary, not made here)" >&2
      exit 1
    fi
    # A replication connection is refused by pg_hba.conf before anything else: ask for one.
    if ! psql -X -q -h "$primary_host" -p "$primary_port" -U postgres "dbname=postgres replication=true" -c 'IDENTIFY_SYSTEM' > /dev/null 2>&1; then
      hba=$(primary_sql 'SHOW hba_file')
      trusted=$(primary_sql "SELECT count(*) FROM pg_hba_file_rules WHERE type = 'host' AND 'all' = ANY(database) AND 'all' = ANY(user_name) AND address = '127.0.0.1' AND auth_method = 'trust'")
      if [ "$primary_host" = 127.0.0.1 ] && [ "$trusted" != 0 ] && [ -w "$hba" ]; then
        printf '\n# Added by Tabula'"'"'s test/support/replica-cluster.sh: its test replica streams from 127.0.0.1,\n# trusted here as every other connection from 127.0.0.1 is.\nhost replication all 127.0.0.1/32 trust\n' >> "$hba"
        primary_sql 'SELECT pg_reload_conf()' > /dev/null
        echo "added 'host replication all 127.0.0.1/32 trust' to $hba and reloaded the configuration" >&2
        sleep 1
      else
        echo "the primary refuses replication connections from here: add 'host replication all 127.0.0.1/32 trust' (or a password rule) to its pg_hba.conf and reload it" >&2
        exit 1
      fi
    fi
    bin=$(bin_dir)
    port=5433
    while (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; do port=$((port + 1)); done
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then echo "$dir is not empty" >&2; exit 1; fi
    mkdir -p "$dir"
    chmod 700 "$dir"
    touch "$dir/.tabula-replica"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_postgres "$bin/pg_basebackup" -h "$primary_host" -p "$primary_port" -U postgres -D "$dir/data" -R -X stream -c fast
    # A standby needs these at least as large as its primary's; the primary's files under /etc are
    # not in the copy, so the replica gets a configuration of its own.
    settings=$(primary_sql "SELECT string_agg(name || ' = ' || setting, E'\n') FROM pg_settings WHERE name IN ('max_connections', 'max_worker_processes', 'max_prepared_transactions', 'max_locks_per_transaction', 'max_wal_senders')")
    as_postgres tee "$dir/data/postgresql.conf" > /dev/null << EOF
# Tabula's test replica (test/support/replica-cluster.sh)
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
hot_standby = on
shared_buffers = 32MB
logging_collector = off
$settings
EOF
    as_postgres tee "$dir/data/pg_hba.conf" > /dev/null << EOF
local all all trust
host all all 127.0.0.1/32 trust
EOF
    rm -f "$dir/data/postmaster.pid" "$dir/data/postmaster.opts"
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 start > /dev/null
    for _ in $(seq 1 60); do
      [ "$(psql -X -A -t -h 127.0.0.1 -p "$port" -U postgres -d postgres -c 'SELECT pg_is_in_recovery()' 2> /dev/null)" = t ] && break
      sleep 1
    done
    echo "$port"
    ;;
  start)
    as_postgres "$(bin_dir)/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 start > /dev/null
    ;;
  stop)
    as_postgres "$(bin_dir)/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop > /dev/null
    ;;
  remove)
    # Only a folder this script made.
    [ -f "$dir/.tabula-replica" ] || { echo "$dir was not made by replica-cluster.sh: left alone" >&2; exit 1; }
    if [ -f "$dir/data/postmaster.pid" ]; then as_postgres "$(bin_dir)/pg_ctl" -D "$dir/data" -m immediate -w -t 60 stop > /dev/null || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "unknown command $command: create, start, stop or remove" >&2
    exit 2
    ;;
esac
