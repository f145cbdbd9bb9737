/* The C API from C (compiled as C99 with -pedantic-errors): the header is
 * C-clean, and a round trip through a device works from plain C. Called by
 * test_capi (CApi.PureCTranslationUnit). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "optune/optune.h"

int optune_capi_smoke(char* message, size_t size);

#define CHECK(call)                                                                          \
  do {                                                                                       \
    optune_status s_ = (call);                                                               \
    if (s_ != OPTUNE_SUCCESS) {                                                              \
      snprintf(message, size, "line %d: %s: %s (%s)", __LINE__, #call, optune_status_name(s_), \
               optune_last_error_message());                                                 \
      goto done;                                                                             \
    }                                                                                        \
  } while (0)

#define EXPECT(cond)                                                  \
  do {                                                                \
    if (!(cond)) {                                                    \
      snprintf(message, size, "line %d: %s failed", __LINE__, #cond); \
      goto done;                                                      \
    }                                                                 \
  } while (0)

int optune_capi_smoke(char* message, size_t size) {
  enum { N = 37 };
  optune_device device = NULL;
  optune_device_info info;
  optune_context ctx = NULL;
  optune_queue queue = NULL;
  optune_buffer x = NULL, y = NULL, bad = NULL;
  optune_event ev = NULL;
  float host[N], out[N];
  int64_t shape[1];
  optune_tensor tx, ty;
  optune_op_params slope;
  double seconds = -1;
  int i, ok = 0;

  message[0] = '\0';
  CHECK(optune_device_default(&device));
  CHECK(optune_device_get_info(device, &info));
  EXPECT(info.name != NULL && info.spec != NULL && info.max_work_group_size > 0);
  CHECK(optune_context_create(device, &ctx));
  CHECK(optune_queue_create(ctx, &queue));
  CHECK(optune_buffer_alloc(ctx, OPTUNE_F32, N, &x));
  CHECK(optune_buffer_alloc(ctx, OPTUNE_F32, N, &y));
  for (i = 0; i < N; ++i) host[i] = (float)(i - 18) / 4.0f;
  CHECK(optune_buffer_write(queue, x, host, N, NULL, 0, NULL));

  shape[0] = N;
  tx.buffer = x;
  tx.offset = 0;
  tx.ndim = 1;
  tx.shape = shape;
  tx.strides = NULL;
  ty = tx;
  ty.buffer = y;
  slope.alpha = 0.5;
  slope.beta = NAN;
  CHECK(optune_unary(queue, OPTUNE_UNARY_LEAKY_RELU, &tx, &ty, &slope, NULL, 0, &ev));
  CHECK(optune_buffer_read(queue, y, out, N, &ev, 1, NULL));
  CHECK(optune_queue_finish(queue));
  CHECK(optune_event_elapsed(ev, &seconds));
  EXPECT(seconds >= 0);
  for (i = 0; i < N; ++i) EXPECT(out[i] == (host[i] > 0 ? host[i] : 0.5f * host[i]));

  /* Errors come back as codes with a message, and outputs are cleared. */
  bad = y;
  EXPECT(optune_buffer_alloc(ctx, (optune_dtype)42, N, &bad) == OPTUNE_INVALID_TYPE);
  EXPECT(bad == NULL);
  EXPECT(strstr(optune_last_error_message(), "42") != NULL);
  EXPECT(optune_unary(NULL, OPTUNE_UNARY_RELU, &tx, &ty, NULL, NULL, 0, NULL) == OPTUNE_INVALID_ARGUMENT);
  EXPECT(optune_unary(queue, (optune_unary_op)-1, &tx, &ty, NULL, NULL, 0, NULL) == OPTUNE_INVALID_ARGUMENT);
  EXPECT(strcmp(optune_status_name(OPTUNE_BUFFER_TOO_SMALL), "buffer too small") == 0);
  CHECK(optune_queue_finish(queue));
  EXPECT(optune_last_error_message()[0] == '\0');
  ok = 1;

done:
  optune_event_release(ev);
  optune_buffer_release(x);
  optune_buffer_release(y);
  optune_queue_release(queue);
  optune_context_release(ctx);
  return ok;
}
