// Saving and loading a view's rows: one little-endian file per array plus view.json,
// written into a new directory and renamed into place (storage's discipline: new
// files, fsync, rename). view.json holds each array file's checksum (storage's XXH3
// file checksum) and its own ("view_checksum", over the rest of its content as written
// by json::dump(1)); loading verifies them all, so a flipped byte or a truncated file is
// a one-line catalog error naming the file. Views written before checksums load as before.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "access/rt_view/view_group_prune.h"
#include "access/rt_view/view_rows.h"
#include "common/error.h"
#include "storage/persist/checksum.h"
#include "storage/persist/file_io.h"

namespace raydb::rtview {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kViewChecksumKey = "view_checksum";

// Writes `bytes` at `data` as dir/file and records its checksum in sums[file].
void write_checked(const std::string& dir, const std::string& file, const void* data, size_t bytes, json& sums) {
  persist::write_file_durably(dir + "/" + file, data, bytes);
  sums[file] = persist::checksum_hex(persist::file_checksum(data, bytes));
}

template <typename T>
void write_array(const std::string& dir, const std::string& file, const std::vector<T>& v, json& sums) {
  write_checked(dir, file, v.data(), v.size() * sizeof(T), sums);
}

// Reads dir/file as `count` values of T; with `sums` (view.json's "checksums") its
// checksum must match.
template <typename T>
std::vector<T> read_array(const std::string& dir, const std::string& file, size_t count, const json* sums) {
  const std::string path = dir + "/" + file;
  std::error_code ec;
  const auto bytes = fs::file_size(path, ec);
  if (ec || bytes != count * sizeof(T))
    fail(ErrorKind::kCatalog, "rt view: {} is missing or has {} bytes, expected {}", path, ec ? 0 : bytes,
         count * sizeof(T));
  std::vector<T> v(count);
  std::ifstream in(path, std::ios::binary);
  if (count > 0 && !in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(bytes)))
    fail(ErrorKind::kIO, "rt view: cannot read {}", path);
  if (sums) {
    auto it = sums->find(file);
    std::optional<uint64_t> want;
    if (it != sums->end() && it->is_string()) want = persist::parse_checksum_hex(it->get_ref<const std::string&>());
    if (!want) fail(ErrorKind::kCatalog, "rt view: {}/view.json has no checksum for {}", dir, file);
    if (persist::file_checksum(v.data(), bytes) != *want)
      fail(ErrorKind::kCatalog, "rt view: {} is corrupted: its checksum does not match view.json", path);
  }
  return v;
}

json domain_json(const AttrDomain& d, const std::string& dir, const std::string& file, json& sums) {
  json j{{"name", d.name}, {"type", d.type.to_string()}, {"min", d.min}, {"size", d.size}};
  if (d.dict) {
    write_checked(dir, file + ".dict_offsets", d.dict->offsets().data(), d.dict->offsets().size() * sizeof(uint64_t), sums);
    write_checked(dir, file + ".dict_chars", d.dict->chars().data(), d.dict->chars().size(), sums);
    j["dict_strings"] = d.dict->size();
    j["dict_chars"] = d.dict->chars().size();
  }
  return j;
}

AttrDomain domain_from(const json& j, const std::string& dir, const std::string& file, const json* sums) {
  AttrDomain d;
  d.name = j.at("name").get<std::string>();
  d.type = Type::parse(j.at("type").get<std::string>());
  d.min = j.at("min").get<int64_t>();
  d.size = j.at("size").get<uint32_t>();
  if (j.contains("dict_strings")) {
    auto offsets = read_array<uint64_t>(dir, file + ".dict_offsets", j.at("dict_strings").get<size_t>() + 1, sums);
    auto chars = read_array<char>(dir, file + ".dict_chars", j.at("dict_chars").get<size_t>(), sums);
    d.dict = std::make_shared<Dictionary>(std::move(offsets), std::string(chars.begin(), chars.end()));
  }
  return d;
}

}  // namespace

