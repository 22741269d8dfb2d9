#pragma once
// The ad-hoc query lists, shared by the SQLite-oracle tests (tests/e2e) and the
// CUDA-vs-CPU tests (tests/gpu).
#include <ostream>

namespace raydb::test {

struct Case {
  const char* name;
  const char* sql;
  const char* sqlite_sql = "";  // when SQLite needs other text for the same question
};

inline void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// ---------------------------------------------------------------------------------
// SSB SF 0.01

inline const Case kSsbCases[] = {
    {"count_star", "select count(*) from lineorder"},
    {"global_aggregates",
     "select count(*), sum(lo_quantity), min(lo_orderdate), max(lo_orderdate), avg(lo_discount) from lineorder"},
    {"group_by_string", "select lo_shipmode, count(*) as n from lineorder group by lo_shipmode order by lo_shipmode"},
    {"having_order_desc_ties",
     "select c_region, count(*) as n from customer group by c_region having count(*) > 10 order by n desc, c_region"},
    {"join_on_avg",
     "select d_year, avg(lo_discount) as avg_disc from lineorder join date on lo_orderdate = d_datekey "
     "group by d_year order by d_year"},
    {"count_distinct", "select count(distinct lo_custkey), count(distinct lo_shipmode) from lineorder"},
    {"distinct_desc", "select distinct c_region from customer order by c_region desc"},
    {"distinct_two_columns", "select distinct c_region, c_nation from customer order by 1, 2"},
    {"count_distinct_grouped",
     "select c_nation, count(distinct c_city) as cities from customer group by c_nation order by cities desc, c_nation"},
    {"min_max_strings", "select min(c_name), max(c_name), min(c_city), max(c_phone) from customer"},
    {"min_max_strings_grouped",
     "select c_region, min(c_nation), max(c_nation) from customer group by c_region order by 1"},
    {"string_range",
     "select s_name, s_city from supplier where s_city between 'CHINA    0' and 'GERMANY  9' order by s_name"},
    {"string_range_open", "select count(*) from customer where c_name >= 'Customer#000000100' and c_name < 'Customer#000000200'"},
    {"like_percent", "select count(*) from part where p_name like '%green%'"},
    {"like_underscore", "select p_category, count(*) as n from part where p_category like 'MFGR#_2' group by p_category order by 1"},
    {"like_prefix_case_sensitive", "select count(*) from customer where c_name like 'customer%'"},
    {"in_list_not", "select count(*) from customer where c_mktsegment in ('BUILDING', 'MACHINERY') and not c_region = 'ASIA'"},
    {"or_predicates", "select count(*) from customer where c_region = 'ASIA' or c_nation = 'PERU' or c_custkey < 10"},
    {"not_between_not_in_not_like",
     "select count(*) from lineorder where lo_quantity not between 10 and 40 and lo_shipmode not in ('AIR', 'MAIL') "
     "and lo_orderpriority not like '1%'"},
    {"order_desc_limit",
     "select lo_orderkey, lo_linenumber, lo_revenue from lineorder order by lo_revenue desc, lo_orderkey, lo_linenumber "
     "limit 10"},
    {"limit_offset", "select lo_orderkey, lo_linenumber from lineorder order by lo_orderkey, lo_linenumber limit 5 offset 100"},
    {"limit_ties_ordinal", "select lo_quantity, count(*) from lineorder group by lo_quantity order by 2 desc limit 5"},
    {"group_by_expression",
     "select lo_orderdate / 10000 as yr, sum(lo_revenue) as rev from lineorder group by lo_orderdate / 10000 order by yr"},
    {"group_by_ordinal_arith", "select lo_discount * 2 + 1 as d2, count(*) as n from lineorder group by 1 order by d2"},
    {"integer_division_modulo", "select sum(lo_revenue / 100), sum(lo_revenue % 7), sum(lo_quantity / 7) from lineorder"},
    {"arithmetic_precedence", "select sum(-lo_discount + lo_tax * 2 - (lo_quantity - 3)) from lineorder"},
    {"product_sum", "select sum(lo_extendedprice * (100 - lo_discount)) from lineorder"},
    {"case_grouping",
     "select case when lo_quantity < 10 then 'small' when lo_quantity < 30 then 'medium' else 'large' end as size, "
     "count(*) as n from lineorder group by 1 order by size"},
    {"case_in_sum",
     "select sum(case when lo_shipmode = 'AIR' then lo_revenue else 0 end) as air, count(lo_orderkey) from lineorder"},
    {"join_three_tables_join_on",
     "select c_region, s_region, count(*) as n from lineorder join customer on lo_custkey = c_custkey "
     "join supplier on lo_suppkey = s_suppkey group by c_region, s_region order by c_region, s_region"},
    {"self_join_aliases",
     "select a.c_custkey, b.c_custkey from customer a, customer b where a.c_city = b.c_city "
     "and a.c_custkey < b.c_custkey and a.c_nation = 'CHINA' order by 1, 2"},
    {"join_on_strings_dims", "select s_nation, count(*) as n from supplier join customer on s_city = c_city group by s_nation order by s_nation"},
    {"chain_join_non_star",
     "select count(*), sum(lo_quantity) from lineorder, customer, supplier where lo_custkey = c_custkey and c_city = s_city"},
    {"five_table_join",
     "select c_region, p_mfgr, sum(lo_revenue) as rev from lineorder, customer, supplier, part, date "
     "where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey and lo_orderdate = d_datekey "
     "and d_year >= 1997 group by c_region, p_mfgr order by rev desc"},
    {"avg_order_by_double",
     "select d_month, avg(lo_extendedprice) as avgp from lineorder, date where lo_orderdate = d_datekey and d_year = 1995 "
     "group by d_month order by avgp"},
    {"column_equals_column", "select count(*) from lineorder where lo_orderdate = lo_commitdate"},
    {"count_distinct_filtered", "select count(distinct lo_suppkey), count(distinct lo_partkey) from lineorder where lo_quantity = 1"},
    {"having_without_select_agg",
     "select p_brand1 from part group by p_brand1 having count(*) > 5 and min(p_size) < 3 order by p_brand1"},
    {"empty_aggregate",
     "select sum(lo_revenue), count(*), avg(lo_quantity), min(lo_shipmode), max(lo_orderdate), count(distinct lo_custkey) "
     "from lineorder where lo_quantity > 1000"},
    {"empty_rows", "select lo_orderkey, lo_shipmode from lineorder where lo_discount > 100"},
    {"empty_groups", "select lo_shipmode, count(*) from lineorder where lo_quantity < 0 group by lo_shipmode"},
    {"is_not_null", "select count(*) from customer where c_city is not null"},
    {"select_star_filter", "select * from supplier where s_suppkey <= 5 order by s_suppkey"},
    // gpuagg: DOUBLE sums/averages (exact, order-independent), MIN/MAX over DOUBLE and
    // 128-bit values, DISTINCT aggregates of every kind, DOUBLE and 128-bit GROUP BY keys,
    // DOUBLE join keys; with NULLs from CASE, groups without values and many groups.
    {"gpuagg_double_sum_many_groups",
     "select lo_orderkey, sum(cast(lo_extendedprice as double) / lo_quantity) as s, avg(cast(lo_tax as double) * 0.5) "
     "from lineorder group by lo_orderkey order by lo_orderkey limit 300 offset 2000"},
    {"gpuagg_double_sum_case_nulls",
     "select lo_shipmode, sum(case when lo_discount > 5 then cast(lo_revenue as double) / 3 end) as s, "
     "avg(case when lo_quantity > 45 then cast(lo_quantity as double) * 1.5 end) as a, count(*) from lineorder "
     "group by lo_shipmode order by lo_shipmode"},
    {"gpuagg_double_sum_empty_groups",
     "select lo_discount, sum(case when lo_discount > 8 then null else cast(lo_tax as double) / 7 end) as s, "
     "avg(case when lo_discount > 8 then null else cast(lo_tax as double) / 7 end) as a from lineorder "
     "group by lo_discount order by lo_discount"},
    {"gpuagg_double_global", "select sum(cast(lo_revenue as double) / 7), avg(cast(lo_quantity as double) / 3), "
     "min(cast(lo_revenue as double) / lo_quantity), max(cast(lo_revenue as double) / lo_quantity) from lineorder"},
    {"gpuagg_double_min_max_zeros",
     "select lo_tax, min(cast(lo_revenue as double) / lo_quantity) as mn, "
     "min(case when lo_discount < 3 then cast(lo_discount - 1 as double) * 0.0 end) as z1, "
     "max(case when lo_discount < 3 then cast(lo_discount - 1 as double) * 0.0 end) as z2 "
     "from lineorder group by lo_tax order by lo_tax"},
    {"gpuagg_huge_min_max",
     "select lo_shipmode, min(lo_extendedprice * lo_extendedprice * lo_quantity) as mn, "
     "max(lo_extendedprice * lo_extendedprice * lo_quantity) as mx, "
     "max(case when lo_quantity > 49 then lo_extendedprice * lo_revenue end) as m2 from lineorder "
     "group by lo_shipmode order by lo_shipmode"},
    {"gpuagg_distinct_every_kind_grouped",
     "select lo_shipmode, sum(distinct lo_quantity), avg(distinct lo_discount), min(distinct lo_tax), "
     "max(distinct lo_orderdate), count(distinct cast(lo_discount as double) / 2), "
     "sum(distinct cast(lo_quantity as double) / 4), count(distinct lo_extendedprice * lo_extendedprice * lo_quantity), "
     "min(distinct lo_orderpriority), max(distinct lo_extendedprice * lo_quantity) from lineorder "
     "group by lo_shipmode order by lo_shipmode"},
    {"gpuagg_distinct_global",
     "select count(distinct lo_extendedprice * lo_extendedprice * lo_quantity), sum(distinct cast(lo_quantity as double) / 4), "
     "max(distinct case when lo_tax > 4 then lo_tax end), avg(distinct lo_supplycost), "
     "sum(distinct lo_extendedprice * lo_quantity) from lineorder"},
    {"gpuagg_distinct_many_groups_case_nulls",
     "select lo_orderkey, count(distinct case when lo_discount > 4 then lo_discount end) as c, "
     "sum(distinct case when lo_quantity < 20 then cast(lo_quantity as double) / 3 end) as s, "
     "min(distinct case when lo_tax > 7 then lo_tax end) as m from lineorder "
     "group by lo_orderkey order by lo_orderkey limit 100 offset 50"},
    {"gpuagg_group_by_double_key",
     "select cast(lo_discount as double) / 4 as d, count(*), sum(lo_quantity), avg(cast(lo_tax as double)) from lineorder "
     "group by 1 order by 1"},
    {"gpuagg_group_by_double_zero_and_nulls",
     "select cast(lo_discount - 5 as double) * 0.0 as z, case when lo_quantity > 40 then null "
     "else cast(lo_quantity as double) / 8 end as q, count(*), sum(lo_revenue) from lineorder group by 1, 2"},
    {"gpuagg_group_by_double_many_groups",
     "select cast(lo_orderkey as double) / 3 as k, sum(lo_quantity), max(cast(lo_tax as double)) from lineorder "
     "group by 1 order by 1 limit 100 offset 1000"},
    {"gpuagg_group_by_huge_key",
     "select lo_extendedprice * lo_extendedprice * lo_quantity as h, count(*), sum(cast(lo_tax as double) / 3) "
     "from lineorder where lo_quantity < 3 group by 1 order by 1 limit 200"},
    {"gpuagg_group_by_huge_and_double_empty",
     "select lo_extendedprice * lo_extendedprice * lo_quantity as h, cast(lo_tax as double) as t, count(*) "
     "from lineorder where lo_quantity > 100 group by 1, 2"},
    {"gpuagg_join_double_key",
     "select count(*), sum(c_custkey), sum(s_suppkey) from customer, supplier "
     "where cast(c_custkey as double) / 4 = cast(s_suppkey as double) / 2"},
    // Deep expressions: right-nested operators (evaluated taller operand first) and a
    // CASE with many branches (a fold over two stack slots): no stack limit is reached.
    {"deep_right_nested_arith", "select sum(lo_tax - (lo_discount + (lo_quantity * (lo_tax - (lo_discount - (lo_quantity + (lo_tax * (lo_discount - (lo_quantity - (lo_tax + (lo_discount * (lo_quantity - (lo_tax - (lo_discount + (lo_quantity * (lo_tax - (lo_discount - (lo_quantity + (lo_tax * (lo_discount - (lo_quantity - (lo_tax + (lo_discount * (lo_quantity - (lo_quantity))))))))))))))))))))))))) from lineorder where lo_orderkey < 20000"},
    {"case_many_branches", "select case when lo_quantity < 4 then 1 when lo_quantity < 8 then 2 when lo_quantity < 12 then 3 when lo_quantity < 16 then 4 when lo_quantity < 20 then 5 when lo_quantity < 24 then 6 when lo_quantity < 28 then 7 when lo_quantity < 32 then 8 when lo_quantity < 36 then 9 when lo_quantity < 40 then 10 when lo_quantity < 44 then 11 when lo_quantity < 48 then 12 else 13 end as b, count(*) from lineorder group by 1 order by 1"},
    // gpuexpr: cross products, string expressions across dictionaries, casts from DOUBLE.
    {"cross_product_count", "select count(*) from supplier, date where s_suppkey < 3"},
    {"cross_product_residual_strings",
     "select s_name, c_name from supplier, customer where s_suppkey < 4 and c_custkey < 6 and s_nation <> c_nation "
     "order by 1, 2"},
    {"cross_product_ordered_ties",
     "select s_suppkey, d_datekey from supplier, date where s_suppkey < 4 and d_datekey < 19920106 "
     "order by s_suppkey limit 9"},
    {"cross_then_keyed_join",
     "select c_nation, count(*), sum(lo_quantity) from lineorder, customer, supplier "
     "where lo_custkey = c_custkey and s_suppkey = 1 and c_region < s_region group by c_nation order by 1"},
    {"case_string_mixed_dictionaries",
     "select lo_orderkey, lo_linenumber, case when lo_quantity < 10 then c_nation when lo_quantity < 20 then 'few' "
     "else s_city end as label from lineorder, customer, supplier where lo_custkey = c_custkey "
     "and lo_suppkey = s_suppkey and lo_orderkey < 200 order by label, 1, 2"},
    {"group_by_string_expression",
     "select case when lo_discount > 5 then c_region else s_region end as r, count(*), min(c_city), "
     "max(case when lo_tax > 4 then s_nation else 'none' end) from lineorder, customer, supplier "
     "where lo_custkey = c_custkey and lo_suppkey = s_suppkey group by 1 order by 1"},
    {"string_compare_across_dictionaries",
     "select count(*), count(distinct case when c_city < s_city then c_city else s_city end) from lineorder, customer, "
     "supplier where lo_custkey = c_custkey and lo_suppkey = s_suppkey and c_city between s_city and 'VIETNAM  9'"},
    {"cast_double_to_bigint", "select lo_orderkey, cast(cast(lo_revenue as double) / 7 as bigint) as r from lineorder "
     "where lo_orderkey < 100 order by 1, 2",
     "select lo_orderkey, cast(round(cast(lo_revenue as real) / 7) as integer) as r from lineorder "
     "where lo_orderkey < 100 order by 1, 2"},
};

inline const Case kCsvCases[] = {
    {"all_types_roundtrip", "select * from emp order by id"},
    {"string_with_comma", "select id, name from emp where name = 'Smith, John'"},
    {"string_with_quotes", "select id from emp where name = 'Quote \"Q\" Person'"},
    {"like_case_sensitive", "select name from emp where name like 'A%' order by name"},
    {"like_underscore_unicode", "select name from emp where name like 'Zo_'"},
    {"like_literal_percent_row", "select name from emp where name like 'Bo%b' order by name"},
    // PostgreSQL's LIKE escapes with backslash by default; SQLite needs ESCAPE for that.
    {"like_escaped_underscore", "select name from emp where name like '%\\_%' order by name",
     "select name from emp where name like '%\\_%' escape '\\' order by name"},
    {"group_decimal_sum_avg",
     "select dept, count(*) as n, sum(salary) as total, avg(salary) as avg_sal from emp group by dept order by dept"},
    {"min_max_dates", "select dept, min(hired), max(hired) from emp group by dept order by 1"},
    {"date_between_literals",
     "select name, hired from emp where hired between DATE '2019-01-01' and DATE '2020-12-31' order by hired, name"},
    {"date_compared_with_string", "select name from emp where hired < '2019-03-01' order by name"},
    {"date_equality_ties", "select name, hired from emp where hired = DATE '2019-03-01' order by hired"},
    {"date_minus_date", "select id, hired - DATE '2015-01-01' as days from emp order by id",
     "select id, cast(julianday(hired) - julianday('2015-01-01') as integer) as days from emp order by id"},
    {"date_plus_days", "select id, hired + 30 as later from emp order by id",
     "select id, date(hired, '+30 days') as later from emp order by id"},
    {"decimal_arithmetic", "select id, salary * 2 as s2, salary + 0.5 as s3, salary - 1 as s4, salary * salary as sq from emp order by id"},
    {"decimal_division", "select id, salary / 3 as third from emp order by id"},
    {"decimal_equality", "select name, salary from emp where salary = 70000.25 order by name"},
    {"decimal_range", "select count(*) from emp where salary > 88000.1 and salary <= 120000.5"},
    {"bigint_division_modulo", "select id, pts / 7, pts % 7, id / 3, id % 3, -pts / 2 from emp order by id"},
    {"bigint_aggregates", "select sum(pts), min(pts), max(pts), count(distinct pts) from emp"},
    {"double_sum_order", "select dept, sum(rating) as r from emp group by dept order by 2, dept"},
    {"double_cast_division", "select id, cast(id as double) / 4 as q from emp order by id"},
    {"join_on_aliases", "select e.name, d.city from emp e join dept d on e.dept = d.dept order by e.name"},
    {"self_join", "select e.name as worker, b.name as boss from emp e, emp b where e.boss = b.id order by worker"},
    {"three_table_chain",
     "select p.title as project, e.name as lead, d.city from proj p join emp e on p.lead = e.id "
     "join dept d on e.dept = d.dept order by project"},
    {"join_group_having",
     "select d.city, count(*) as n, sum(e.salary) as total from emp e, dept d where e.dept = d.dept "
     "group by d.city having sum(e.salary) > 200000 order by d.city"},
    {"having_count", "select dept, count(*) from emp group by dept having sum(salary) > 150000 order by dept"},
    {"distinct_decimal_desc", "select distinct salary from emp order by salary desc"},
    {"count_distinct_types", "select count(distinct salary), count(distinct dept), count(distinct hired) from emp"},
    {"order_ties_limit", "select name, rating from emp order by rating desc, name limit 3"},
    {"order_limit_offset_ties", "select name, rating from emp order by rating limit 4 offset 2"},
    {"order_desc_unicode", "select name from emp order by name desc"},
    {"order_by_alias_expression", "select name, salary * 12 as yearly from emp order by yearly desc, name"},
    {"case_bands",
     "select case when rating >= 4 then 'high' when rating >= 2 then 'mid' else 'low' end as band, count(*) as n "
     "from emp group by 1 order by 1"},
    {"case_without_else_nulls", "select id, case when rating > 4 then name end as star from emp order by star, id"},
    {"string_range_unicode", "select name from emp where name > 'Zo' order by name"},
    {"in_list_or", "select name from emp where name in ('Alice', 'alice', 'nobody') or id = 10 order by name"},
    {"not_or", "select name from emp where not (dept = 'eng' or dept = 'ops') order by name"},
    {"min_max_strings_unicode", "select dept, min(name), max(name) from emp group by dept order by dept"},
    {"empty_table_aggregates", "select count(*), sum(a), min(s), max(d), avg(m), count(distinct s) from empty"},
    {"empty_table_rows", "select * from empty"},
    {"empty_table_group_by", "select a, count(*) from empty group by a"},
    {"join_with_empty", "select e.name, x.a from emp e, empty x where e.id = x.a"},
    {"single_row_table", "select * from one"},
    {"single_row_arithmetic", "select x * 2, s, d, m * 2, f / 2, b - 1, x / 2, m + x from one"},
    {"single_row_filter_aggregate", "select count(*), sum(x), min(s), max(s), avg(f) from one where s like '%,%'"},
    {"single_row_join", "select e.name, o.s from emp e, one o where e.id = o.x"},
    {"single_row_no_match", "select count(*), sum(m) from one where d > DATE '2000-02-29'"},
    {"limit_zero", "select * from emp order by id limit 0"},
    {"offset_past_end", "select id from emp order by id limit 5 offset 20"},
    // gpuagg: DOUBLE sums/averages (exact, order-independent), MIN/MAX over DOUBLE and
    // 128-bit values, DISTINCT aggregates of every kind, DOUBLE and 128-bit GROUP BY keys,
    // DOUBLE join keys (signed zeros); with NULLs from CASE, groups without values, empty inputs.
    {"gpuagg_double_aggregates_emp",
     "select dept, sum(rating), avg(rating), min(rating), max(rating), count(distinct rating), sum(distinct rating), "
     "avg(distinct rating) from emp group by dept order by dept"},
    {"gpuagg_double_case_nulls",
     "select dept, sum(case when rating > 3.5 then rating end) as s, max(case when rating > 10 then rating end) as m, "
     "min(distinct case when rating < 4 then rating end) as d from emp group by dept order by dept"},
    {"gpuagg_huge_min_max_distinct",
     "select dept, min(pts * pts), max(pts * 1000000000), count(distinct pts * pts), sum(distinct pts * pts), "
     "min(distinct pts * 1000000000) from emp group by dept order by dept"},
    {"gpuagg_group_by_double_key", "select rating, count(*), sum(pts) from emp group by rating order by rating"},
    {"gpuagg_group_by_huge_key", "select pts * pts as sq, count(*), max(name) from emp group by 1 order by 1"},
    {"gpuagg_join_double_key", "select e.name, o.s from emp e join one o on e.rating = o.f + 2.0 order by e.name"},
    {"gpuagg_join_double_signed_zero",
     "select a.id, b.id from emp a join emp b on cast(a.id - 5 as double) * 0.0 = cast(5 - b.id as double) * 0.0 "
     "where a.id < 4 and b.id < 4 order by 1, 2"},
    {"gpuagg_empty_double_and_distinct",
     "select sum(rating), avg(rating), min(rating), count(distinct rating), sum(distinct pts), max(distinct pts * pts) "
     "from emp where id > 100"},
    {"gpuagg_empty_table_distinct_groups", "select m, sum(distinct a), max(distinct s), count(distinct m) from empty group by m"},
    {"gpuagg_single_row_double", "select sum(f), avg(f), min(f), max(distinct f), count(distinct f), sum(distinct b * b) from one"},
    // gpuexpr: cross products, string expressions across dictionaries, casts from DOUBLE.
    {"cross_no_condition", "select count(*), sum(e.id * d.floor) from emp e, dept d"},
    {"cross_inequality", "select e.name, d.dept from emp e, dept d where e.id < d.floor order by e.name, d.dept"},
    {"cross_ordered_input_ties", "select e.id, d.dept, d.floor from emp e, dept d order by e.id limit 14"},
    {"cross_three_tables",
     "select count(*), sum(e.id + d.floor + p.pid) from emp e, dept d, proj p where p.cost * 10 < e.salary"},
    {"cross_with_keyed_join",
     "select e.name, d.city, o.x from emp e join dept d on e.dept = d.dept, one o where e.id < o.x order by 1"},
    {"cross_with_empty", "select count(*) from emp e, empty x"},
    {"case_string_constants_and_column",
     "select id, case when id < 4 then name when id < 8 then 'x' else dept end as label from emp order by label, id"},
    {"case_columns_of_two_dictionaries",
     "select e.id, case when e.id % 2 = 0 then e.name else d.city end as c from emp e join dept d on e.dept = d.dept "
     "order by 2, 1"},
    {"string_less_across_dictionaries",
     "select e.name, d.city from emp e, dept d where e.name < d.city and d.floor = 2 order by 1, 2"},
    {"string_equal_across_dictionaries_residual",
     "select count(*) from emp e join dept d on e.dept = d.dept where e.name > d.city or e.dept = d.city"},
    {"like_over_case", "select id from emp where case when id > 5 then name else dept end like '%o%' order by id"},
    {"in_over_case", "select id from emp where case when id > 3 then name else dept end in ('eng', 'Zoë', 'bob_x') order by id"},
    {"between_strings_of_two_tables",
     "select e.id, e.name from emp e join dept d on e.dept = d.dept where e.name between d.dept and d.city order by 1"},
    {"group_by_case_strings",
     "select case when salary > 90000 then dept else name end as g, count(*) from emp group by 1 order by 1"},
    {"min_max_count_distinct_string_expressions",
     "select min(case when id > 2 then name else 'zzz' end), max(case when id < 9 then dept else name end), "
     "count(distinct case when id % 2 = 0 then dept else 'odd' end) from emp"},
    {"order_by_hidden_string_expression",
     "select id, case when id < 5 then name else dept end as k from emp order by k desc, id"},
    {"cast_double_to_exact",
     "select id, cast(rating * 2 as integer) as r2, cast(rating * 1000 as bigint) as r3, "
     "cast(rating / 3 as decimal(8,3)) as r4 from emp order by id",
     // PostgreSQL's float -> integer rounds half to even (SQLite's round: half away).
     "select id, cast(round(rating * 2) as integer) - (case when abs(round(rating * 2) - (rating * 2)) = 0.5 and cast(round(rating * 2) as integer) % 2 != 0 then (case when rating * 2 > 0 then 1 else -1 end) else 0 end) as r2, "
     "cast(round(rating * 1000) as integer) - (case when abs(round(rating * 1000) - (rating * 1000)) = 0.5 and cast(round(rating * 1000) as integer) % 2 != 0 then (case when rating * 1000 > 0 then 1 else -1 end) else 0 end) as r3, "
     "round(rating / 3, 3) as r4 from emp order by id"},
};

// gpuexpr: queries that fail on the CPU with one line (run-time errors of the
// evaluator); the CUDA backend must fail with the same line (tests/gpu).
inline const Case kCsvExprErrorCases[] = {
    {"error_cast_double_out_of_range", "select id, cast(cast(pts as double) as integer) from emp"},
    {"error_cast_bigint_out_of_range", "select cast(pts as integer) from emp"},
    {"error_cast_double_to_decimal", "select cast(rating * 100000 as decimal(6,1)) from emp"},
    {"error_division_by_zero_in_cross_product", "select count(*) from emp e, dept d where e.id / (d.floor - 4) > 0"},
    {"error_division_by_zero_in_string_case",
     "select case when id / (id - 10) > 0 then name else 'x' end from emp"},
};

}  // namespace raydb::test
