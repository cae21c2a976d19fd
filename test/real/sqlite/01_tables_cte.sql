-- Tables, a recursive CTE of 20000 rows, indexes, joins, GROUP BY, HAVING, subqueries.
-- Runs against a fresh database file (test.db) in the run's folder.
.headers on
.mode list
PRAGMA page_size = 4096;
PRAGMA journal_mode = DELETE;

CREATE TABLE customer (
  id     INTEGER PRIMARY KEY,
  name   TEXT NOT NULL,
  city   TEXT NOT NULL,
  born   INTEGER
);
CREATE TABLE item (
  id     INTEGER PRIMARY KEY,
  label  TEXT UNIQUE NOT NULL,
  price  REAL NOT NULL CHECK (price > 0)
);
CREATE TABLE orders (
  id       INTEGER PRIMARY KEY,
  customer INTEGER NOT NULL REFERENCES customer(id),
  item     INTEGER NOT NULL REFERENCES item(id),
  qty      INTEGER NOT NULL,
  day      INTEGER NOT NULL
);

-- 20000 customers from a recursive CTE, with a deterministic linear congruential generator.
WITH RECURSIVE gen(n, r) AS (
  SELECT 1, 12345
  UNION ALL
  SELECT n + 1, (r * 1103515245 + 12345) % 2147483648 FROM gen WHERE n < 20000
)
INSERT INTO customer (id, name, city, born)
SELECT n,
       'cust-' || printf('%05d', n),
       CASE r % 7 WHEN 0 THEN 'Oslo' WHEN 1 THEN 'Lima' WHEN 2 THEN 'Pune' WHEN 3 THEN 'Kobe'
                  WHEN 4 THEN 'Nice' WHEN 5 THEN 'Bern' ELSE 'Faro' END,
       CASE WHEN r % 13 = 0 THEN NULL ELSE 1940 + r % 65 END
FROM gen;

WITH RECURSIVE gen(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM gen WHERE n < 200)
INSERT INTO item (id, label, price)
SELECT n, 'item-' || hex(n * 7919), round(1.5 + (n * 37 % 1000) / 7.0, 2) FROM gen;

WITH RECURSIVE gen(n, r) AS (
  SELECT 1, 987654
  UNION ALL
  SELECT n + 1, (r * 69069 + 1) % 4294967296 FROM gen WHERE n < 60000
)
INSERT INTO orders (id, customer, item, qty, day)
SELECT n, 1 + r % 20000, 1 + (r / 20000) % 200, 1 + (r / 7) % 9, (r / 13) % 365 FROM gen;

SELECT count(*) AS customers, count(born) AS with_birth_year, min(born), max(born) FROM customer;
SELECT count(*) AS orders, sum(qty) AS items, count(DISTINCT customer) AS buyers FROM orders;

CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_item_day ON orders(item, day);
CREATE INDEX customer_city ON customer(city, born);
ANALYZE;

-- Joins and grouping.
SELECT c.city, count(*) AS n, sum(o.qty) AS qty, printf('%.2f', sum(o.qty * i.price)) AS revenue
FROM orders o JOIN customer c ON c.id = o.customer JOIN item i ON i.id = o.item
GROUP BY c.city ORDER BY c.city;

SELECT i.label, sum(o.qty) AS qty
FROM item i JOIN orders o ON o.item = i.id
GROUP BY i.id HAVING sum(o.qty) > 1650 ORDER BY qty DESC, i.label LIMIT 10;

SELECT c.name, count(o.id) AS n
FROM customer c LEFT JOIN orders o ON o.customer = c.id
WHERE c.id BETWEEN 100 AND 120
GROUP BY c.id ORDER BY c.id;

-- Customers without orders, via NOT EXISTS and via EXCEPT: the same number.
SELECT count(*) FROM customer c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id);
SELECT count(*) FROM (SELECT id FROM customer EXCEPT SELECT customer FROM orders);

-- Correlated subquery, IN list, CASE, COALESCE.
SELECT c.city,
       sum(CASE WHEN c.born IS NULL THEN 1 ELSE 0 END) AS unknown_age,
       coalesce(max(c.born), -1) AS youngest
FROM customer c
WHERE c.city IN ('Oslo', 'Lima', 'Faro')
GROUP BY c.city ORDER BY 1;

SELECT day / 30 AS month, count(*), sum(qty), max(qty), min(customer)
FROM orders WHERE item IN (SELECT id FROM item WHERE price < 20.0)
GROUP BY month ORDER BY month;

-- UPDATE and DELETE with subqueries, then the totals again.
UPDATE item SET price = round(price * 1.1, 2) WHERE id % 10 = 0;
DELETE FROM orders WHERE qty = 9 AND day > 300;
SELECT count(*), sum(qty), printf('%.2f', sum(qty * (SELECT price FROM item WHERE id = orders.item)))
FROM orders;

-- The planner uses the indexes (the plan is deterministic for this schema and data).
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer = 42;
SELECT count(*) FROM orders WHERE customer = 42;
PRAGMA integrity_check;
