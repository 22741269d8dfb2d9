#pragma once
// Predicates of the 2004 paper's shapes (issue 10): long IN lists, OR trees across
// columns, NOT of ranges, comparisons between columns and semi-linear predicates.
// tests/e2e compares each with SQLite on the CPU; tests/gpu requires each to run on
// the fused star kernels (plan analysis, no device) and to equal the CPU there.
#include "support/adhoc_cases.h"

namespace raydb::test {

// SSB SF 0.01 (lineorder's INTEGER columns, dimensions joined).
inline const Case kSsbPredicateCases[] = {
    {"in_list_6_keys",
     "select count(*), sum(lo_revenue) from lineorder where lo_orderkey in (7, 1234, 23456, 29999, 5555, 987)"},
    {"in_list_40_keys",
     "select count(*), sum(lo_quantity) from lineorder where lo_orderkey in (1, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, "
     "37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, "
     "151, 157, 163, 167, 59999)"},
    {"in_list_far_apart",  // pairs searched by bisection (span beyond the bitmap limit)
     "select count(*) from lineorder where lo_revenue in (100000, 200000, 300000, 400000, 500000, 600000, 700000, "
     "800000, 900000, 1000000, 1100000, 1200000, 1300000, 1400000, 1500000, 1600000, 1700000, 1800000, 1900000, "
     "2000000, 5000000, 9000000)"},
    {"in_list_12_far_apart",  // device pairs compared one after another (9..16 ranges, wide span)
     "select count(*), sum(lo_tax) from lineorder where lo_revenue in (100000, 300000, 700000, 1100000, 1300000, "
     "1700000, 1900000, 2300000, 2900000, 3100000, 3700000, 4100000)"},
    {"not_in_list", "select count(*) from lineorder where lo_quantity not in (1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, "
                    "45, 49, 2, 6, 10, 14, 18, 22)"},
    {"or_across_columns", "select count(*), sum(lo_revenue) from lineorder where lo_quantity < 5 or lo_discount > 9"},
    {"deep_or_tree",
     "select lo_shipmode, count(*) from lineorder where (lo_quantity < 3 and lo_discount = 1) or (lo_quantity > 48 "
     "and lo_tax = 2) or (lo_discount = 10 and (lo_tax < 1 or lo_quantity = 25)) or lo_orderkey < 40 "
     "group by lo_shipmode order by 1"},
    {"cnf", "select count(*) from lineorder where (lo_quantity < 10 or lo_discount < 2) and (lo_tax > 6 or "
            "lo_quantity > 45) and (lo_discount between 1 and 8 or lo_tax = 0)"},
    {"not_of_ranges",
     "select count(*) from lineorder where not (lo_quantity between 10 and 40) and not (lo_discount < 3 or lo_tax > 6)"},
    {"not_of_or_across_columns", "select count(*) from lineorder where not (lo_quantity < 25 or lo_discount > 5)"},
    {"column_comparison", "select count(*), sum(lo_quantity) from lineorder where lo_commitdate > lo_orderdate"},
    {"column_equality", "select count(*) from lineorder where lo_revenue = lo_extendedprice"},
    {"semi_linear_4",
     "select count(*), sum(lo_revenue) from lineorder where 3 * lo_quantity + 2 * lo_discount - lo_tax + 7 * "
     "lo_linenumber > 100"},
    {"semi_linear_prices", "select count(*) from lineorder where lo_extendedprice * 2 - lo_revenue + 3 * lo_supplycost "
                           "- 1000000 > 2 * lo_ordtotalprice"},
    {"semi_linear_or_range",
     "select lo_discount, count(*) from lineorder where lo_quantity - lo_discount * 4 >= 10 or lo_tax in (0, 8) "
     "group by lo_discount order by 1"},
    {"semi_linear_with_join",
     "select d_year, sum(lo_revenue) from lineorder, date where lo_orderdate = d_datekey and d_year >= 1995 and "
     "(lo_quantity + lo_discount < 20 or lo_tax * 3 = lo_discount) group by d_year order by d_year"},
    {"in_list_with_joins",
     "select c_nation, count(*), sum(lo_revenue) from lineorder, customer where lo_custkey = c_custkey and "
     "c_region = 'ASIA' and lo_quantity in (1, 4, 9, 16, 25, 36, 49) group by c_nation order by c_nation"},
    {"long_in_list_inside_or",  // a bitmap leaf inside a boolean program
     "select count(*), sum(lo_tax) from lineorder where lo_quantity in (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, "
     "25, 27, 29, 31, 33, 35, 37, 39) or lo_discount = 0"},
    {"linear_empty_result", "select count(*) from lineorder where lo_quantity + lo_discount > 1000 or lo_tax < 0"},
    // COUNT(*) counted by the filter passes themselves (no fact kernel): one two-term
    // leaf with coefficients and a constant, and a count of a column that has no NULLs.
    {"two_term_count", "select count(*) from lineorder where 3 * lo_quantity - 7 * lo_discount > 4"},
    {"two_term_count_column", "select count(lo_tax) from lineorder where lo_quantity * 2 < lo_discount + 30"},
    // OR across dimensions (join residuals): membership sets of each dimension on the
    // fact table's foreign keys, the boolean tree in the fact kernel.
    {"or_across_dimensions",
     "select d_year, count(*), sum(lo_revenue) from lineorder, date, supplier where lo_orderdate = d_datekey and "
     "lo_suppkey = s_suppkey and (d_year = 1993 or s_region = 'ASIA') group by d_year order by d_year"},
    {"or_across_dimensions_and_fact",
     "select s_region, count(*), sum(lo_quantity) from lineorder, date, supplier, customer where lo_orderdate = "
     "d_datekey and lo_suppkey = s_suppkey and lo_custkey = c_custkey and ((d_year = 1997 and c_nation = 'CHINA') "
     "or s_nation = 'PERU' or lo_quantity > 48) group by s_region order by s_region"},
    {"not_of_or_across_dimensions",
     "select count(*), sum(lo_extendedprice) from lineorder, date, part where lo_orderdate = d_datekey and "
     "lo_partkey = p_partkey and not (d_yearmonthnum between 199401 and 199406 or p_mfgr = 'MFGR#1') and "
     "lo_discount < 5"},
    {"or_across_dimensions_mostly_true",  // a part holding for most rows: NOT IN the rest
     "select c_region, count(*) from lineorder, customer, supplier where lo_custkey = c_custkey and "
     "lo_suppkey = s_suppkey and (c_region <> 'AMERICA' or s_city in ('PERU     1', 'CANADA   4')) "
     "group by c_region order by c_region"},
    {"or_across_dimensions_always",  // a part holding for every row, one for none
     "select count(*), sum(lo_revenue) from lineorder, date, supplier where lo_orderdate = d_datekey and "
     "lo_suppkey = s_suppkey and (d_year >= 1992 or s_region = 'ASIA') and (d_year < 1900 or s_region = 'MARS')"},
};

// The hand-made CSV tables (support/fixtures.cpp): DECIMAL scales aligned, DATE and
// BIGINT columns, and a 128-bit semi-linear sum.
inline const Case kCsvPredicateCases[] = {
    {"decimal_vs_int_expr", "select count(*), sum(id) from emp where salary * 2 > 190000 + boss"},
    {"decimal_times_decimal_const", "select count(*), sum(id) from emp where salary > boss * 10000.5"},
    {"date_or_bigint", "select count(*), sum(id) from emp where hired > date '2019-06-01' or pts < 0"},
    {"bigint_linear", "select count(*), sum(id) from emp where pts - id * 1000000000 > 0"},
    {"not_or_decimal", "select count(*), sum(id) from emp where not (salary between 50000 and 100000 or id > 8)"},
    {"wide_linear", "select count(*), sum(id) from emp where pts * 100000000000 - id * 3 > 5"},
    // Far-apart single values beyond the bitmap limits: a cuckoo set on both backends.
    {"bigint_in_far_apart", "select count(*), sum(id) from emp where pts in (9000000000, -9000000000, 42, 1, 100, "
                            "-2, 5, 123456789012, 77, -77, 9223372036854775807, -9223372036854775808)"},
    {"bigint_not_in_far_apart", "select count(*), sum(id) from emp where pts not in (9000000000, -9000000000, 42, 1, "
                                "100, 3, 5, 123456789011, 77, -77, 9223372036854775807)"},
    {"date_columns", "select count(*), sum(pid) from proj where start > date '2019-12-31' and (cost > 1000 or lead = 6)"},
    {"decimal_columns_compare", "select count(*), sum(pid) from proj where cost * 3 >= lead * 100 + pid"},
};

}  // namespace raydb::test
