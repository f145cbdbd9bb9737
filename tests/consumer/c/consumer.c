/* A C consumer of the installed library, built with
 *   gcc consumer.c $(pkg-config --cflags --libs optune)
 * softmax over the rows of a 3 x 257 matrix on the default device, checked
 * against the CPU; exits non-zero on a mismatch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <optune/optune.h>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    optune_status s_ = (call);                                                                        \
    if (s_ != OPTUNE_SUCCESS) {                                                                       \
      fprintf(stderr, "%s: %s: %s\n", #call, optune_status_name(s_), optune_last_error_message());  \
      return 2;                                                                                       \
    }                                                                                                 \
  } while (0)

enum { ROWS = 3, COLS = 257 };

int main(void) {
  optune_device dev;
  optune_device_info info;
  optune_context ctx;
  optune_queue q;
  optune_buffer x, y;
  optune_tensor tx, ty;
  int64_t shape[2] = {ROWS, COLS};
  static float in[ROWS * COLS], out[ROWS * COLS];
  int i, j, bad = 0;

  CHECK(optune_device_default(&dev));
  CHECK(optune_device_get_info(dev, &info));
  printf("device: %s (%s)\n", info.name, info.spec);
  CHECK(optune_context_create(dev, &ctx));
  CHECK(optune_queue_create(ctx, &q));
  for (i = 0; i < ROWS * COLS; ++i) in[i] = (float)((i * 37) % 101) / 17.0f - 3.0f;
  CHECK(optune_buffer_alloc(ctx, OPTUNE_F32, ROWS * COLS, &x));
  CHECK(optune_buffer_alloc(ctx, OPTUNE_F32, ROWS * COLS, &y));
  CHECK(optune_buffer_write(q, x, in, ROWS * COLS, NULL, 0, NULL));
  tx.buffer = x, tx.offset = 0, tx.ndim = 2, tx.shape = shape, tx.strides = NULL;
  ty = tx, ty.buffer = y;
  CHECK(optune_softmax(q, &tx, -1, &ty, NULL, 0, NULL));
  CHECK(optune_buffer_read(q, y, out, ROWS * COLS, NULL, 0, NULL));
  CHECK(optune_queue_finish(q));

  for (i = 0; i < ROWS; ++i) {
    double top = -INFINITY, sum = 0;
    for (j = 0; j < COLS; ++j) top = fmax(top, in[i * COLS + j]);
    for (j = 0; j < COLS; ++j) sum += exp(in[i * COLS + j] - top);
    for (j = 0; j < COLS; ++j) {
      double want = exp(in[i * COLS + j] - top) / sum;
      if (fabs(out[i * COLS + j] - want) > 1e-5 * want + 1e-7) ++bad;
    }
  }
  printf("softmax %dx%d: %d mismatches\n", ROWS, COLS, bad);
  optune_buffer_release(y);
  optune_buffer_release(x);
  optune_queue_release(q);
  optune_context_release(ctx);
  return bad == 0 ? 0 : 1;
}
