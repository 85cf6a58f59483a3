#!/usr/bin/env bash
# A rehearsal of docker-compose.yml without a Docker engine (a manual check, not part of CI).
#
# Runs the compose file's five services natively, each in a network namespace of its own with its
# own address on one bridge, and with the very files the compose file mounts, unchanged:
#   primary   a fresh cluster made by this machine's PostgreSQL (initdb as the postgres image does:
#             POSTGRES_USER/PASSWORD/DB from the compose file, scram-sha-256 for host connections,
#             listen_addresses '*'); docker/primary-init.sh run on a first, socket-only start as
#             docker-entrypoint-initdb.d runs it; then the server started with the compose `command`
#   replica   docker/replica-entrypoint.sh run as the postgres user with an empty PGDATA
#   tabula-1  node dist/src/main.js as an unprivileged user (nobody) with the compose x-node
#   tabula-2  environment plus the Dockerfile's ENV (a DATA_DIR of its own each)
#   entry     nginx with docker/nginx.conf (only -c, -p, -e and -g: the pid file, `daemon off` and,
#             where the Debian nginx has the stream module as a dynamic module, its load_module)
# The names are resolved as in a compose network: /etc/netns/<namespace>/hosts, which
# `ip netns exec` mounts over /etc/hosts, lists the five services. Each service also gets a host name
# of its own (a UTS namespace; docker gives each container one: the Dots node id defaults to it) and,
# for the two PostgreSQL servers and nginx, a private /var/run/postgresql or /var/log/nginx (a bind
# mount inside the namespace's own mount namespace), so nothing touches the machine's own PostgreSQL
# on 127.0.0.1:5432 or its socket directory.
#
# Then it checks, through the entry's address, what the compose file promises, and prints one
# PASS/FAIL line per check. Everything it started is torn down at the end (processes, namespaces,
# /etc/netns entries, the bridge, its temporary directory; REHEARSAL_KEEP=1 keeps the directory).
#
# Run as root from anywhere: sudo docker/rehearse.sh. Reads nothing from the network except Debian
# packages (nginx, its stream module) when they are missing. Builds dist/ when src/ is newer.
# What it cannot show: the images themselves (postgres:16, nginx:1.27, node:20 — here PostgreSQL and
# nginx are Debian's), the build of the Dockerfile, docker's published ports (3000:80, 7777:7777: the
# entry is reached at its own address), restart policies and healthcheck scheduling.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
[ "$(id -u)" = 0 ] || { echo "rehearse.sh: run as root (network namespaces, users, mounts)" >&2; exit 1; }

PREFIX=tabr-            # namespace names: tabr-primary, tabr-replica, ...
BRIDGE=tabr0
NET=10.231.7            # the compose network: the bridge is .1, the services .11-.15
SERVICES=(primary replica tabula-1 tabula-2 entry)
declare -A ADDR=([primary]=$NET.11 [replica]=$NET.12 [tabula-1]=$NET.13 [tabula-2]=$NET.14 [entry]=$NET.15)
ENTRY=${ADDR[entry]}
FIXTURE=test/fixtures/realdata/go/gnugo_regression_games/9x9-4.sgf
FIXTURE_2=test/fixtures/realdata/go/gnugo_regression_games/9x9-1.sgf

PG_VERSION=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
PG_BIN=/usr/lib/postgresql/$PG_VERSION/bin
[ -x "$PG_BIN/postgres" ] || { echo "rehearse.sh: no PostgreSQL server under /usr/lib/postgresql" >&2; exit 1; }

WORK=
FAILED=0
ETC_NETNS_MADE=0
NET_MADE=0
[ -d /etc/netns ] || ETC_NETNS_MADE=1
say() { printf '== %s\n' "$*"; }

