#include "plan/physical/default_calibration.h"

namespace raydb::plan {

namespace {
// `raydb calibrate` on the project's H200 (no RT cores; OptiX traverses in software),
// final code of session 3 (rt-gpu bucket 16384), 2026-11-21
// (docs/benchmarks/data/rt-index-h200-final-calibration.json): index.gpu only, numbers
// rounded to 4 digits, least-squares fits dropped. With it the model picked the
// fastest method and mode in all six issue-#4 rows of the same call
// (docs/benchmarks/rt-index-h200.md, "Final code").
constexpr const char* kH200 = R"json(
{"format":1,"gpu":"NVIDIA H200","gpu_read_gbs":4453.0,"host_to_device_gbs":55.42,
"timestamp":1795228397,"index":{"gpu":{"rt":{"setup_ns":47260.0,"sort_setup_ns":212400.0,
"log2_lookups":22.0,"log2_keys":[16.0,19.0,22.0,24.0,26.0],"point":{"unsorted":[0.08288,0.1044,
0.1652,0.1893,0.2365],"index_sorts":[0.2758,0.2883,0.301,0.3295,0.3664],"presorted":[0.09732,0.108,
0.1288,0.1454,0.1627],"unsorted_fixed_ns":[140300.0,128100.0,107500.0,126900.0,126100.0]},
"range16":{"unsorted":[0.1587,0.1797,0.2579,0.3379,0.3953],"index_sorts":[0.2895,0.2895,0.3106,
0.3289,0.4535],"presorted":[0.1151,0.1288,0.1515,0.1784,0.2361],"unsorted_fixed_ns":[90840.0,
107500.0,131300.0,95410.0,115400.0]},"range256":{"unsorted":[0.5873,0.6809,0.9175,1.207,1.458],
"index_sorts":[0.433,0.4701,0.4961,0.5279,0.684],"presorted":[0.2884,0.3115,0.3382,0.3875,0.4921],
"unsorted_fixed_ns":[141800.0,145600.0,147500.0,98920.0,164500.0]},
"point_miss":{"unsorted":[0.08158,0.1031,0.1417,0.1732,0.2178],"index_sorts":[0.2872,0.2824,0.3033,
0.2944,0.3381],"presorted":[0.09013,0.1067,0.1222,0.1343,0.1528],"unsorted_fixed_ns":[113800.0,
96630.0,108900.0,93230.0,140200.0]}},"sorted":{"setup_ns":13500.0,"sort_setup_ns":166300.0,
"log2_lookups":22.0,"log2_keys":[16.0,19.0,22.0,24.0,26.0],"point":{"unsorted":[0.05557,0.07574,
0.1092,0.156,0.2804],"index_sorts":[0.2508,0.2559,0.2683,0.2615,0.3072],"presorted":[0.02448,
0.02814,0.03407,0.04007,0.067],"unsorted_fixed_ns":[31940.0,34690.0,42430.0,46360.0,51640.0]},
"range16":{"unsorted":[0.09865,0.1362,0.1958,0.2556,0.4478],"index_sorts":[0.2481,0.2549,0.2578,
0.2586,0.3337],"presorted":[0.02953,0.03336,0.03919,0.04858,0.08612],"unsorted_fixed_ns":[42310.0,
47990.0,36910.0,34560.0,30350.0]},"range256":{"unsorted":[0.6015,0.7133,0.9121,1.169,1.748],
"index_sorts":[0.2605,0.2682,0.2717,0.3103,0.4687],"presorted":[0.09151,0.09807,0.1146,0.1894,
0.3328],"unsorted_fixed_ns":[53990.0,46790.0,14490.0,17410.0,51250.0]},
"point_miss":{"unsorted":[0.05315,0.0714,0.09227,0.1336,0.264],"index_sorts":[0.2489,0.2541,0.268,
0.2457,0.2992],"presorted":[0.02203,0.02667,0.03141,0.03574,0.05406],"unsorted_fixed_ns":[24840.0,
39500.0,48360.0,40740.0,55360.0]}},"hash":{"setup_ns":12290.0,"sort_setup_ns":162800.0,
"log2_lookups":22.0,"log2_keys":[16.0,19.0,22.0,24.0,26.0],"point":{"unsorted":[0.02311,0.02459,
0.04989,0.06223,0.06217],"index_sorts":[0.2514,0.2556,0.2767,0.275,0.3297],"presorted":[0.01537,
0.01849,0.03284,0.04363,0.05649],"unsorted_fixed_ns":[31450.0,37260.0,36360.0,26850.0,48500.0]},
"point_miss":{"unsorted":[0.01847,0.01971,0.03554,0.04375,0.04446],"index_sorts":[0.2554,0.2554,
0.2789,0.2808,0.3627],"presorted":[0.01527,0.01836,0.03479,0.04462,0.05204],
"unsorted_fixed_ns":[36470.0,38940.0,42410.0,33800.0,44700.0]}},"sort_ns_per_lookup":0.1568}}}
)json";
}  // namespace

const Calibration& default_gpu_calibration() {
  static const Calibration c = Calibration::from_json(nlohmann::json::parse(kH200));
  return c;
}

}  // namespace raydb::plan
