#pragma once
// An allocator whose value-less construct() default-initializes: resize() of a
// std::vector of a trivial type leaves the new elements unwritten, so a buffer about
// to be filled in full (a device download, a parallel fill) is not first zeroed on one
// thread, which for hundreds of MB costs as much as the fill.
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace raydb {

template <typename T, typename A = std::allocator<T>>
class DefaultInitAllocator : public A {
  using Traits = std::allocator_traits<A>;

 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
  };
  using A::A;

  template <typename U>
  void construct(U* p) noexcept(noexcept(::new (static_cast<void*>(p)) U)) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    Traits::construct(static_cast<A&>(*this), p, std::forward<Args>(args)...);
  }
};

// A vector whose resize() leaves trivial elements unwritten.
template <typename T>
using FillVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace raydb
