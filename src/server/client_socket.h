#pragma once
// One client connection's socket: whole reads and writes, and a wait for the next
// message that also wakes when the server shuts down.
#include <string>

namespace raydb::server {

// Thrown when the peer closed the connection or the socket failed: the session ends.
struct ConnectionClosed {};

class ClientSocket {
 public:
  // Owns `fd`; `wake_fd` becomes readable when the server stops (never read here).
  ClientSocket(int fd, int wake_fd) : fd_(fd), wake_fd_(wake_fd) {}
  ~ClientSocket();
  ClientSocket(const ClientSocket&) = delete;
  ClientSocket& operator=(const ClientSocket&) = delete;

  // Blocks until the client sends something (true) or the server stops (false).
  bool wait_for_client();
  void read_exact(char* out, size_t n);
  void write_all(const std::string& bytes);
  // Closes the connection now (the client sees it at once); idempotent.
  void close();

 private:
  int fd_;
  int wake_fd_;
};

}  // namespace raydb::server
