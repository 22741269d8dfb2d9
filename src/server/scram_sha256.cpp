#include "server/scram_sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <stdexcept>
#include <vector>

#include "server/wire_message.h"

namespace raydb::server {

namespace {

std::string random_bytes(size_t n) {
  std::string s(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(s.data()), int(n)) != 1)
    throw std::runtime_error("no random bytes from OpenSSL");
  return s;
}

std::string hmac_sha256(const std::string& key, const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
       out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string sha256(const std::string& data) {
  unsigned char out[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), out);
  return std::string(reinterpret_cast<char*>(out), sizeof out);
}

// The value of attribute `name` ("r", "p", ...) in a comma-separated SCRAM message.
std::optional<std::string> attribute(const std::string& message, char name) {
  size_t pos = 0;
  while (pos <= message.size()) {
    size_t end = message.find(',', pos);
    if (end == std::string::npos) end = message.size();
    if (end - pos >= 2 && message[pos] == name && message[pos + 1] == '=')
      return message.substr(pos + 2, end - pos - 2);
    pos = end + 1;
  }
  return std::nullopt;
}

}  // namespace

std::string base64_encode(const std::string& raw) {
  std::vector<unsigned char> out(4 * ((raw.size() + 2) / 3) + 1);
  const int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(raw.data()), int(raw.size()));
  return std::string(reinterpret_cast<char*>(out.data()), size_t(n));
}

std::optional<std::string> base64_decode(const std::string& text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::vector<unsigned char> out(3 * (text.size() / 4) + 1);
  const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(text.data()), int(text.size()));
  if (n < 0) return std::nullopt;
  size_t len = size_t(n);  // EVP_DecodeBlock counts the padding as zero bytes
  for (size_t i = text.size(); i > 0 && text[i - 1] == '=' && len > 0; i--) len--;
  return std::string(reinterpret_cast<char*>(out.data()), len);
}

ScramVerifier make_scram_verifier(const std::string& password) {
  ScramVerifier v;
  v.salt = random_bytes(16);
  unsigned char salted[32];
  if (PKCS5_PBKDF2_HMAC(password.data(), int(password.size()), reinterpret_cast<const unsigned char*>(v.salt.data()),
                        int(v.salt.size()), v.iterations, EVP_sha256(), sizeof salted, salted) != 1)
    throw std::runtime_error("PBKDF2 failed in OpenSSL");
  const std::string key(reinterpret_cast<char*>(salted), sizeof salted);
  v.stored_key = sha256(hmac_sha256(key, "Client Key"));
  v.server_key = hmac_sha256(key, "Server Key");
  return v;
}

std::string ScramExchange::server_first(const std::string& client_first) {
  // gs2-header "n,," (no channel binding) or "y,," (client could bind, server does not);
  // "p=..." asks for binding, which this server does not offer.
  if (client_first.size() < 3 || (client_first[0] != 'n' && client_first[0] != 'y') || client_first[1] != ',')
    throw ProtocolError{"malformed SCRAM client-first message (channel binding is not supported)"};
  const size_t bare = client_first.find(',', 2);
  if (bare == std::string::npos) throw ProtocolError{"malformed SCRAM client-first message"};
  gs2_header_ = client_first.substr(0, bare + 1);
  client_first_bare_ = client_first.substr(bare + 1);
  const std::optional<std::string> client_nonce = attribute(client_first_bare_, 'r');
  if (!client_nonce || client_nonce->empty()) throw ProtocolError{"SCRAM client-first message without a nonce"};
  nonce_ = *client_nonce + base64_encode(random_bytes(18));
  server_first_ = "r=" + nonce_ + ",s=" + base64_encode(verifier_.salt) + ",i=" + std::to_string(verifier_.iterations);
  return server_first_;
}

std::optional<std::string> ScramExchange::server_final(const std::string& client_final) {
  const size_t proof_at = client_final.rfind(",p=");
  if (proof_at == std::string::npos) throw ProtocolError{"SCRAM client-final message without a proof"};
  const std::string without_proof = client_final.substr(0, proof_at);
  const std::optional<std::string> binding = attribute(without_proof, 'c');
  const std::optional<std::string> nonce = attribute(without_proof, 'r');
  const std::optional<std::string> proof = base64_decode(client_final.substr(proof_at + 3));
  if (!binding || !nonce || !proof) throw ProtocolError{"malformed SCRAM client-final message"};
  if (*binding != base64_encode(gs2_header_) || *nonce != nonce_ || proof->size() != verifier_.stored_key.size())
    return std::nullopt;
  const std::string auth_message = client_first_bare_ + "," + server_first_ + "," + without_proof;
  const std::string client_signature = hmac_sha256(verifier_.stored_key, auth_message);
  std::string client_key = *proof;
  for (size_t i = 0; i < client_key.size(); i++) client_key[i] = char(client_key[i] ^ client_signature[i]);
  if (CRYPTO_memcmp(sha256(client_key).data(), verifier_.stored_key.data(), client_key.size()) != 0) return std::nullopt;
  return "v=" + base64_encode(hmac_sha256(verifier_.server_key, auth_message));
}

}  // namespace raydb::server