teardown() {
  local status=$? ns pids left
  set +e
  if [ "$NET_MADE" = 1 ]; then
    for svc in "${SERVICES[@]}"; do
      pids=$(ip netns pids "$PREFIX$svc" 2>/dev/null)
      # SIGINT: PostgreSQL's fast shutdown (it removes its shared memory); node and nginx stop too.
      [ -n "$pids" ] && kill -INT $pids 2>/dev/null
    done
    for _ in $(seq 1 20); do
      left=
      for svc in "${SERVICES[@]}"; do left+=$(ip netns pids "$PREFIX$svc" 2>/dev/null); done
      [ -z "$left" ] && break
      sleep 0.5
    done
    for svc in "${SERVICES[@]}"; do
      ns=$PREFIX$svc
      if ip netns list 2>/dev/null | grep -qw "^$ns"; then
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
        ip netns del "$ns"
      fi
      rm -rf "/etc/netns/$ns"
    done
    [ "$ETC_NETNS_MADE" = 1 ] && rmdir /etc/netns 2>/dev/null
    ip link del "$BRIDGE" 2>/dev/null
  fi
  if [ -n "$WORK" ] && [ -d "$WORK" ]; then
    if [ "${REHEARSAL_KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
  fi
  [ "$status" = 0 ] && [ "$FAILED" != 0 ] && status=1
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------------
say "packages"
if ! command -v nginx > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx > /dev/null \
    || { apt-get update > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx > /dev/null; }
fi
NGINX_G=
if nginx -V 2>&1 | grep -q -- '--with-stream=dynamic'; then
  # Debian builds the stream module (nginx.conf's `stream {}`) as a module of its own; the nginx
  # image has it built in. Loaded with -g so that nginx.conf stays the one the image reads.
  STREAM_SO=/usr/lib/nginx/modules/ngx_stream_module.so
  if [ ! -e "$STREAM_SO" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libnginx-mod-stream > /dev/null \
      || { apt-get update > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libnginx-mod-stream > /dev/null; }
  fi
  NGINX_G="load_module $STREAM_SO; "
fi
echo "PostgreSQL $PG_VERSION ($PG_BIN), $(nginx -v 2>&1), node $(node -v)"

if [ ! -e dist/src/main.js ] || [ -n "$(find src migrations package.json -newer dist/src/main.js -type f -print -quit)" ]; then
  say "building dist (src is newer)"
  npm run --silent build
fi

# ---------------------------------------------------------------------------------------------
# What the compose file says, read from it (js-yaml: merge keys, ${VAR:-default} as compose reads them).
compose() {
  node -e '
    const yaml = require("js-yaml");
    const doc = yaml.load(require("fs").readFileSync("docker-compose.yml", "utf8"));
    const sub = (s) => String(s).replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(:?-([^}]*))?\}/g, (m, name, op, def) => {
      if (m === "$$") return "$";
      const v = process.env[name];
      if (op === undefined) return v ?? "";
      if (op.startsWith(":")) return v ? v : def;
      return v !== undefined ? v : def;
    });
    const [service, what] = process.argv.slice(1);
    const s = doc.services[service];
    let out = [];
    if (what === "environment") {
      const env = s.environment ?? {};
      out = Array.isArray(env) ? env.map(sub) : Object.entries(env).map(([k, v]) => `${k}=${sub(v ?? "")}`);
    } else {
      out = (s[what] ?? []).map(sub);
    }
    process.stdout.write(out.map((x) => x + "\0").join(""));
  ' "$@"
}
mapfile -d '' NODE_ENV_COMPOSE < <(compose tabula-1 environment)
mapfile -d '' PRIMARY_ENV < <(compose primary environment)
mapfile -d '' PRIMARY_COMMAND < <(compose primary command)
mapfile -d '' REPLICA_ENV < <(compose replica environment)
# The Dockerfile's ENV of the run stage (its DATA_DIR is replaced by one directory per node).
mapfile -d '' DOCKERFILE_ENV < <(awk '/^FROM /{env=""} /^ENV /{sub(/^ENV /,""); env=$0} END{print env}' Dockerfile | tr ' ' '\n' | grep = | tr '\n' '\0')
get() { local name=$1; shift; local kv; for kv in "$@"; do [ "${kv%%=*}" = "$name" ] && { printf '%s' "${kv#*=}"; return 0; }; done; return 1; }
POSTGRES_USER=$(get POSTGRES_USER "${PRIMARY_ENV[@]}")
POSTGRES_DB=$(get POSTGRES_DB "${PRIMARY_ENV[@]}")
POSTGRES_PASSWORD=$(get POSTGRES_PASSWORD "${PRIMARY_ENV[@]}")
echo "x-node: ${NODE_ENV_COMPOSE[*]}"
echo "Dockerfile ENV: ${DOCKERFILE_ENV[*]}"
echo "primary: POSTGRES_USER=$POSTGRES_USER POSTGRES_DB=$POSTGRES_DB, command: ${PRIMARY_COMMAND[*]}"

