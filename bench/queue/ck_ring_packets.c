/* bench/queue/ck_ring_packets.c - CK_RING_PROTOTYPE instantiated for hsa_kernel_dispatch_packet_t. */
#include "ck_ring_packets.h"

#include <ck_ring.h>
#include <stdlib.h>

CK_RING_PROTOTYPE(packet, hsa_kernel_dispatch_packet_s)

struct rocref_ck_ring {
  struct ck_ring ring;
  struct hsa_kernel_dispatch_packet_s* buffer;
};

rocref_ck_ring* rocref_ck_ring_create(unsigned int size) {
  rocref_ck_ring* r = aligned_alloc(64, sizeof *r);
  if (r == NULL) return NULL;
  r->buffer = aligned_alloc(64, sizeof(*r->buffer) * size);
  if (r->buffer == NULL) {
    free(r);
    return NULL;
  }
  ck_ring_init(&r->ring, size);
  return r;
}

void rocref_ck_ring_destroy(rocref_ck_ring* r) {
  if (r == NULL) return;
  free(r->buffer);
  free(r);
}

/* ck's typed calls take non-const entries; they only read them. */
bool rocref_ck_ring_enqueue_spsc(rocref_ck_ring* r, const hsa_kernel_dispatch_packet_t* p) {
  return ck_ring_enqueue_spsc_packet(&r->ring, r->buffer, (struct hsa_kernel_dispatch_packet_s*)p);
}

bool rocref_ck_ring_dequeue_spsc(rocref_ck_ring* r, hsa_kernel_dispatch_packet_t* p) {
  return ck_ring_dequeue_spsc_packet(&r->ring, r->buffer, p);
}

bool rocref_ck_ring_enqueue_mpsc(rocref_ck_ring* r, const hsa_kernel_dispatch_packet_t* p) {
  return ck_ring_enqueue_mpsc_packet(&r->ring, r->buffer, (struct hsa_kernel_dispatch_packet_s*)p);
}

bool rocref_ck_ring_dequeue_mpsc(rocref_ck_ring* r, hsa_kernel_dispatch_packet_t* p) {
  return ck_ring_dequeue_mpsc_packet(&r->ring, r->buffer, p);
}
