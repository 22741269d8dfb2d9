#include "plan/physical/default_calibration.h"

namespace raydb::plan {

namespace {
// `raydb calibrate` on the project's H200 (no RT cores; OptiX traverses in software),
// commit 6653419 of branch idxcal, device call 3 of 2026-11-21
// (docs/benchmarks/data/rt-index-h200-run8-calibration.json), index.gpu only, numbers
// rounded to 4 digits, fits dropped, brought to the final form that binary did not
// yet write: sort_setup_ns is the index-sorts time of 2^16 point lookups into 2^26
// keys in the same call (bench_index_sweep4: rt-gpu 0.270, sa-gpu 0.241, hash-gpu
// 0.214 ms) less 2^16 lookups at the curve's last index-sorts value, and the
// index-sorts / presorted curves are net of sort_setup_ns / setup_ns (per lookup:
// less the setup / 2^22), as `raydb calibrate` now stores them.
constexpr const char* kH200 = R"json(
{"format":1,"gpu":"NVIDIA H200","gpu_read_gbs":4458.0,"host_to_device_gbs":55.4,
"timestamp":1795227522,"index":{"gpu":{"rt":{"setup_ns":44070.0,"log2_lookups":22.0,
"log2_keys":[16.0,19.0,22.0,24.0,26.0],"point":{"unsorted":[0.09933,0.1332,0.193,0.2333,0.2697],
"index_sorts":[0.2352,0.2743,0.2771,0.3401,0.3289],"presorted":[0.09902,0.1203,0.1375,0.1578,
0.1761],"unsorted_fixed_ns":[90530.0,93940.0,98060.0,114500.0,141500.0]},
"range16":{"unsorted":[0.1664,0.1955,0.2931,0.3739,0.4304],"index_sorts":[0.2507,0.2866,0.2939,
0.3807,0.4149],"presorted":[0.1152,0.1353,0.1617,0.2,0.2494],"unsorted_fixed_ns":[94240.0,111700.0,
113500.0,105500.0,132100.0]},"range256":{"unsorted":[0.5966,0.6951,0.9455,1.246,1.498],
"index_sorts":[0.3945,0.4626,0.4739,0.5317,0.6522],"presorted":[0.2898,0.319,0.3474,0.4098,0.5057],
"unsorted_fixed_ns":[121600.0,155600.0,118400.0,112700.0,172700.0]},
"point_miss":{"unsorted":[0.09867,0.1181,0.1689,0.222,0.2645],"index_sorts":[0.238,0.2763,0.2768,
0.2966,0.3134],"presorted":[0.09609,0.1124,0.1349,0.1532,0.1583],"unsorted_fixed_ns":[69080.0,
112000.0,104000.0,122300.0,118100.0]},"sort_setup_ns":244800.0},"sorted":{"setup_ns":12470.0,
"log2_lookups":22.0,"log2_keys":[16.0,19.0,22.0,24.0,26.0],"point":{"unsorted":[0.05537,0.07382,
0.1089,0.1573,0.2775],"index_sorts":[0.2419,0.2295,0.2319,0.2532,0.3159],"presorted":[0.02243,
0.02744,0.03401,0.04022,0.06624],"unsorted_fixed_ns":[27700.0,41760.0,35840.0,40220.0,61430.0]},
"range16":{"unsorted":[0.09811,0.1372,0.1941,0.2535,0.4476],"index_sorts":[0.2357,0.2334,0.238,
0.246,0.3409],"presorted":[0.02818,0.03343,0.03875,0.04783,0.08559],"unsorted_fixed_ns":[34980.0,
44860.0,37380.0,39090.0,32360.0]},"range256":{"unsorted":[0.5928,0.7116,0.909,1.168,1.742],
"index_sorts":[0.2272,0.248,0.2424,0.3301,0.475],"presorted":[0.09134,0.09893,0.1135,0.1884,0.331],
"unsorted_fixed_ns":[74890.0,49150.0,21340.0,19430.0,64100.0]},"point_miss":{"unsorted":[0.05499,
0.07165,0.09431,0.1355,0.2662],"index_sorts":[0.2451,0.2299,0.2295,0.2629,0.2968],
"presorted":[0.02245,0.0262,0.03111,0.037,0.05448],"unsorted_fixed_ns":[17310.0,40270.0,34710.0,
41920.0,51950.0]},"sort_setup_ns":216500.0},"hash":{"setup_ns":10110.0,"log2_lookups":22.0,
"log2_keys":[16.0,19.0,22.0,24.0,26.0],"point":{"unsorted":[0.02442,0.02557,0.05113,0.06105,
0.06417],"index_sorts":[0.2164,0.2366,0.261,0.3054,0.3226],"presorted":[0.0138,0.01874,0.03301,
0.04568,0.05721],"unsorted_fixed_ns":[25370.0,32770.0,29810.0,38900.0,40490.0]},
"point_miss":{"unsorted":[0.01906,0.02123,0.03552,0.04337,0.04496],"index_sorts":[0.2252,0.237,
0.2616,0.2994,0.2996],"presorted":[0.0127,0.0188,0.03525,0.04675,0.05272],
"unsorted_fixed_ns":[27400.0,33320.0,41090.0,43390.0,43410.0]},"sort_setup_ns":190100.0},
"sort_ns_per_lookup":0.1458}}}
)json";
}  // namespace

const Calibration& default_gpu_calibration() {
  static const Calibration c = Calibration::from_json(nlohmann::json::parse(kH200));
  return c;
}

}  // namespace raydb::plan
