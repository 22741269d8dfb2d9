#pragma once
// Makes a CUDA device current on the calling thread. As the first member of an object
// that owns streams and events, it runs before they are created, so they belong to
// that device.
namespace raydb::gpu {

struct CurrentDevice {
  explicit CurrentDevice(int index = 0);
};

}  // namespace raydb::gpu