# ---------------------------------------------------------------------------------------------
say "network: bridge $BRIDGE $NET.1/24, one namespace per service"
for svc in "${SERVICES[@]}"; do
  if ip netns list | grep -qw "^$PREFIX$svc" || [ -e "/etc/netns/$PREFIX$svc" ]; then
    echo "rehearse.sh: namespace $PREFIX$svc already exists (another run, or one that was killed): delete it first" >&2
    exit 1
  fi
done
if ip link show "$BRIDGE" > /dev/null 2>&1 || ip route show | grep -q "^$NET\.0/24"; then
  echo "rehearse.sh: $BRIDGE or $NET.0/24 is already in use" >&2
  exit 1
fi
NET_MADE=1
WORK=$(mktemp -d /tmp/tabula-rehearsal.XXXXXX)
chmod 755 "$WORK"
ip link add "$BRIDGE" type bridge
ip addr add "$NET.1/24" dev "$BRIDGE"
ip link set "$BRIDGE" up
i=0
for svc in "${SERVICES[@]}"; do
  i=$((i + 1))
  ns=$PREFIX$svc
  ip netns add "$ns"
  ip link add "tabrh$i" type veth peer name "tabrc$i"
  ip link set "tabrh$i" master "$BRIDGE" up
  ip link set "tabrc$i" netns "$ns"
  ip -n "$ns" link set "tabrc$i" name eth0
  ip -n "$ns" addr add "${ADDR[$svc]}/24" dev eth0
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
  mkdir -p "/etc/netns/$ns"
  {
    printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n'
    for other in "${SERVICES[@]}"; do printf '%s\t%s\n' "${ADDR[$other]}" "$other"; done
  } > "/etc/netns/$ns/hosts"
  mkdir -p "$WORK/$svc"
  echo "$svc: $ns ${ADDR[$svc]}"
done

# A process of a service: its namespace and hosts file (ip netns exec), its host name (a UTS
# namespace), its private directories, its user. Usage: enter SERVICE USER COMMAND...
cat > "$WORK/inside.sh" << 'EOF'
#!/bin/sh
set -eu
work=$1 svc=$2 user=$3
shift 3
hostname "$svc"
[ -d "$work/$svc/run" ] && mount --bind "$work/$svc/run" /var/run/postgresql
[ -d "$work/$svc/log" ] && mount --bind "$work/$svc/log" /var/log/nginx
[ "$user" = root ] && exec "$@"
exec setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups "$@"
EOF
chmod 755 "$WORK/inside.sh"
enter() {
  local svc=$1 user=$2
  shift 2
  ip netns exec "$PREFIX$svc" unshare --uts -- "$WORK/inside.sh" "$WORK" "$svc" "$user" "$@"
}
wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...: until COMMAND succeeds
  local limit=$1 what=$2 t=0
  shift 2
  until "$@" > /dev/null 2>&1; do
    t=$((t + 1))
    if [ "$t" -ge "$limit" ]; then echo "rehearse.sh: $what not ready after ${limit}s" >&2; return 1; fi
    sleep 1
  done
}
show_log() { echo "--- $1 (last lines)"; tail -n 30 "$1" || true; }
PG_PATH=$PG_BIN:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# ---------------------------------------------------------------------------------------------
say "primary: initdb as the postgres image does, primary-init.sh, then the compose command"
mkdir -p "$WORK/primary/data" "$WORK/primary/run"
chown -R postgres:postgres "$WORK/primary"
chmod 700 "$WORK/primary/data"
PGDATA_P=$WORK/primary/data
printf '%s\n' "$POSTGRES_PASSWORD" > "$WORK/primary/pwfile"
chown postgres "$WORK/primary/pwfile"
enter primary postgres env -i PATH="$PG_PATH" "$PG_BIN/initdb" -D "$PGDATA_P" --username="$POSTGRES_USER" \
  --pwfile="$WORK/primary/pwfile" > "$WORK/primary/initdb.log" 2>&1 || { show_log "$WORK/primary/initdb.log"; exit 1; }
