#include "exec/cpu/window/window_frame.h"

#include <algorithm>

namespace raydb::exec::cpu {

using Kind = plan::FrameBound::Kind;

size_t WindowFrame::edge(const plan::FrameBound& b, bool is_end, size_t i, size_t ps, size_t pe) const {
  // Positions are clamped into [ps, pe]; an end edge is one past the last framed row.
  const size_t off = size_t(std::min<int64_t>(b.offset, int64_t(pe - ps) + 1));
  switch (b.kind) {
    case Kind::kUnboundedPreceding: return ps;
    case Kind::kUnboundedFollowing: return pe;
    case Kind::kCurrentRow:
      if (w_.rows) return is_end ? i + 1 : i;
      return is_end ? parts_.peer_end(i) : parts_.peer_begin(i);
    case Kind::kPreceding: {
      const size_t at = i >= ps + off ? i - off : ps;  // the row `off` before, clamped
      if (is_end) return i >= ps + off ? at + 1 : ps;
      return at;
    }
    case Kind::kFollowing: {
      const size_t at = std::min(pe, i + off);
      return is_end ? std::min(pe, at + 1) : at;
    }
  }
  return ps;
}

void WindowFrame::bounds(size_t i, size_t ps, size_t pe, size_t& begin, size_t& end) const {
  begin = edge(w_.start, false, i, ps, pe);
  end = edge(w_.end, true, i, ps, pe);
  if (end < begin) end = begin;
}

}  // namespace raydb::exec::cpu
