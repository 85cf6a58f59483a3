#!/bin/sh
# The replica's start (as the postgres user): on an empty volume, a base backup of the primary with
# -R (standby.signal and primary_conninfo written), then the server, a hot standby. Later starts
# find the copy and go on streaming from where it stopped.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -q -h primary -p 5432; do sleep 1; done
  PGPASSWORD="$REPLICATION_PASSWORD" pg_basebackup -h primary -p 5432 -U replicator -D "$PGDATA" -R -X stream -c fast
  # pg_basebackup stores the password it was given in primary_conninfo (postgresql.auto.conf).
  chmod 700 "$PGDATA"
fi
exec postgres -c hot_standby=on
