#include "server/client_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace raydb::server {

ClientSocket::~ClientSocket() { close(); }

void ClientSocket::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool ClientSocket::wait_for_client() {
  for (;;) {
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    const int n = ::poll(fds, 2, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw ConnectionClosed{};
    }
    if (fds[1].revents) return false;  // stopping wins over a message already waiting
    if (fds[0].revents) return true;   // data, or a hang-up that the read reports
  }
}

void ClientSocket::read_exact(char* out, size_t n) {
  while (n > 0) {
    const ssize_t got = ::recv(fd_, out, n, 0);
    if (got == 0) throw ConnectionClosed{};
    if (got < 0) {
      if (errno == EINTR) continue;
      throw ConnectionClosed{};
    }
    out += got;
    n -= size_t(got);
  }
}

void ClientSocket::write_all(const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    // MSG_NOSIGNAL: a client that went away is an error here, not a SIGPIPE.
    const ssize_t put = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (put < 0) {
      if (errno == EINTR) continue;
      throw ConnectionClosed{};
    }
    done += size_t(put);
  }
}

}  // namespace raydb::server
