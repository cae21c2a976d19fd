-- expect-exit: 1
-- Transactions, savepoints, triggers, views, constraint violations and other errors. The shell
-- reports each error on stderr, goes on, and exits with status 1 at the end.
.headers on
.mode list
PRAGMA foreign_keys = ON;
CREATE TABLE account (id INTEGER PRIMARY KEY, owner TEXT NOT NULL UNIQUE, balance INTEGER NOT NULL CHECK (balance >= 0));
CREATE TABLE ledger (id INTEGER PRIMARY KEY AUTOINCREMENT, account INTEGER REFERENCES account(id), delta INTEGER, note TEXT);
CREATE TRIGGER account_change AFTER UPDATE OF balance ON account
BEGIN
  INSERT INTO ledger (account, delta, note) VALUES (new.id, new.balance - old.balance, 'update');
END;
CREATE VIEW summary AS SELECT owner, balance, (SELECT count(*) FROM ledger l WHERE l.account = a.id) AS moves FROM account a;

BEGIN TRANSACTION;
WITH RECURSIVE gen(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM gen WHERE n < 100)
INSERT INTO account (id, owner, balance) SELECT n, 'owner' || n, n * 100 FROM gen;
COMMIT;
SELECT count(*), sum(balance) FROM account;

-- A transfer that commits.
BEGIN;
UPDATE account SET balance = balance - 50 WHERE id = 1;
UPDATE account SET balance = balance + 50 WHERE id = 2;
COMMIT;
-- A transfer that is rolled back.
BEGIN;
UPDATE account SET balance = balance - 70 WHERE id = 3;
UPDATE account SET balance = balance + 70 WHERE id = 4;
ROLLBACK;
SELECT * FROM summary WHERE owner IN ('owner1', 'owner2', 'owner3', 'owner4') ORDER BY owner;

-- Savepoints.
SAVEPOINT outer_sp;
UPDATE account SET balance = 0 WHERE id BETWEEN 10 AND 19;
SAVEPOINT inner_sp;
DELETE FROM account WHERE id > 90;
ROLLBACK TO inner_sp;
RELEASE outer_sp;
SELECT count(*), sum(balance) FROM account;
SELECT count(*), sum(delta) FROM ledger;

-- Errors: each is reported and the script goes on.
INSERT INTO account (id, owner, balance) VALUES (1, 'dup-id', 5);
INSERT INTO account (owner, balance) VALUES ('owner5', 5);
UPDATE account SET balance = -1 WHERE id = 7;
INSERT INTO account (owner, balance) VALUES (NULL, 1);
INSERT INTO ledger (account, delta, note) VALUES (12345, 1, 'no such account');
SELECT * FROM no_such_table;
SELECT no_such_column FROM account;
SELEC 1;
SELECT abs(-9223372036854775808);
SELECT sum(x) FROM (SELECT 9223372036854775807 AS x UNION ALL SELECT 1);
SELECT json('{bad json');
-- A failing statement inside a transaction: the transaction stays open, then commits.
BEGIN;
UPDATE account SET balance = balance + 1 WHERE id = 50;
INSERT INTO account (id, owner, balance) VALUES (50, 'again', 1);
COMMIT;
SELECT balance FROM account WHERE id = 50;
-- Constraint conflict resolution instead of errors.
INSERT OR IGNORE INTO account (id, owner, balance) VALUES (1, 'ignored', 1);
INSERT OR REPLACE INTO account (id, owner, balance) VALUES (100, 'replaced', 1);
INSERT INTO account (id, owner, balance) VALUES (99, 'upserted', 7)
  ON CONFLICT (id) DO UPDATE SET balance = balance + excluded.balance;
SELECT id, owner, balance FROM account WHERE id IN (1, 99, 100) ORDER BY id;
SELECT count(*) FROM ledger;
PRAGMA foreign_key_check;
PRAGMA integrity_check;
