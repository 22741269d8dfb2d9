// Embeds raydb: creates a database in a fresh directory, loads rows through SQL and
// checks a grouped aggregate against the same sums computed here. Exits 1 on a wrong
// answer or an error (printed in one line).
#include <raydb/raydb.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / "raydb_embed_example";
  fs::remove_all(dir);
  try {
    auto db = raydb::Database::open_or_create(dir.string());
    raydb::Connection con(*db);
    con.query("CREATE TABLE sales (region VARCHAR, qty BIGINT, price DECIMAL(10,2))");
    std::map<std::string, long long> expect;  // region -> sum(qty)
    std::string values;
    const char* regions[] = {"ASIA", "EUROPE", "AMERICA"};
    for (int i = 0; i < 300; i++) {
      const char* r = regions[i % 3];
      const long long qty = (i * 7919) % 1000;
      expect[r] += qty;
      values += std::string(values.empty() ? "" : ", ") + "('" + r + "', " + std::to_string(qty) + ", " +
                std::to_string(i) + ".25)";
    }
    con.query("INSERT INTO sales VALUES " + values);
    raydb::QueryResult res = con.query("SELECT region, sum(qty) AS q, count(*) AS n FROM sales GROUP BY region "
                                       "ORDER BY region");
    if (res.row_count() != expect.size()) {
      std::fprintf(stderr, "wrong answer: %zu groups, expected %zu\n", res.row_count(), expect.size());
      return 1;
    }
    size_t row = 0;
    for (const auto& [region, sum] : expect) {  // std::map: the same order as ORDER BY region
      const std::string got_region = res.get(row, 0).to_string();
      const long long got_sum = (long long)res.get(row, 1).as_hugeint();
      if (got_region != region || got_sum != sum || res.get(row, 2).as_int() != 100) {
        std::fprintf(stderr, "wrong answer in row %zu: %s %lld, expected %s %lld\n", row, got_region.c_str(),
                     got_sum, region.c_str(), sum);
        return 1;
      }
      std::printf("%s %lld\n", got_region.c_str(), got_sum);
      row++;
    }
    std::printf("raydb embed example: ok (backend %s)\n", res.backend.c_str());
  } catch (const raydb::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  fs::remove_all(dir);
  return 0;
}
