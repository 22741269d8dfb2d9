// A query result as an ArrowDeviceArrayStream of one batch (raydb/arrow_export.h).
#include <cerrno>
#include <string>

#include "raydb/arrow_export.h"

namespace raydb {

namespace {

struct StreamData {
  std::shared_ptr<const QueryResult> result;  // get_schema exports from it
  ArrowDeviceArray batch{};                   // moved out by the first get_next
  std::string error;
};

StreamData* data_of(ArrowDeviceArrayStream* s) { return static_cast<StreamData*>(s->private_data); }

int get_schema(ArrowDeviceArrayStream* s, ArrowSchema* out) {
  try {
    export_arrow_schema(*data_of(s)->result, out);
    return 0;
  } catch (const std::exception& e) {
    data_of(s)->error = e.what();
    return ENOMEM;
  }
}

// The batch once, then a released array: the end of the stream.
int get_next(ArrowDeviceArrayStream* s, ArrowDeviceArray* out) {
  StreamData* d = data_of(s);
  *out = d->batch;  // moved: only `out` releases it
  out->device_type = s->device_type;
  d->batch = ArrowDeviceArray{};
  return 0;
}

const char* get_last_error(ArrowDeviceArrayStream* s) {
  const std::string& e = data_of(s)->error;
  return e.empty() ? nullptr : e.c_str();
}

void release_stream(ArrowDeviceArrayStream* s) {
  if (!s->release) return;
  StreamData* d = data_of(s);
  if (d->batch.array.release) d->batch.array.release(&d->batch.array);
  delete d;
  s->release = nullptr;
}

}  // namespace

void export_arrow_device_stream(const std::shared_ptr<const QueryResult>& result, ArrowDeviceType device,
                                ArrowDeviceArrayStream* stream) {
  auto d = std::make_unique<StreamData>();
  d->result = result;
  ArrowSchema schema;
  export_arrow_device(result, device, &schema, &d->batch);
  schema.release(&schema);
  *stream = ArrowDeviceArrayStream{};
  stream->device_type = device;
  stream->get_schema = get_schema;
  stream->get_next = get_next;
  stream->get_last_error = get_last_error;
  stream->release = release_stream;
  stream->private_data = d.release();
}

}  // namespace raydb
