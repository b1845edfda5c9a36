/* SQLite (the amalgamation from the libsqlite3-sys crate, in this translation unit) running a
 * fixed SQL workload on an in-memory database: a large real program for the differential test.
 * Build: clang -I<libsqlite3-sys>/sqlite3 sqlite_app.c (scripts/apps.py does it). Output depends
 * only on the SQL: no clock, no random(), results ordered by ORDER BY. Exit status: the number
 * of statements that failed, 1 when all is well (the query of a missing column fails on
 * purpose, to run SQLite's error path). */
#define SQLITE_THREADSAFE 0
#define SQLITE_OMIT_LOAD_EXTENSION 1
#define SQLITE_DEFAULT_MEMSTATUS 0
#include "sqlite3.c"

#include <stdio.h>

static const char *sql[] = {
    "CREATE TABLE t(id INTEGER PRIMARY KEY, grp INTEGER, name TEXT, val REAL);",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000)"
    " INSERT INTO t(grp, name, val) SELECT x % 17, printf('n%05d', (x * 7919) % 3001), x * 1.25 FROM c;",
    "CREATE INDEX t_grp ON t(grp, name);",
    "SELECT count(*), sum(val), min(name), max(name), total(grp) FROM t;",
    "SELECT grp, count(*), round(avg(val), 3), group_concat(id % 10, '') FROM t WHERE id < 200"
    " GROUP BY grp HAVING count(*) > 10 ORDER BY grp;",
    "SELECT name, val FROM t WHERE grp = 3 ORDER BY name DESC LIMIT 5 OFFSET 2;",
    "CREATE TABLE u(k TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;",
    "INSERT INTO u SELECT name, id FROM t WHERE id % 5 = 0;",
    "UPDATE u SET n = n * 2 WHERE k LIKE 'n00%';",
    "DELETE FROM u WHERE n % 3 = 0;",
    "SELECT count(*), sum(n) FROM u;",
    "SELECT t.grp, count(u.k), sum(u.n) FROM t JOIN u ON u.k = t.name GROUP BY t.grp ORDER BY 3 DESC LIMIT 4;",
    "SELECT id, val, sum(val) OVER (PARTITION BY grp ORDER BY id ROWS 2 PRECEDING),"
    " rank() OVER (ORDER BY name) FROM t WHERE id BETWEEN 100 AND 108 ORDER BY id;",
    "SELECT upper(substr(name, 2)), length(name), instr(name, '9'), replace(name, '0', '-'),"
    " hex(name), quote(val), typeof(val), 7 / 2, 7 % 3, -7 / 2, 1e300 * 1e10, abs(-3) FROM t WHERE id = 42;",
    "SELECT json_object('id', id, 'n', name), json_array(1, 2.5, 'x', NULL) FROM t WHERE id IN (1, 2);",
    "SELECT json_extract('{\"a\":[1,{\"b\":\"c\"}]}', '$.a[1].b'), json_array_length('[1,2,3]');",
    "SELECT printf('%8.3f|%-6s|%x|%05d|%e', val, name, id, grp, val / 7) FROM t WHERE id % 1000 = 0 ORDER BY id;",
    "CREATE VIEW v AS SELECT grp, max(val) AS m FROM t GROUP BY grp;",
    "SELECT * FROM v WHERE m > 3700 ORDER BY grp;",
    "CREATE TRIGGER tr AFTER INSERT ON u BEGIN UPDATE u SET n = n + 1000 WHERE k = new.k; END;",
    "INSERT INTO u VALUES('zzz', 1), ('zzy', 2);",
    "SELECT * FROM u WHERE k >= 'zz' ORDER BY k;",
    "BEGIN; INSERT INTO u VALUES('rolled', 5); ROLLBACK;",
    "SELECT count(*) FROM u WHERE k = 'rolled';",
    "SELECT group_concat(x, ',') FROM (SELECT DISTINCT grp * grp % 11 AS x FROM t ORDER BY x);",
    "SELECT CASE WHEN id % 2 THEN 'odd' ELSE 'even' END AS p, count(*) FROM t GROUP BY p ORDER BY p;",
    "SELECT a.id, b.id FROM t a, t b WHERE a.id < 4 AND b.id = a.id * 1000 ORDER BY a.id;",
    "SELECT * FROM t WHERE name = 'no such';",
    "SELECT nosuchcolumn FROM t;",
    "PRAGMA integrity_check;",
};

static int row(void *unused, int n, char **vals, char **cols) {
  (void)unused;
  (void)cols;
  for (int i = 0; i < n; i++) {
    printf("%s%s", i ? "|" : "", vals[i] ? vals[i] : "NULL");
  }
  printf("\n");
  return 0;
}

int main(void) {
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 2;
  int failures = 0;
  for (unsigned i = 0; i < sizeof sql / sizeof sql[0]; i++) {
    char *err = NULL;
    if (sqlite3_exec(db, sql[i], row, NULL, &err) != SQLITE_OK) {
      printf("error %u: %s\n", i, err);
      sqlite3_free(err);
      failures++;
    }
  }
  printf("changes %d total %d\n", sqlite3_changes(db), sqlite3_total_changes(db));
  sqlite3_close(db);
  return failures;
}