rm -f "$WORK/primary/pwfile"
# The image: listen_addresses '*' in its postgresql.conf.sample, and POSTGRES_HOST_AUTH_METHOD
# (scram-sha-256) for every host connection, appended to pg_hba.conf.
echo "listen_addresses = '*'" >> "$PGDATA_P/postgresql.conf"
echo "host all all all scram-sha-256" >> "$PGDATA_P/pg_hba.conf"
# The image's first start: socket only, the database made, the init scripts run, then a stop.
PRIMARY_INIT_ENV=(env -i PATH="$PG_PATH" PGDATA="$PGDATA_P" "${PRIMARY_ENV[@]}")
enter primary postgres "${PRIMARY_INIT_ENV[@]}" PGUSER="$POSTGRES_USER" sh -c '
  set -e
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='"''"' -p 5432" -w start
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc --dbname postgres --set db="$POSTGRES_DB" <<SQL
CREATE DATABASE :"db";
SQL
  fi
  echo "running /docker-entrypoint-initdb.d/10-replication.sh = docker/primary-init.sh"
  if [ -x "$1" ]; then "$1"; else . "$1"; fi
  pg_ctl -D "$PGDATA" -m fast -w stop
' sh "$REPO/docker/primary-init.sh" > "$WORK/primary/init.log" 2>&1 || { show_log "$WORK/primary/init.log"; exit 1; }
enter primary postgres env -i PATH="$PG_PATH" PGDATA="$PGDATA_P" "${PRIMARY_COMMAND[@]}" > "$WORK/primary/postgres.log" 2>&1 &
# The compose healthcheck.
wait_for 60 primary enter primary postgres env -i PATH="$PG_PATH" pg_isready -U "$POSTGRES_USER" -d "$POSTGRES_DB" \
  || { show_log "$WORK/primary/postgres.log"; exit 1; }
echo "primary healthy (pg_isready -U $POSTGRES_USER -d $POSTGRES_DB)"

say "replica: docker/replica-entrypoint.sh as postgres, empty PGDATA"
mkdir -p "$WORK/replica/data" "$WORK/replica/run"
chown -R postgres:postgres "$WORK/replica"
# As the postgres image makes /var/lib/postgresql/data (and so a new volume): the script's chmod 700 is needed.
chmod 1777 "$WORK/replica/data"
enter replica postgres env -i PATH="$PG_PATH" PGDATA="$WORK/replica/data" "${REPLICA_ENV[@]}" \
  sh "$REPO/docker/replica-entrypoint.sh" > "$WORK/replica/postgres.log" 2>&1 &

say "tabula-1, tabula-2: node dist/src/main.js as nobody, x-node environment"
for svc in tabula-1 tabula-2; do
  mkdir -p "$WORK/$svc/data"
  chown nobody "$WORK/$svc/data"
  enter "$svc" nobody env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent \
    "${DOCKERFILE_ENV[@]}" DATA_DIR="$WORK/$svc/data" "${NODE_ENV_COMPOSE[@]}" \
    node dist/src/main.js > "$WORK/$svc/out.log" 2>&1 &
done
NODE_PORT=$(get PORT "${DOCKERFILE_ENV[@]}")
for svc in tabula-1 tabula-2; do
  # The Dockerfile's HEALTHCHECK, run in the node's namespace.
  wait_for 120 "$svc" enter "$svc" nobody env -i PORT="$NODE_PORT" node -e \
    "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" \
    || { show_log "$WORK/$svc/out.log"; exit 1; }
  echo "$svc healthy (pid $(ip netns pids "$PREFIX$svc" | xargs))"
done

say "entry: nginx -c docker/nginx.conf"
mkdir -p "$WORK/entry/log" "$WORK/entry/prefix"
enter entry root nginx -p "$WORK/entry/prefix/" -c "$REPO/docker/nginx.conf" -e "$WORK/entry/log/error.log" \
  -g "${NGINX_G}pid $WORK/entry/nginx.pid; daemon off;" > "$WORK/entry/out.log" 2>&1 &
wait_for 30 entry curl -sf -o /dev/null "http://$ENTRY/health" \
  || { show_log "$WORK/entry/out.log"; show_log "$WORK/entry/log/error.log"; exit 1; }
echo "entry answers on $ENTRY:80"

# ---------------------------------------------------------------------------------------------
say "checks"
check() { # check NAME OK(0/1) SEEN
  if [ "$2" = 0 ]; then printf 'PASS  %s: %s\n' "$1" "$3"; else printf 'FAIL  %s: %s\n' "$1" "$3"; FAILED=1; fi
}
ok() { "$@" > /dev/null 2>&1 && echo 0 || echo 1; }
psql_in() { # psql_in SERVICE SQL: as postgres over the service's own socket (never fails: prints the error)
  enter "$1" postgres env -i PATH="$PG_PATH" psql -X -qAt -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "$2" 2>&1 || true
}
served_by() { # served_by REQUEST-ID: the node whose log holds the request
  local svc
  for svc in tabula-1 tabula-2; do grep -q "\"requestId\":\"$1\"" "$WORK/$svc/out.log" && { echo "$svc"; return; }; done
  echo none
}

