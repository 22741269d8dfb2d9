#include "storage/persist/manifest.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/stage_times.h"
#include "storage/persist/checksum.h"
#include "storage/persist/file_io.h"
#include "storage/table.h"

namespace raydb::persist {

using json = nlohmann::ordered_json;

namespace {

// Every defect is reported as "corrupted manifest <path>: <where> <what>".
class ManifestReader {
 public:
  explicit ManifestReader(const std::string& path) : path_(path) {}

  [[noreturn]] void corrupt(const std::string& what) const {
    fail(ErrorKind::kCatalog, "corrupted manifest {}: {}", path_, what);
  }

  const json& field(const json& obj, const char* key, const std::string& where) const {
    auto it = obj.find(key);
    if (it == obj.end()) corrupt(fmt::format("{} has no \"{}\"", where, key));
    return *it;
  }
  uint64_t unsigned_field(const json& obj, const char* key, const std::string& where) const {
    const json& v = field(obj, key, where);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
      corrupt(fmt::format("{}.{} is not a non-negative integer", where, key));
    return v.get<uint64_t>();
  }
  int64_t signed_field(const json& obj, const char* key, const std::string& where) const {
    const json& v = field(obj, key, where);
    if (v.is_number_unsigned()) {
      if (v.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
        corrupt(fmt::format("{}.{} is out of range", where, key));
      return int64_t(v.get<uint64_t>());
    }
    if (!v.is_number_integer()) corrupt(fmt::format("{}.{} is not an integer", where, key));
    return v.get<int64_t>();
  }
  double double_field(const json& obj, const char* key, const std::string& where) const {
    const json& v = field(obj, key, where);
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    corrupt(fmt::format("{}.{} is not a number", where, key));
  }
  const std::string& string_field(const json& obj, const char* key, const std::string& where) const {
    const json& v = field(obj, key, where);
    if (!v.is_string()) corrupt(fmt::format("{}.{} is not a string", where, key));
    const auto& s = v.get_ref<const std::string&>();
    if (s.empty()) corrupt(fmt::format("{}.{} is empty", where, key));
    return s;
  }
  // An optional "checksum" of 16 hex digits.
  std::optional<uint64_t> checksum_field(const json& obj, const std::string& where) const {
    auto it = obj.find("checksum");
    if (it == obj.end()) return std::nullopt;
    std::optional<uint64_t> v;
    if (it->is_string()) v = parse_checksum_hex(it->get_ref<const std::string&>());
    if (!v) corrupt(where + ".checksum is not 16 hex digits");
    return v;
  }
  const json& object_field(const json& obj, const char* key, const std::string& where) const {
    const json& v = field(obj, key, where);
    if (!v.is_object()) corrupt(fmt::format("{}.{} is not an object", where, key));
    return v;
  }
  const json& array_field(const json& obj, const char* key, const std::string& where) const {
    const json& v = field(obj, key, where);
    if (!v.is_array()) corrupt(fmt::format("{}.{} is not an array", where, key));
    return v;
  }
  // A file name inside the directory: no separators, no "." / "..", so a manifest can
  // never point outside its database.
  std::string file_field(const json& obj, const char* key, const std::string& where) const {
    const std::string& f = string_field(obj, key, where);
    if (f.find('/') != std::string::npos || f.find('\0') != std::string::npos || f == "." || f == ".." ||
        f == Manifest::kFileName || f == Manifest::kTempFileName)
      corrupt(fmt::format("{}.{} '{}' is not a plain file name", where, key, f));
    return f;
  }

 private:
  const std::string& path_;
};

// Where the 16 hex digits of the manifest_checksum value start in `text`, or npos.
// The key is searched from the end: it is written last, and inside a JSON string its
// quotes would be escaped, so no name can imitate it.
size_t checksum_position(const std::string& text) {
  const std::string key = std::string("\"") + Manifest::kChecksumKey + "\"";
  size_t k = text.rfind(key);
  if (k == std::string::npos) return std::string::npos;
  size_t i = k + key.size();
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r')) i++;
  if (i >= text.size() || text[i] != ':') return std::string::npos;
  i++;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r')) i++;
  if (i + 18 > text.size() || text[i] != '"' || text[i + 17] != '"') return std::string::npos;
  return i + 1;
}

// The checksum of `text` with the 16 digits at `pos` read as zeros.
uint64_t text_checksum(std::string text, size_t pos) {
  text.replace(pos, 16, 16, '0');
  return file_checksum(text.data(), text.size());
}

// Verifies the manifest_checksum when there is one (false: an older manifest without).
bool check_manifest_checksum(const json& root, const std::string& text, const ManifestReader& r) {
  auto it = root.find(Manifest::kChecksumKey);
  if (it == root.end()) return false;
  std::optional<uint64_t> want;
  if (it->is_string()) want = parse_checksum_hex(it->get_ref<const std::string&>());
  size_t pos = checksum_position(text);
  if (!want || pos == std::string::npos) r.corrupt(std::string(Manifest::kChecksumKey) + " is not 16 hex digits");
  if (text_checksum(text, pos) != *want)
    r.corrupt("its checksum does not match its text (the file was edited or damaged)");
  return true;
}

json double_json(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return d;
}

// A column's "narrowed" entry (manifest.h), checked for a shape that its readers can
// trust: a known width, a base inside the statistics, bytes that add up. Without a
// checksum (a manifest whose checksums were stripped) the file is kept but never read.
ManifestNarrowed read_narrowed(const ManifestReader& r, const json& cj, const std::string& cw, const ManifestColumn& c,
                               uint64_t rows, std::set<std::string>& files) {
  const std::string nw = cw + ".narrowed";
  const json& nj = r.object_field(cj, "narrowed", cw);
  ManifestNarrowed n;
  n.file = r.file_field(nj, "file", nw);
  if (!files.insert(n.file).second) r.corrupt(fmt::format("file '{}' is named twice", n.file));
  n.bytes = r.unsigned_field(nj, "bytes", nw);
  const uint64_t width = r.unsigned_field(nj, "width", nw);
  if (width != 1 && width != 2 && width != 4 && width != 8) r.corrupt(fmt::format("{}.width is {}", nw, width));
  n.width = int(width);
  n.base = r.signed_field(nj, "base", nw);
  n.distinct = r.unsigned_field(nj, "distinct", nw);
  n.checksum = r.checksum_field(nj, nw);
  if (c.type.id == TypeId::kDouble || rows == 0) r.corrupt(nw + " is given for a DOUBLE or empty column");
  if (n.distinct > 65536 || (n.distinct > 0 && n.width != 2)) r.corrupt(nw + ".distinct does not fit its width");
  if (n.base != c.stats.min) r.corrupt(nw + ".base is not the column's minimum");
  if (n.bytes != rows * width + n.distinct * 8)
    r.corrupt(fmt::format("{}.bytes is {}, but {} rows of width {} and {} decode values take {}", nw, n.bytes, rows,
                          width, n.distinct, rows * width + n.distinct * 8));
  return n;
}

// A column's "validity" entry (format version 5): a bitmap of the table's rows with at
// least one NULL, on a nullable column.
ManifestValidity read_validity_entry(const ManifestReader& r, const json& cj, const std::string& cw,
                                     const ManifestColumn& c, uint64_t rows, std::set<std::string>& files) {
  std::string vw = cw + ".validity";
  const json& vj = r.object_field(cj, "validity", cw);
  ManifestValidity v{r.file_field(vj, "file", vw), 0, 0, std::nullopt};
  if (!files.insert(v.file).second) r.corrupt(fmt::format("file '{}' is named twice", v.file));
  v.bytes = r.unsigned_field(vj, "bytes", vw);
  v.nulls = r.unsigned_field(vj, "nulls", vw);
  v.checksum = r.checksum_field(vj, vw);
  if (!c.nullable) r.corrupt(cw + " is NOT NULL but has a validity bitmap");
  if (v.bytes != validity_bytes(rows))
    r.corrupt(fmt::format("{}.bytes is {}, but {} rows take {}", vw, v.bytes, rows, validity_bytes(rows)));
  if (v.nulls == 0 || v.nulls > rows) r.corrupt(fmt::format("{}.nulls is {} for {} rows", vw, v.nulls, rows));
  return v;
}

// A column's "zonemap" entry (manifest.h): a block size and bytes that describe the
// table's rows. Its entries are checked when the file is read (ZoneMap::parse).
ManifestZoneMap read_zone_map(const ManifestReader& r, const json& cj, const std::string& cw, uint64_t rows,
                              std::set<std::string>& files) {
  const std::string zw = cw + ".zonemap";
  const json& zj = r.object_field(cj, "zonemap", cw);
  ManifestZoneMap z;
  z.file = r.file_field(zj, "file", zw);
  if (!files.insert(z.file).second) r.corrupt(fmt::format("file '{}' is named twice", z.file));
  z.bytes = r.unsigned_field(zj, "bytes", zw);
  z.block_rows = r.unsigned_field(zj, "block_rows", zw);
  z.checksum = r.checksum_field(zj, zw);
  if (rows == 0) r.corrupt(zw + " is given for an empty table");
  if (z.block_rows == 0 || z.block_rows > (uint64_t(1) << 32)) r.corrupt(zw + ".block_rows is out of range");
  const uint64_t blocks = (rows + z.block_rows - 1) / z.block_rows;
  if (z.bytes != blocks * ZoneMap::kEntryBytes)
    r.corrupt(fmt::format("{}.bytes is {}, but {} blocks take {}", zw, z.bytes, blocks, blocks * ZoneMap::kEntryBytes));
  return z;
}

// A table's "sort_key": names of its columns, each once.
std::vector<std::string> read_sort_key(const ManifestReader& r, const json& tj, const std::string& tw,
                                       const std::vector<ManifestColumn>& columns) {
  std::vector<std::string> key;
  for (const json& k : r.array_field(tj, "sort_key", tw)) {
    if (!k.is_string()) r.corrupt(tw + ".sort_key holds a non-string");
    const std::string name = k.get<std::string>();
    bool found = false;
    for (auto& c : columns) found = found || c.name == name;
    for (auto& seen : key)
      if (seen == name) found = false;
    if (!found) r.corrupt(fmt::format("{}.sort_key names '{}', which is not a column (or twice)", tw, name));
    key.push_back(name);
  }
  return key;
}

}  // namespace

Manifest Manifest::parse(const std::string& text, const std::string& path) {
  ManifestReader r(path);
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    r.corrupt(fmt::format("invalid JSON at byte {}", e.byte));
  } catch (const json::exception&) {  // a number too large for a double (out_of_range 406)
    r.corrupt("invalid JSON: a number out of range");
  }
  if (!root.is_object()) r.corrupt("the top level is not an object");
  Manifest m;
  m.checksummed = check_manifest_checksum(root, text, r);
  uint64_t version = r.unsigned_field(root, "format_version", "manifest");
  if (version < uint64_t(kOldestFormatVersion) || version > uint64_t(kFormatVersion))
    r.corrupt(fmt::format("unknown format version {} (this raydb reads versions {} to {})", version,
                          kOldestFormatVersion, kFormatVersion));
  m.generation = r.unsigned_field(root, "generation", "manifest");
  const json& tables = r.array_field(root, "tables", "manifest");
  std::set<std::string> files;
  for (size_t ti = 0; ti < tables.size(); ti++) {
    std::string tw = fmt::format("tables[{}]", ti);
    const json& tj = tables[ti];
    if (!tj.is_object()) r.corrupt(tw + " is not an object");
    ManifestTable t;
    t.name = r.string_field(tj, "name", tw);
    if (m.find_table(t.name) >= 0) r.corrupt(fmt::format("table '{}' appears twice", t.name));
    t.rows = r.unsigned_field(tj, "rows", tw);
    const json& cols = r.array_field(tj, "columns", tw);
    if (cols.empty()) r.corrupt(tw + ".columns is empty");
    for (size_t ci = 0; ci < cols.size(); ci++) {
      std::string cw = fmt::format("{}.columns[{}]", tw, ci);
      const json& cj = cols[ci];
      if (!cj.is_object()) r.corrupt(cw + " is not an object");
      ManifestColumn c;
      c.name = r.string_field(cj, "name", cw);
      for (auto& other : t.columns)
        if (iequals(other.name, c.name)) r.corrupt(fmt::format("table '{}' has column '{}' twice", t.name, c.name));
      const std::string& type_text = r.string_field(cj, "type", cw);
      try {
        c.type = Type::parse(type_text);
      } catch (const Error&) {
        r.corrupt(fmt::format("{}.type '{}' is not a known type", cw, type_text));
      }
      if (!c.type.storable()) r.corrupt(fmt::format("{}.type '{}' cannot be stored", cw, type_text));
      c.file = r.file_field(cj, "file", cw);
      if (!files.insert(c.file).second) r.corrupt(fmt::format("file '{}' is named twice", c.file));
      c.bytes = r.unsigned_field(cj, "bytes", cw);
      c.checksum = r.checksum_field(cj, cw);
      if (c.bytes / uint64_t(c.type.physical_width()) != t.rows || c.bytes % uint64_t(c.type.physical_width()) != 0)
        r.corrupt(fmt::format("{}.bytes is {}, but {} rows of {} take {}", cw, c.bytes, t.rows, c.type.to_string(),
                              t.rows * uint64_t(c.type.physical_width())));
      if (t.rows > 0) {
        std::string sw = cw + ".stats";
        const json& sj = r.object_field(cj, "stats", cw);
        if (c.type.id == TypeId::kDouble) {
          c.stats.min_d = r.double_field(sj, "min", sw);
          c.stats.max_d = r.double_field(sj, "max", sw);
          c.stats.min = 0;
          c.stats.max = -1;
        } else {
          c.stats.min = r.signed_field(sj, "min", sw);
          c.stats.max = r.signed_field(sj, "max", sw);
          if (c.stats.min > c.stats.max) r.corrupt(sw + ".min is greater than max");
          if (c.type.physical_width() == 4 &&
              (c.stats.min < std::numeric_limits<int32_t>::min() || c.stats.max > std::numeric_limits<int32_t>::max()))
            r.corrupt(sw + " is out of range for a 32-bit column");
        }
      }
      if (c.type.id == TypeId::kVarchar) {
        std::string dw = cw + ".dictionary";
        const json& dj = r.object_field(cj, "dictionary", cw);
        ManifestDictionary d;
        d.file = r.file_field(dj, "file", dw);
        if (!files.insert(d.file).second) r.corrupt(fmt::format("file '{}' is named twice", d.file));
        d.entries = r.unsigned_field(dj, "entries", dw);
        d.bytes = r.unsigned_field(dj, "bytes", dw);
        d.checksum = r.checksum_field(dj, dw);
        if (d.entries >= (uint64_t(1) << 31)) r.corrupt(dw + ".entries is too large");
        if (d.bytes < 8 * (d.entries + 1)) r.corrupt(dw + ".bytes is too small for its entries");
        if (t.rows > 0 && (c.stats.min < 0 || uint64_t(c.stats.max) >= d.entries))
          r.corrupt(cw + ".stats lie outside the dictionary");
        c.dictionary = d;
      } else if (cj.contains("dictionary")) {
        r.corrupt(cw + " is not VARCHAR but has a dictionary");
      }
      if (auto it = cj.find("nullable"); it != cj.end()) {
        if (!it->is_boolean()) r.corrupt(cw + ".nullable is not true or false");
        c.nullable = it->get<bool>();
      }
      if (cj.contains("validity")) {
        if (version < 5) r.corrupt("format versions 1 to 4 have no \"validity\"");
        c.validity = read_validity_entry(r, cj, cw, c, t.rows, files);
      }
      if (cj.contains("narrowed")) c.narrowed = read_narrowed(r, cj, cw, c, t.rows, files);
      if (cj.contains("zonemap")) c.zone_map = read_zone_map(r, cj, cw, t.rows, files);
      t.columns.push_back(std::move(c));
    }
    if (tj.contains("sort_key")) t.sort_key = read_sort_key(r, tj, tw, t.columns);
    m.tables.push_back(std::move(t));
  }
  if (root.contains("indexes")) {
    if (version < 2) r.corrupt("format version 1 has no \"indexes\"");
    const json& indexes = r.array_field(root, "indexes", "manifest");
    for (size_t ii = 0; ii < indexes.size(); ii++) {
      std::string iw = fmt::format("indexes[{}]", ii);
      const json& ij = indexes[ii];
      if (!ij.is_object()) r.corrupt(iw + " is not an object");
      IndexDefinition d;
      d.name = r.string_field(ij, "name", iw);
      if (m.find_index(d.name) >= 0) r.corrupt(fmt::format("index '{}' appears twice", d.name));
      d.table = r.string_field(ij, "table", iw);
      int t = m.find_table(d.table);
      if (t < 0) r.corrupt(fmt::format("{} names table '{}', which does not exist", iw, d.table));
      d.column = r.string_field(ij, "column", iw);
      if (ij.contains("columns")) {  // a multi-column (rtscan) index; "column" is its first
        const json& cj = r.array_field(ij, "columns", iw);
        for (auto& c : cj) {
          if (!c.is_string()) r.corrupt(iw + ".columns holds a non-string");
          d.columns.push_back(c.get<std::string>());
        }
        if (d.columns.empty() || !iequals(d.columns[0], d.column))
          r.corrupt(iw + ".columns does not start with its \"column\"");
      }
      for (const std::string& name : d.column_list()) {
        const ManifestColumn* col = nullptr;
        for (auto& c : m.tables[size_t(t)].columns)
          if (iequals(c.name, name)) col = &c;
        if (!col) r.corrupt(fmt::format("{} names column '{}', which table '{}' does not have", iw, name, d.table));
        if (col->type.id == TypeId::kDouble) r.corrupt(fmt::format("{} is on DOUBLE column '{}'", iw, name));
      }
      d.kind = r.string_field(ij, "kind", iw);
      if (!IndexDefinition::known_kind(d.kind))
        r.corrupt(fmt::format("{}.kind '{}' is not rt, sorted, hash or rtscan", iw, d.kind));
      if (d.columns.size() > 1 && !IndexDefinition::multi_column_kind(d.kind))
        r.corrupt(fmt::format("{} ({}) has several columns, which only rtscan indexes take", iw, d.kind));
      const json& opts = r.object_field(ij, "options", iw);
      for (auto it = opts.begin(); it != opts.end(); ++it) {
        if (!it.value().is_string()) r.corrupt(fmt::format("{}.options.{} is not a string", iw, it.key()));
        d.options.emplace_back(it.key(), it.value().get<std::string>());
      }
      m.indexes.push_back(std::move(d));
    }
  }
  if (root.contains("rt_views")) {
    if (version < 3) r.corrupt("format versions 1 and 2 have no \"rt_views\"");
    const json& views = r.array_field(root, "rt_views", "manifest");
    for (size_t vi = 0; vi < views.size(); vi++) {
      std::string vw = fmt::format("rt_views[{}]", vi);
      const json& vj = views[vi];
      if (!vj.is_object()) r.corrupt(vw + " is not an object");
      RtViewEntry e;
      e.name = r.string_field(vj, "name", vw);
      if (m.find_rt_view(e.name) >= 0) r.corrupt(fmt::format("rt view '{}' appears twice", e.name));
      const json& ts = r.array_field(vj, "tables", vw);
      const json& vs = r.array_field(vj, "versions", vw);
      if (ts.empty() || ts.size() != vs.size()) r.corrupt(vw + ".tables and .versions do not match");
      for (size_t i = 0; i < ts.size(); i++) {
        if (!ts[i].is_string() || !vs[i].is_string()) r.corrupt(vw + ".tables or .versions holds a non-string");
        e.tables.push_back(ts[i].get<std::string>());
        e.versions.push_back(vs[i].get<std::string>());
        if (m.find_table(e.tables.back()) < 0)
          r.corrupt(fmt::format("{} names table '{}', which does not exist", vw, e.tables.back()));
      }
      e.dir = r.string_field(vj, "dir", vw);
      if (!e.dir.starts_with(std::string(kRtViewFolder) + "/") || e.dir.find("..") != std::string::npos)
        r.corrupt(fmt::format("{}.dir '{}' is not under {}/", vw, e.dir, kRtViewFolder));
      e.definition = r.string_field(vj, "definition", vw);
      e.rows = r.unsigned_field(vj, "rows", vw);
      e.bytes = r.unsigned_field(vj, "bytes", vw);
      m.rt_views.push_back(std::move(e));
    }
  }
  if (root.contains("views")) {
    if (version < 4) r.corrupt("format versions 1 to 3 have no \"views\"");
    const json& views = r.array_field(root, "views", "manifest");
    for (size_t vi = 0; vi < views.size(); vi++) {
      std::string vw = fmt::format("views[{}]", vi);
      const json& vj = views[vi];
      if (!vj.is_object()) r.corrupt(vw + " is not an object");
      ViewEntry e;
      e.name = r.string_field(vj, "name", vw);
      if (m.find_view(e.name) >= 0 || m.find_table(e.name) >= 0)
        r.corrupt(fmt::format("view '{}' appears twice or as a table too", e.name));
      e.sql = r.string_field(vj, "sql", vw);
      m.views.push_back(std::move(e));
    }
  }
  return m;
}

Manifest Manifest::read(const std::string& path) {
  std::string text = read_small_file(path);
  StageTimes::instance().add_bytes(ByteCount::kReadAtOpen, text.size());
  return parse(text, path);
}

std::string Manifest::to_json() const {
  json root = json::object();
  // Version 1 when there is nothing that needs version 2 (older builds open it).
  bool any_validity = false;
  for (auto& t : this->tables)
    for (auto& c : t.columns) any_validity = any_validity || c.validity.has_value();
  root["format_version"] = any_validity        ? kFormatVersion
                           : !views.empty()    ? 4
                           : !rt_views.empty() ? 3
                           : indexes.empty()   ? kOldestFormatVersion
                                               : 2;
  root["generation"] = generation;
  json tables = json::array();
  for (auto& t : this->tables) {
    json tj = json::object();
    tj["name"] = t.name;
    tj["rows"] = t.rows;
    json cols = json::array();
    for (auto& c : t.columns) {
      json cj = json::object();
      cj["name"] = c.name;
      cj["type"] = c.type.to_string();
      cj["file"] = c.file;
      cj["bytes"] = c.bytes;
      if (t.rows > 0) {
        if (c.type.id == TypeId::kDouble)
          cj["stats"] = {{"min", double_json(c.stats.min_d)}, {"max", double_json(c.stats.max_d)}};
        else
          cj["stats"] = {{"min", c.stats.min}, {"max", c.stats.max}};
      }
      if (c.checksum) cj["checksum"] = checksum_hex(*c.checksum);
      if (c.dictionary) {
        cj["dictionary"] = {
            {"file", c.dictionary->file}, {"entries", c.dictionary->entries}, {"bytes", c.dictionary->bytes}};
        if (c.dictionary->checksum) cj["dictionary"]["checksum"] = checksum_hex(*c.dictionary->checksum);
      }
      if (c.nullable) cj["nullable"] = true;
      if (c.validity) {
        cj["validity"] = {{"file", c.validity->file}, {"bytes", c.validity->bytes}, {"nulls", c.validity->nulls}};
        if (c.validity->checksum) cj["validity"]["checksum"] = checksum_hex(*c.validity->checksum);
      }
      if (c.narrowed) {
        cj["narrowed"] = {{"file", c.narrowed->file},   {"bytes", c.narrowed->bytes},       {"width", c.narrowed->width},
                          {"base", c.narrowed->base},   {"distinct", c.narrowed->distinct}};
        if (c.narrowed->checksum) cj["narrowed"]["checksum"] = checksum_hex(*c.narrowed->checksum);
      }
      if (c.zone_map) {
        cj["zonemap"] = {{"file", c.zone_map->file}, {"bytes", c.zone_map->bytes}, {"block_rows", c.zone_map->block_rows}};
        if (c.zone_map->checksum) cj["zonemap"]["checksum"] = checksum_hex(*c.zone_map->checksum);
      }
      cols.push_back(std::move(cj));
    }
    tj["columns"] = std::move(cols);
    if (!t.sort_key.empty()) tj["sort_key"] = t.sort_key;
    tables.push_back(std::move(tj));
  }
  root["tables"] = std::move(tables);
  if (!indexes.empty()) {
    json ij = json::array();
    for (auto& d : indexes) {
      json opts = json::object();
      for (auto& [k, v] : d.options) opts[k] = v;
      json one = {{"name", d.name}, {"table", d.table}, {"column", d.column}, {"kind", d.kind}, {"options", opts}};
      if (d.columns.size() > 1) one["columns"] = d.columns;  // absent for one column: the format as before
      ij.push_back(std::move(one));
    }
    root["indexes"] = std::move(ij);
  }
  if (!rt_views.empty()) {
    json vj = json::array();
    for (auto& e : rt_views)
      vj.push_back({{"name", e.name}, {"tables", e.tables}, {"versions", e.versions}, {"dir", e.dir},
                    {"definition", e.definition}, {"rows", e.rows}, {"bytes", e.bytes}});
    root["rt_views"] = std::move(vj);
  }
  if (!views.empty()) {
    json vj = json::array();
    for (auto& e : views) vj.push_back({{"name", e.name}, {"sql", e.sql}});
    root["views"] = std::move(vj);
  }
  root[kChecksumKey] = std::string(16, '0');  // last key; sealed below
  try {
    return reseal(root.dump(1) + "\n");
  } catch (const json::type_error&) {  // names that are not valid UTF-8
    fail(ErrorKind::kInvalidInput, "cannot write manifest: a table or column name is not valid UTF-8");
  }
}

std::string Manifest::reseal(std::string text) {
  size_t pos = checksum_position(text);
  if (pos == std::string::npos) return text;
  std::string hex = checksum_hex(text_checksum(text, pos));
  text.replace(pos, 16, hex);
  return text;
}

int Manifest::find_table(std::string_view name) const {
  for (size_t i = 0; i < tables.size(); i++)
    if (iequals(tables[i].name, name)) return int(i);
  return -1;
}

int Manifest::find_index(std::string_view name) const {
  for (size_t i = 0; i < indexes.size(); i++)
    if (iequals(indexes[i].name, name)) return int(i);
  return -1;
}

void Manifest::drop_indexes_of(std::string_view table) {
  std::erase_if(indexes, [&](const IndexDefinition& d) { return iequals(d.table, table); });
}

int Manifest::find_rt_view(std::string_view name) const {
  for (size_t i = 0; i < rt_views.size(); i++)
    if (iequals(rt_views[i].name, name)) return int(i);
  return -1;
}

int Manifest::find_view(std::string_view name) const {
  for (size_t i = 0; i < views.size(); i++)
    if (iequals(views[i].name, name)) return int(i);
  return -1;
}

void Manifest::drop_rt_views_of(std::string_view table) {
  std::erase_if(rt_views, [&](const RtViewEntry& e) {
    for (auto& t : e.tables)
      if (iequals(t, table)) return true;
    return false;
  });
}

std::set<std::string> Manifest::referenced_files() const {
  std::set<std::string> files;
  for (auto& t : tables)
    for (auto& c : t.columns) {
      files.insert(c.file);
      if (c.dictionary) files.insert(c.dictionary->file);
      if (c.validity) files.insert(c.validity->file);
      if (c.narrowed) files.insert(c.narrowed->file);
      if (c.zone_map) files.insert(c.zone_map->file);
    }
  return files;
}

bool is_database_data_file(std::string_view name) {
  if (name == Manifest::kTempFileName) return true;
  if (name.size() < 2 || name[0] != 'g' || name[1] < '0' || name[1] > '9') return false;
  size_t i = 1;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') i++;
  if (i >= name.size() || name[i] != '.') return false;
  return name.ends_with(".col") || name.ends_with(".dict") || name.ends_with(".valid") || name.ends_with(".nar") ||
         name.ends_with(".zmp");
}

}  // namespace raydb::persist
