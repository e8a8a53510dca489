/* bench/queue/ck_ring_packets.h - Concurrency Kit's typed ck_ring of dispatch packets, as C calls.
 *
 * ck_ring.h is C only (it does not compile as C++), so ck_ring_packets.c
 * instantiates CK_RING_PROTOTYPE for the 64-byte packet and exports these. */
#ifndef ROCREF_BENCH_CK_RING_PACKETS_H
#define ROCREF_BENCH_CK_RING_PACKETS_H

#include <hsa/hsa.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rocref_ck_ring rocref_ck_ring;

/* size: a power of two; the ring holds size - 1 packets. NULL without memory. */
rocref_ck_ring* rocref_ck_ring_create(unsigned int size);
void rocref_ck_ring_destroy(rocref_ck_ring* ring);
bool rocref_ck_ring_enqueue_spsc(rocref_ck_ring* ring, const hsa_kernel_dispatch_packet_t* packet);
bool rocref_ck_ring_dequeue_spsc(rocref_ck_ring* ring, hsa_kernel_dispatch_packet_t* packet);
bool rocref_ck_ring_enqueue_mpsc(rocref_ck_ring* ring, const hsa_kernel_dispatch_packet_t* packet);
bool rocref_ck_ring_dequeue_mpsc(rocref_ck_ring* ring, hsa_kernel_dispatch_packet_t* packet);

#ifdef __cplusplus
}
#endif

#endif
