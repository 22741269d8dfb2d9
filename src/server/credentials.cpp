#include "server/credentials.h"

#include <openssl/rand.h>

#include <fstream>

#include "common/error.h"

namespace raydb::server {

Credentials Credentials::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail(ErrorKind::kIO, "cannot read password file '{}'", path);
  Credentials c;
  c.has_passwords_ = true;
  std::string line;
  for (int n = 1; std::getline(in, line); n++) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == line.size())
      fail(ErrorKind::kInvalidInput, "{}:{}: expected user:password", path, n);
    c.users_[line.substr(0, colon)] = make_scram_verifier(line.substr(colon + 1));
  }
  if (c.users_.empty()) fail(ErrorKind::kInvalidInput, "password file '{}' names no user", path);
  return c;
}

ScramVerifier Credentials::verifier(const std::string& user) const {
  auto it = users_.find(user);
  if (it != users_.end()) return it->second;
  // A random password nobody knows.
  unsigned char secret[32];
  RAND_bytes(secret, sizeof secret);
  return make_scram_verifier(std::string(reinterpret_cast<char*>(secret), sizeof secret));
}

}  // namespace raydb::server