void save_view_rows(const ViewRows& v, const std::string& dir) {
  const std::string tmp = dir + ".new", old = dir + ".old";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  json meta{{"format", 1}, {"name", v.name}, {"rows", v.rows}, {"group_count", v.group_count}};
  json sums = json::object();
  for (size_t i = 0; i < v.filter_domains.size(); ++i) {
    const std::string f = "filter_" + std::to_string(i);
    meta["filters"].push_back(domain_json(v.filter_domains[i], tmp, f, sums));
    write_array(tmp, f + ".u32", v.filter_codes[i], sums);
  }
  for (size_t i = 0; i < v.group_domains.size(); ++i)
    meta["groups"].push_back(domain_json(v.group_domains[i], tmp, "group_" + std::to_string(i), sums));
  write_array(tmp, "group_tuples.u32", v.group_tuples, sums);
  write_array(tmp, "group_ids.u32", v.group_ids, sums);
  for (size_t i = 0; i < v.inputs.size(); ++i) {
    meta["inputs"].push_back(v.input_names[i]);
    write_array(tmp, "input_" + std::to_string(i) + ".i64", v.inputs[i], sums);
  }
  meta["checksums"] = std::move(sums);
  const std::string body = meta.dump(1);
  meta[kViewChecksumKey] = persist::checksum_hex(persist::file_checksum(body.data(), body.size()));
  const std::string text = meta.dump(1);
  persist::write_file_durably(tmp + "/view.json", text.data(), text.size());
  persist::fsync_directory(tmp);
  fs::remove_all(old);
  const bool had = fs::exists(dir);
  if (had) fs::rename(dir, old);
  fs::rename(tmp, dir);
  const fs::path parent = fs::absolute(fs::path(dir)).parent_path();
  persist::fsync_directory(parent.string());
  if (had) fs::remove_all(old);
}

namespace {
// Verifies and removes view.json's own checksum; returns its file checksums, or null
// for a view written before checksums (it has neither).
const json* verify_view_json(const std::string& dir, json& meta) {
  auto it = meta.find(kViewChecksumKey);
  if (it == meta.end()) {
    if (meta.contains("checksums")) fail(ErrorKind::kCatalog, "rt view: {}/view.json lacks its {}", dir, kViewChecksumKey);
    return nullptr;
  }
  std::optional<uint64_t> want;
  if (it->is_string()) want = persist::parse_checksum_hex(it->get_ref<const std::string&>());
  meta.erase(it);
  const std::string body = meta.dump(1);
  if (!want || persist::file_checksum(body.data(), body.size()) != *want)
    fail(ErrorKind::kCatalog, "rt view: {}/view.json is corrupted: its checksum does not match its content", dir);
  auto sums = meta.find("checksums");
  if (sums == meta.end() || !sums->is_object())
    fail(ErrorKind::kCatalog, "rt view: {}/view.json lacks its file checksums", dir);
  return &*sums;
}

std::shared_ptr<ViewRows> read_view_rows(const std::string& dir, json& meta) {
  const json* sums = verify_view_json(dir, meta);
  auto v = std::make_shared<ViewRows>();
  v->name = meta.at("name").get<std::string>();
  v->rows = meta.at("rows").get<uint64_t>();
  v->group_count = meta.at("group_count").get<uint32_t>();
  const size_t n = static_cast<size_t>(v->rows);
  if (meta.contains("filters")) {
    for (size_t i = 0; i < meta["filters"].size(); ++i) {
      const std::string f = "filter_" + std::to_string(i);
      v->filter_domains.push_back(domain_from(meta["filters"][i], dir, f, sums));
      v->filter_codes.push_back(read_array<uint32_t>(dir, f + ".u32", n, sums));
    }
  }
  if (meta.contains("groups"))
    for (size_t i = 0; i < meta["groups"].size(); ++i)
      v->group_domains.push_back(domain_from(meta["groups"][i], dir, "group_" + std::to_string(i), sums));
  v->group_tuples =
      read_array<uint32_t>(dir, "group_tuples.u32", size_t{v->group_count} * v->group_domains.size(), sums);
  v->group_ids = read_array<uint32_t>(dir, "group_ids.u32", n, sums);
  if (meta.contains("inputs")) {
    for (size_t i = 0; i < meta["inputs"].size(); ++i) {
      v->input_names.push_back(meta["inputs"][i].get<std::string>());
      v->inputs.push_back(read_array<int64_t>(dir, "input_" + std::to_string(i) + ".i64", n, sums));
    }
  }
  bool bad = false;  // the derived arrays below index by group id
  const int64_t rows = static_cast<int64_t>(n);
  const uint32_t* gid = v->group_ids.data();
#pragma omp parallel for schedule(static) reduction(|| : bad)
  for (int64_t r = 0; r < rows; ++r) bad = bad || gid[r] >= v->group_count;
  if (bad) fail(ErrorKind::kCatalog, "rt view: {}/group_ids.u32 names a group past group_count", dir);
  derive_group_filter_codes(*v);
  return v;
}
}  // namespace

std::shared_ptr<ViewRows> load_view_rows(const std::string& dir) {
  // A view.json with missing or mistyped fields is a catalog error too, never an
  // internal one.
  try {
    json meta = json::parse(persist::read_small_file(dir + "/view.json"));
    return read_view_rows(dir, meta);
  } catch (const json::exception& e) {
    fail(ErrorKind::kCatalog, "rt view: bad {}/view.json: {}", dir, e.what());
  }
}

}  // namespace raydb::rtview
