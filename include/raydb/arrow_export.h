#pragma once
// Query results as Arrow record batches: through the C Data Interface (host memory)
// and the C Device Data Interface (host or CUDA device memory). A batch is a struct
// array with one child per column. Types: BOOLEAN b, INTEGER i, BIGINT l, DOUBLE g,
// DECIMAL(p,s) decimal128, HUGEINT decimal128(38,0), DATE date32, TIMESTAMP
// timestamp[us], VARCHAR utf8 (large_utf8 past 2 GiB of text), NULL n; NULLs as
// validity bitmaps.
//
//   std::shared_ptr<const raydb::QueryResult> r = ...;
//   ArrowSchema schema;
//   ArrowDeviceArray array;
//   raydb::export_arrow_device(r, ARROW_DEVICE_CUDA, &schema, &array);
//   // wait on *(cudaEvent_t*)array.sync_event when it is not null, read, then
//   array.array.release(&array.array);
//   schema.release(&schema);
#include <memory>
#include <string>

#include "raydb/arrow_abi.h"
#include "raydb/raydb.h"

namespace raydb {

// Fills `schema` and `array` (uninitialized on entry; the consumer calls their release
// callbacks). Buffers the result already holds in Arrow's layout (BIGINT, TIMESTAMP,
// DOUBLE, HUGEINT and wide DECIMAL values) are shared, not copied; the exported array
// keeps the result alive until it is released.
void export_arrow(const std::shared_ptr<const QueryResult>& result, ArrowSchema* schema, ArrowArray* array);
// The schema alone (as export_arrow gives it).
void export_arrow_schema(const QueryResult& result, ArrowSchema* schema);

// "" when results can be exported to `device` here, else why not (one line).
// ARROW_DEVICE_CPU always; ARROW_DEVICE_CUDA with a CUDA build and device.
std::string arrow_device_unavailable(ArrowDeviceType device);

// The result as an ArrowDeviceArray on `device`:
// - ARROW_DEVICE_CPU: the buffers of export_arrow, device_id -1, no sync_event.
// - ARROW_DEVICE_CUDA: the same buffers copied once into device memory of CUDA device 0
//   (device_id 0), owned by the array and freed by its release callback (children moved
//   out by a consumer keep it until they are released too); sync_event is a
//   cudaEvent_t* recorded after the copies, which a consumer waits on before reading.
// Other devices, or CUDA without a device: Error(kInvalidInput) with
// arrow_device_unavailable's reason; out of device memory: Error(kOutOfMemory).
// Nothing is left to release when it throws.
void export_arrow_device(const std::shared_ptr<const QueryResult>& result, ArrowDeviceType device,
                         ArrowSchema* schema, ArrowDeviceArray* array);
// An ArrowDeviceArrayStream of one batch (export_arrow_device's, made now, so errors
// are thrown here rather than from get_next).
void export_arrow_device_stream(const std::shared_ptr<const QueryResult>& result, ArrowDeviceType device,
                                ArrowDeviceArrayStream* stream);

}  // namespace raydb
