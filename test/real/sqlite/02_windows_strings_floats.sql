-- Window functions, string functions, floating point, JSON, output modes.
.headers on
.mode list
CREATE TABLE t (id INTEGER PRIMARY KEY, grp TEXT, x REAL, s TEXT);
WITH RECURSIVE gen(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM gen WHERE n < 5000)
INSERT INTO t
SELECT n, char(65 + n % 5), (n * 7 % 101) / 3.0 - 10.0,
       substr('the quick brown fox jumps over the lazy dog', 1 + n % 30, 1 + n % 11)
FROM gen;

-- Window functions: ranking, running sums, frames, lag/lead, ntile.
SELECT grp, id, printf('%.4f', x) AS x,
       row_number() OVER w AS rn,
       rank() OVER (PARTITION BY grp ORDER BY round(x)) AS rk,
       dense_rank() OVER (PARTITION BY grp ORDER BY round(x)) AS drk,
       printf('%.4f', sum(x) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)) AS run3,
       lag(id, 1, -1) OVER w AS prev, lead(id) OVER w AS next,
       ntile(4) OVER w AS q
FROM t WHERE id % 250 = 0 OR id < 6
WINDOW w AS (PARTITION BY grp ORDER BY id)
ORDER BY grp, id;

SELECT grp, count(*), printf('%.6f', avg(x)), printf('%.6f', total(x * x)), min(x) < max(x)
FROM t GROUP BY grp ORDER BY grp;

SELECT id, first_value(s) OVER win, last_value(s) OVER win, nth_value(id, 3) OVER win,
       percent_rank() OVER (ORDER BY x, id) < 0.5 AS lower_half,
       printf('%.5f', cume_dist() OVER (ORDER BY x, id)) AS cd
FROM t WHERE id <= 12
WINDOW win AS (ORDER BY id RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING)
ORDER BY id;

SELECT grp, group_concat(id, ',') FILTER (WHERE id % 997 = 0) AS ids
FROM t GROUP BY grp ORDER BY grp;

-- Strings.
SELECT upper('Hello, World'), lower('MiXeD'), length('naïve'), length(CAST('naïve' AS BLOB)),
       substr('abcdefgh', 3, 4), substr('abcdefgh', -3), replace('a-b-c-d', '-', '+'),
       instr('haystack with needle', 'needle'), trim('  pad  '), ltrim('xxabc', 'x'),
       rtrim('abcyy', 'y'), hex('AZ'), quote('it''s'), unicode('€'), char(9731, 9730);
SELECT 'abc' LIKE 'A%', 'abc' GLOB 'A*', 'a_c' LIKE 'a\_c' ESCAPE '\', 'x' || NULL IS NULL;
SELECT printf('[%5d|%-5d|%05.1f|%e|%x|%o|%c|%q|%10.3s]', 42, 42, 3.14159, 12345.678, 255, 8, 'Q', 'o''k', 'truncate');
SELECT s, count(*) FROM t GROUP BY s HAVING count(*) > 40 ORDER BY count(*) DESC, s LIMIT 8;
SELECT group_concat(DISTINCT grp) FROM (SELECT grp FROM t ORDER BY grp);

-- Floating point: rounding, conversions, IEEE corner cases, math functions.
SELECT 1.0 / 3, 2.0 / 3 * 3, 0.1 + 0.2, 1e308 * 10, -1e308 * 10, round(2.5), round(-2.5), round(1.23456, 3);
SELECT CAST('3.75abc' AS REAL), CAST(7.99 AS INTEGER), CAST(-7.99 AS INTEGER), 7 / 2, 7 % 3, -7 / 2, -7 % 3;
SELECT 9223372036854775807 + 0.0, CAST(9223372036854775807 AS REAL), 1 / 0, 1.0 / 0, abs(-4.5), sign(-3);
SELECT printf('%.10f', sqrt(2)), printf('%.10f', pi()), printf('%.8f', exp(1)), printf('%.8f', ln(10)),
       log10(1000), log2(1024), pow(2, 10), ceil(1.2), floor(-1.2), trunc(-1.7), mod(10.5, 3);
SELECT printf('%.12g', sin(1)), printf('%.12g', cos(1)), printf('%.12g', atan2(1, 2)), degrees(pi()), radians(180) = pi();
SELECT printf('%!.20g', 0.1), printf('%.3e', 6.02214076e23), 1e-320 > 0, typeof(1e-320), 5e-324 * 0.5;
SELECT x, typeof(x) FROM (SELECT 1 AS x UNION ALL SELECT 1.0 UNION ALL SELECT '1' UNION ALL SELECT x'01' UNION ALL SELECT NULL) ORDER BY 2;

-- JSON.
SELECT json_object('id', 1, 'tags', json_array('a', 'b', 3.5), 'none', NULL);
SELECT json_extract('{"a":{"b":[10,20,{"c":"deep"}]}}', '$.a.b[2].c'), json_valid('{"x":'), json_type('[1,2]');
SELECT key, value, type FROM json_each('{"k1":1,"k2":[1,2],"k3":{"z":true}}') ORDER BY key;
SELECT json_group_array(id) FROM (SELECT id FROM t WHERE id < 8 ORDER BY id DESC);
SELECT json_set('{"a":1}', '$.b', 2, '$.a', 'one'), json_remove('[0,1,2,3]', '$[1]'), json_patch('{"a":1,"b":2}', '{"b":null,"c":3}');

-- Output modes.
.mode csv
SELECT id, grp, printf('%.3f', x), s FROM t WHERE id IN (1, 2, 3, 4000);
.mode box
SELECT grp, count(*) AS n FROM t GROUP BY grp ORDER BY grp;
.mode json
SELECT id, grp, s FROM t WHERE id < 4 ORDER BY id;
.mode insert t_copy
SELECT id, grp, s FROM t WHERE id < 3 ORDER BY id;
.mode quote
SELECT 'text', 1.5, NULL, x'CAFE';