wait_for 60 replica enter replica postgres env -i PATH="$PG_PATH" pg_isready -U "$POSTGRES_USER" -d "$POSTGRES_DB" \
  || show_log "$WORK/replica/postgres.log"
# The nodes check the replica every DATABASE_REPLICA_CHECK_MS (1 s): give it a moment to enter rotation.
for _ in $(seq 1 15); do
  curl -s "http://$ENTRY/health" | grep -q '"inRotation":true' && break
  sleep 1
done

health=$(curl -s -w ' %{http_code}' "http://$ENTRY/health" || true)
check "GET /health through the entry" "$(ok grep -q '"status":"ok".* 200$' <<< "$health")" "$health"

code=$(curl -s -o "$WORK/upload.json" -w '%{http_code}' -X POST --data-binary "@$FIXTURE" \
  "http://$ENTRY/games?filename=$(basename "$FIXTURE")" || true)
ID=$(jq -r '.id // empty' "$WORK/upload.json" 2>/dev/null || true)
check "upload an SGF through the entry" "$(ok test "$code" = 201 -a -n "$ID")" "POST /games $FIXTURE -> $code, id ${ID:-none}"

code=$(curl -s -o "$WORK/game.json" -w '%{http_code}' "http://$ENTRY/games/$ID" || true)
curl -s -o "$WORK/raw.sgf" "http://$ENTRY/games/$ID/raw" || true
same=$(ok cmp -s "$WORK/raw.sgf" "$FIXTURE")
check "the game back by id through the entry" "$(ok test "$code" = 200 -a "$same" = 0 -a "$(jq -r .id "$WORK/game.json" 2>/dev/null)" = "$ID")" \
  "GET /games/$ID -> $code ($(jq -c '{family, publisher, moveCount, result}' "$WORK/game.json" 2>/dev/null | head -c 200)); /raw $( [ "$same" = 0 ] && echo 'is the uploaded file, byte for byte' || echo 'differs from the file')"

code=$(curl -s -o "$WORK/search.json" -w '%{http_code}' "http://$ENTRY/games?limit=5" || true)
found=$(jq -r --arg id "$ID" '[.. | objects | select(has("id")) | .id | tostring] | index($id) != null' "$WORK/search.json" 2>/dev/null || echo false)
check "a search answered" "$(ok test "$code" = 200 -a "$found" = true)" "GET /games?limit=5 -> $code, holds game $ID: $found"

declare -A COUNT=([tabula-1]=0 [tabula-2]=0 [none]=0)
for n in $(seq 1 20); do
  curl -s -o /dev/null -H "X-Request-Id: rehearsal-spread-$n" "http://$ENTRY/games?limit=1" || true
done
sleep 1
for n in $(seq 1 20); do by=$(served_by "rehearsal-spread-$n"); COUNT[$by]=$((COUNT[$by] + 1)); done
check "requests spread over both nodes" "$(ok test "${COUNT[tabula-1]}" -gt 0 -a "${COUNT[tabula-2]}" -gt 0)" \
  "20 searches by X-Request-Id in the nodes' logs: tabula-1 ${COUNT[tabula-1]}, tabula-2 ${COUNT[tabula-2]}, neither ${COUNT[none]}"

dots() { # dots TAG: register, log in and list games over the entry's Dots port; prints the answers' first lines
  node -e '
    const net = require("net");
    const [host, tag] = process.argv.slice(1);
    const login = "rehearsal-" + tag + "-" + process.pid;
    const socket = net.connect(7777, host);
    let text = "";
    const done = () => { console.log(text.split("\n\n\n").filter((a) => a.trim()).map((a) => a.trim().split("\n")[0]).join(" | ")); process.exit(0); };
    socket.on("connect", () => socket.write(`REG ${login} secret\n\n\nLOG ${login} secret\n\n\nGLS\n\n\n`));
    socket.on("data", (d) => { text += d; if (text.split("\n\n\n").length > 3) done(); });
    socket.on("error", (e) => { console.log("error " + e.message); process.exit(0); });
    socket.on("close", done);
    setTimeout(done, 10000);
  ' "$ENTRY" "$1"
}
ws=$(curl -s -o /dev/null -D - --max-time 3 -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
  -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "http://$ENTRY/dots/ws" 2>/dev/null | head -n 1 | tr -d '\r' || true)
