#include "server/listener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace raydb::server {

namespace {

bool is_loopback(const sockaddr* a) {
  if (a->sa_family == AF_INET)
    return (ntohl(reinterpret_cast<const sockaddr_in*>(a)->sin_addr.s_addr) >> 24) == 127;
  if (a->sa_family == AF_INET6) {
    const in6_addr& x = reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr;
    if (IN6_IS_ADDR_LOOPBACK(&x)) return true;
    if (IN6_IS_ADDR_V4MAPPED(&x)) return x.s6_addr[12] == 127;
  }
  return false;
}

int port_of(int fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  if (a.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port);
  return ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port);
}

}  // namespace

Listener::Listener(Database& db, Credentials credentials, ListenOptions options)
    : db_(db),
      credentials_(std::move(credentials)),
      options_(std::move(options)),
      context_{db_, credentials_, options_.query_options, nullptr, options_.server_version} {
  context_.cancel = [this](int32_t pid, int32_t secret) { cancel(pid, secret); };
  if (pipe2(wake_, O_CLOEXEC) != 0) fail(ErrorKind::kIO, "cannot create a pipe: {}", std::strerror(errno));
}

Listener::~Listener() {
  for (int fd : listen_fds_) ::close(fd);
  ::close(wake_[0]);
  ::close(wake_[1]);
}

void Listener::start() {
  bind_tcp();
  if (!options_.socket_dir.empty()) bind_unix();
}

void Listener::bind_tcp() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const int rc = getaddrinfo(options_.host.c_str(), std::to_string(options_.port).c_str(), &hints, &found);
  if (rc != 0) fail(ErrorKind::kInvalidInput, "cannot resolve --host '{}': {}", options_.host, gai_strerror(rc));
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> guard(found, freeaddrinfo);
  if (!credentials_.has_passwords())
    for (addrinfo* a = found; a; a = a->ai_next)
      if (!is_loopback(a->ai_addr))
        fail(ErrorKind::kInvalidInput, "--host {} is not a loopback address: give --password-file so that clients "
             "authenticate", options_.host);
  for (addrinfo* a = found; a; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (a->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    // With port 0, every address takes the port the first one got.
    if (port_ != 0) {
      if (a->ai_family == AF_INET) reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_port = htons(uint16_t(port_));
      else reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_port = htons(uint16_t(port_));
    }
    if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 128) != 0) {
      const int err = errno;
      ::close(fd);
      fail(ErrorKind::kIO, "cannot listen on {} port {}: {}", options_.host, port_ ? port_ : options_.port,
           std::strerror(err));
    }
    port_ = port_of(fd);
    listen_fds_.push_back(fd);
    listen_unix_.push_back(false);
  }
  if (listen_fds_.empty()) fail(ErrorKind::kIO, "no address to listen on for --host {}", options_.host);
}

// The socket psql finds with -h DIR -p PORT: DIR/.s.PGSQL.PORT, mode 0600 (trusted:
// only the server's own user may connect).
void Listener::bind_unix() {
  socket_path_ = options_.socket_dir + "/.s.PGSQL." + std::to_string(port_);
  sockaddr_un a{};
  if (socket_path_.size() >= sizeof a.sun_path) fail(ErrorKind::kInvalidInput, "socket path {} is too long", socket_path_);
  struct stat st;
  if (lstat(socket_path_.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) fail(ErrorKind::kIO, "{} exists and is not a socket", socket_path_);
    ::unlink(socket_path_.c_str());  // left by a server that did not stop cleanly
  }
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, socket_path_.c_str(), socket_path_.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const mode_t old = umask(0177);
  const bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && listen(fd, 128) == 0;
  umask(old);
  if (!ok) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    fail(ErrorKind::kIO, "cannot listen on {}: {}", socket_path_, std::strerror(err));
  }
  listen_fds_.push_back(fd);
  listen_unix_.push_back(true);
}

void Listener::stop() {
  const char b = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_[1], &b, 1);
}

void Listener::serve() {
  for (;;) {
    std::vector<pollfd> fds;
    for (int fd : listen_fds_) fds.push_back({fd, POLLIN, 0});
    fds.push_back({wake_[0], POLLIN, 0});
    if (::poll(fds.data(), fds.size(), 1000) < 0 && errno != EINTR) break;
    if (fds.back().revents) break;
    for (size_t i = 0; i + 1 < fds.size(); i++)
      if (fds[i].revents & POLLIN) accept_one(listen_fds_[i], listen_unix_[i]);
    reap(false);
  }
  // Stop accepting; sessions see the wake pipe between messages and end.
  for (int fd : listen_fds_) ::close(fd);
  listen_fds_.clear();
  if (!socket_path_.empty()) ::unlink(socket_path_.c_str());
  reap(true);
}

void Listener::accept_one(int listen_fd, bool unix_socket) {
  const int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return;
  std::lock_guard lock(workers_mutex_);
  const bool over = workers_.size() >= size_t(options_.max_connections);
  Worker w;
  w.session = std::make_shared<Session>(context_, fd, wake_[0], unix_socket, next_pid_++, over);
  w.done = std::make_shared<std::atomic<bool>>(false);
  w.thread = std::thread([s = w.session, done = w.done] {
    s->run();
    *done = true;
  });
  workers_.push_back(std::move(w));
}

void Listener::reap(bool all) {
  std::list<Worker> finished;
  {
    std::lock_guard lock(workers_mutex_);
    for (auto it = workers_.begin(); it != workers_.end();) {
      if (all || *it->done) finished.splice(finished.end(), workers_, it++);
      else ++it;
    }
  }
  for (Worker& w : finished) w.thread.join();
}

void Listener::cancel(int32_t pid, int32_t secret) {
  std::lock_guard lock(workers_mutex_);
  for (Worker& w : workers_)
    if (w.session->pid() == pid) w.session->cancel(secret);
}

}  // namespace raydb::server
