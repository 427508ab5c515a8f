/*
 * A PostgreSQL server of a test's own: initdb in a temporary folder, listening on a Unix socket there only (no
 * TCP port), trusting its one user "memscope", stopped and removed at the end. PostgreSQL refuses to run as
 * root, and CI runs as root: there the server runs as the unprivileged user nobody (runuser), which owns the
 * folder. The binaries are pg_config's bindir's, or Debian's /usr/lib/postgresql/<version>/bin, and libpq must
 * load (scripts/setup test installs postgresql, which brings libpq5). Needs _XOPEN_SOURCE 700 and run_shell.h
 * before it.
 */
#ifndef MEMSCOPE_POSTGRES_SERVER_H
#define MEMSCOPE_POSTGRES_SERVER_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness/history/store.h"
#include "../support/remove_tree.h"

struct postgres_server {
    char dir[64];     /* the data folder (dir/data), the socket and the log */
    char bin[256];    /* initdb, pg_ctl */
    char as_user[64]; /* "runuser -u nobody --" as root, else "" */
    bool running;
};

/* Whether PostgreSQL can be tested here: libpq loads, and initdb is found (its folder into p->bin); when not,
 * which is missing, into why. */
static bool postgres_find(struct postgres_server *p, char *why, size_t size)
{
    static struct outcome o;
    struct error e = {0};
    if (store_postgres_load(&e)) {
        snprintf(why, size, "%s", e.message);
        return false;
    }
    shell(&o, "{ command -v pg_config >/dev/null && d=$(pg_config --bindir) && test -x \"$d/initdb\" && echo \"$d\"; } "
              "|| ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1");
    snprintf(p->bin, sizeof p->bin, "%.*s", (int)strcspn(o.output, "\n"), o.output);
    snprintf(o.output, sizeof o.output, "%s/initdb", p->bin);
    if (p->bin[0] && access(o.output, X_OK) == 0)
        return true;
    snprintf(why, size,
             "PostgreSQL's server is not installed: no initdb and pg_ctl in pg_config --bindir or "
             "/usr/lib/postgresql/*/bin (scripts/setup test installs postgresql)");
    return false;
}

/* pg_ctl as the server's user: status (3: not running), start or stop. */
static int postgres_ctl(const struct postgres_server *p, const char *action)
{
    static struct outcome o;
    shell(&o,
          "%s %s/pg_ctl -D %s/data -l %s/log -w -t 30 -m immediate -o \"-k %s -c listen_addresses='' -c fsync=off\" %s",
          p->as_user, p->bin, p->dir, p->dir, p->dir, action);
    return o.exit_code;
}

/* 0 started; -1 it failed (the message says why). */
static int postgres_start(struct postgres_server *p, char *why, size_t size)
{
    static struct outcome o;
    snprintf(p->dir, sizeof p->dir, "/tmp/memscope-pg-XXXXXX");
    if (!mkdtemp(p->dir)) {
        snprintf(why, size, "cannot create a folder for the server");
        return -1;
    }
    snprintf(p->as_user, sizeof p->as_user, "%s", getuid() == 0 ? "runuser -u nobody --" : "");
    if (getuid() == 0) {
        shell(&o, "chown nobody %s", p->dir);
        if (o.exit_code) {
            snprintf(why, size, "chown nobody %s: %.1500s", p->dir, o.output);
            return -1;
        }
    }
    shell(&o, "%s %s/initdb -D %s/data -A trust -U memscope --no-sync -E UTF8 --locale=C", p->as_user, p->bin, p->dir);
    if (o.exit_code) {
        snprintf(why, size, "initdb failed:\n%.1500s", o.output);
        return -1;
    }
    if (postgres_ctl(p, "start")) {
        shell(&o, "cat %s/log", p->dir);
        snprintf(why, size, "the server did not start:\n%.1500s", o.output);
        return -1;
    }
    p->running = true;
    return 0;
}

/* The connection string of a database of the server. */
static void postgres_target(const struct postgres_server *p, const char *database, char *target, size_t size)
{
    snprintf(target, size, "host=%s user=memscope dbname=%s", p->dir, database);
}

/* A new, empty database; 0 when made. */
static int postgres_create_database(const struct postgres_server *p, const char *name, struct error *e)
{
    char target[256], sql[128];
    struct store *s;
    postgres_target(p, "postgres", target, sizeof target);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    if (store_open(target, 0, &s, e))
        return e->code;
    store_run(s, sql, 0, NULL, NULL, e);
    store_close(s);
    return e->code;
}

/* Stops the server and removes its folder; true when no server is left running there. */
static bool postgres_stop(struct postgres_server *p)
{
    if (!p->dir[0])
        return true;
    if (p->running)
        postgres_ctl(p, "stop");
    bool stopped = postgres_ctl(p, "status") == 3;
    p->running = !stopped;
    if (stopped)
        remove_tree(p->dir);
    return stopped;
}

#endif
