#!/bin/sh
# Run by the postgres image on the primary's first start (docker-entrypoint-initdb.d): a role the
# replica streams with, and the pg_hba.conf line that lets it (read when the server starts for good).
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  --set password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
