/* The C API in a few lines: softmax over the rows of a matrix, then the
 * largest probability of each row, on the default device.
 *
 *   build/release/capi_example            (OPTUNE_DEVICE picks the device)
 */
#include <stdio.h>
#include <stdlib.h>

#include "optune/optune.h"

/* Every call returns a status; the message says which argument was wrong. */
#define CHECK(call)                                                                                     \
  do {                                                                                                  \
    optune_status s_ = (call);                                                                          \
    if (s_ != OPTUNE_SUCCESS) {                                                                         \
      fprintf(stderr, "%s failed: %s: %s\n", #call, optune_status_name(s_), optune_last_error_message()); \
      exit(1);                                                                                          \
    }                                                                                                   \
  } while (0)

enum { ROWS = 4, COLS = 1000 };

int main(void) {
  optune_device device;
  optune_device_info info;
  optune_context ctx;
  optune_queue queue;
  optune_buffer x, p, best;
  optune_event soft, done;
  static float host[ROWS * COLS];
  float top[ROWS];
  int64_t shape[2] = {ROWS, COLS}, rows[1] = {ROWS};
  optune_tensor tx, tp, tbest;
  const int last_axis[1] = {-1};
  double seconds;
  int i;

  CHECK(optune_device_default(&device));
  CHECK(optune_device_get_info(device, &info));
  printf("device: %s (%s)\n", info.name, info.spec);
  CHECK(optune_context_create(device, &ctx));
  CHECK(optune_queue_create(ctx, &queue));

  for (i = 0; i < ROWS * COLS; ++i) host[i] = (float)((i * 7919) % 1013) / (100.0f * (float)(1 + i / COLS));
  CHECK(optune_buffer_alloc(ctx, OPTUNE_F32, ROWS * COLS, &x));
  CHECK(optune_buffer_alloc(ctx, OPTUNE_F32, ROWS * COLS, &p));
  CHECK(optune_buffer_alloc(ctx, OPTUNE_F32, ROWS, &best));
  CHECK(optune_buffer_write(queue, x, host, ROWS * COLS, NULL, 0, NULL));

  tx.buffer = x, tx.offset = 0, tx.ndim = 2, tx.shape = shape, tx.strides = NULL;
  tp = tx, tp.buffer = p;
  tbest.buffer = best, tbest.offset = 0, tbest.ndim = 1, tbest.shape = rows, tbest.strides = NULL;
  /* Asynchronous: the queue runs in order; the last event covers the work. */
  CHECK(optune_softmax(queue, &tx, -1, &tp, NULL, 0, &soft));
  CHECK(optune_reduce(queue, OPTUNE_REDUCE_MAX, &tp, last_axis, 1, 0, &tbest, NULL, 0, &done));
  CHECK(optune_buffer_read(queue, best, top, ROWS, &done, 1, NULL));
  CHECK(optune_queue_finish(queue));
  CHECK(optune_event_elapsed(soft, &seconds));
  for (i = 0; i < ROWS; ++i) printf("row %d: largest probability %.6f\n", i, top[i]);
  printf("softmax took %.1f us on the device\n", seconds * 1e6);

  optune_event_release(soft);
  optune_event_release(done);
  optune_buffer_release(best);
  optune_buffer_release(p);
  optune_buffer_release(x);
  optune_queue_release(queue);
  optune_context_release(ctx);
  return 0;
}