check "the Dots WebSocket bridge upgrades through the entry" "$(ok grep -q ' 101' <<< "$ws")" "GET /dots/ws with Upgrade: websocket -> ${ws:-no answer}"

answers=$(dots a)
check "the Dots TCP port through the entry" "$(ok grep -Eq '^200 ?.*\| 200 ?.*\| 202' <<< "$answers")" "REG, LOG, GLS on $ENTRY:7777 -> $answers"

lag_ok=1
for _ in $(seq 1 20); do
  if [ "$(psql_in replica "SELECT count(*) FROM games WHERE id = $ID")" = 1 ]; then lag_ok=0; break; fi
  sleep 0.5
done
streaming=$(psql_in primary "SELECT application_name || ' from ' || host(client_addr) || ': ' || state FROM pg_stat_replication" | tr '\n' ';')
recovery=$(psql_in replica "SELECT pg_is_in_recovery()")
on_replica=$(psql_in replica "SELECT 'id ' || id || ', sha256 ' || encode(sha256, 'hex') FROM games WHERE id = $ID")
SHA=$(sha256sum "$FIXTURE" | cut -d' ' -f1)
check "the replica streams from the primary" "$(ok grep -q "from ${ADDR[replica]}: streaming" <<< "$streaming")" "pg_stat_replication on primary: $streaming"
check "the replica is a hot standby" "$(ok test "$recovery" = t)" "SELECT pg_is_in_recovery() on replica: $recovery"
check "the uploaded game is on the replica" "$(ok test "$lag_ok" = 0 -a -n "$(grep -F "$SHA" <<< "$on_replica")")" "SELECT … FROM games WHERE id = $ID on replica: $(tr '\n' ' ' <<< "$on_replica")"

say "kill -9 tabula-1"
# Every process of its namespace: the node alone (docker kill -s KILL tabula-1).
pids=$(ip netns pids "${PREFIX}tabula-1" | xargs)
kill -9 $pids
for _ in $(seq 1 20); do [ -z "$(ip netns pids "${PREFIX}tabula-1")" ] && break; sleep 0.1; done
echo "killed $pids; left in its namespace: $(ip netns pids "${PREFIX}tabula-1" | wc -l) processes"
codes=() by2=0
for n in $(seq 1 10); do
  codes+=("$(curl -s -o /dev/null -w '%{http_code}' -H "X-Request-Id: rehearsal-after-$n" "http://$ENTRY/games?limit=1" || true)")
done
sleep 1
for n in $(seq 1 10); do
  if [ "$(served_by "rehearsal-after-$n")" = tabula-2 ]; then by2=$((by2 + 1)); fi
done
bad=$(printf '%s\n' "${codes[@]}" | grep -vc '^200$' || true)
check "with tabula-1 killed, searches through the entry answered" "$(ok test "$bad" = 0 -a "$by2" = 10)" \
  "10 × GET /games -> ${codes[*]}; answered by tabula-2: $by2 of 10"
code=$(curl -s -o "$WORK/upload2.json" -w '%{http_code}' -X POST --data-binary "@$FIXTURE_2" \
  -H 'X-Request-Id: rehearsal-upload-after' "http://$ENTRY/games?filename=$(basename "$FIXTURE_2")" || true)
ID2=$(jq -r '.id // empty' "$WORK/upload2.json" 2>/dev/null || true)
check "with tabula-1 killed, an upload through the entry stored" "$(ok test "$code" = 201 -a -n "$ID2")" \
  "POST /games $FIXTURE_2 -> $code, id ${ID2:-none}, by $(served_by rehearsal-upload-after)"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://$ENTRY/games/$ID" || true)
check "with tabula-1 killed, the first game by id through the entry" "$(ok test "$code" = 200)" "GET /games/$ID -> $code"
answers=$(dots b)
check "with tabula-1 killed, the Dots TCP port through the entry" "$(ok grep -Eq '^200 ?.*\| 200 ?.*\| 202' <<< "$answers")" "REG, LOG, GLS -> $answers"

if [ "$FAILED" != 0 ]; then
  for f in primary/postgres.log replica/postgres.log tabula-1/out.log tabula-2/out.log entry/log/error.log; do show_log "$WORK/$f"; done
fi
say "$([ "$FAILED" = 0 ] && echo 'all checks passed' || echo 'some checks FAILED'); tearing down"
